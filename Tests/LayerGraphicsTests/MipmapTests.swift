import Dispatch
import LayerGraphics
import Testing

// Image.mipmaps: level sizes, box-filtered values, built once.

private func image(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt32) -> Image {
    Image(width: width, height: height) { px in
        for y in 0..<height { for x in 0..<width { px[y * width + x] = value(x, y) } }
    }
}

/// An opaque grey word with the same value in B, G and R.
private func grey(_ v: UInt32) -> UInt32 { 0xff00_0000 | v << 16 | v << 8 | v }

@Test func mipmapLevelSizesHalveDownToOnePixel() {
    let levels = image(10, 6) { _, _ in grey(0) }.mipmaps
    #expect(levels.map { "\($0.width)x\($0.height)" } == ["5x3", "2x1", "1x1"])
    #expect(image(1, 1) { _, _ in grey(0) }.mipmaps.isEmpty)
    #expect(image(8, 1) { _, _ in grey(0) }.mipmaps.map(\.width) == [4, 2, 1])
}

@Test func mipmapHalvingAveragesTwoByTwoBlocks() {
    // Block (0,0) holds 0, 10, 20, 31 → 15.25 → 15; block (1,0) holds 100, 100, 200, 201 → 150.25 → 150.
    let values: [[UInt32]] = [[0, 10, 100, 100], [20, 31, 200, 201]]
    let level = image(4, 2) { x, y in grey(values[y][x]) }.mipmaps[0]
    #expect(level.width == 2 && level.height == 1)
    #expect(level.pixel(x: 0, y: 0).b == 15 && level.pixel(x: 0, y: 0).a == 255)
    #expect(level.pixel(x: 1, y: 0).g == 150)
    // A 1-px checkerboard of black and white is uniform grey one level down.
    let checker = image(8, 8) { x, y in (x + y) % 2 == 0 ? grey(255) : grey(0) }.mipmaps[0]
    for y in 0..<4 { for x in 0..<4 { #expect(checker.pixel(x: x, y: y).r == 128) } }
}

@Test func mipmapOddSizesWeighByCoveredArea() {
    // 3 → 1: the one output pixel covers all three inputs equally; 5 → 2: [0, 2.5) and [2.5, 5).
    let three = image(3, 1) { x, _ in grey([30, 60, 90][x]) }.mipmaps[0]
    #expect(three.pixel(x: 0, y: 0).r == 60)
    let five = image(5, 1) { x, _ in grey([0, 0, 100, 200, 200][x]) }.mipmaps[0]
    #expect(five.pixel(x: 0, y: 0).r == 20)     // (0 + 0 + 0.5·100) / 2.5
    #expect(five.pixel(x: 1, y: 0).r == 180)    // (0.5·100 + 200 + 200) / 2.5
}

@Test func mipmapKeepsPremultipliedAlpha() {
    // Half-transparent red beside transparent: the average is a quarter-alpha red whose colour never exceeds alpha.
    let half = image(2, 2) { x, _ in x == 0 ? 0x8080_0000 : 0 }.mipmaps[0]
    let p = half.pixel(x: 0, y: 0)
    #expect(p.a == 64 && p.r == 64 && p.g == 0 && p.b == 0)
}

@Test func mipmapsAreBuiltOnceEvenFromManyThreads() {
    let source = image(64, 32) { x, y in grey(UInt32((x * 4 + y) & 0xff)) }
    let first = UnsafeMutableBufferPointer<ObjectIdentifier?>.allocate(capacity: 16)
    first.initialize(repeating: nil)
    defer { first.deallocate() }
    nonisolated(unsafe) let slots = first
    DispatchQueue.concurrentPerform(iterations: 16) { i in slots[i] = ObjectIdentifier(source.mipmaps[0]) }
    let ids = Set(first.compactMap { $0 })
    #expect(ids.count == 1)
    #expect(ObjectIdentifier(source.mipmaps[0]) == ids.first)
    #expect(source.mipmaps.count == 6)
}
