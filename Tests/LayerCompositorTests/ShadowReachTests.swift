@testable import LayerCompositor
import LayerGraphics
import Testing

// A shadow is drawn only over its blurred mask's reach (Shadows.swift): the texels whose bilinear samples may be
// above 0. Too small a reach would cut the shadow's soft edge; these check it against the samples themselves.

private func mask(_ width: Int, _ height: Int, nonzero: [(Int, Int, UInt8)]) -> AlphaMask {
    let m = AlphaMask(width: width, height: height)
    for (x, y, v) in nonzero { m.bytes[y * m.bytesPerRow + x] = v }
    return m
}

@Test func theReachIsTheNonzeroBoxGrownByATexelWithinTheMask() {
    let inside = mask(20, 12, nonzero: [(5, 4, 1), (9, 7, 200), (7, 3, 3)])
    #expect(inside.reach == PixelRect(x0: 4, y0: 2, x1: 11, y1: 9))
    let atTheEdges = mask(20, 12, nonzero: [(0, 11, 9), (19, 0, 9)])
    #expect(atTheEdges.reach == PixelRect(x0: 0, y0: 0, x1: 20, y1: 12))
    #expect(mask(8, 8, nonzero: []).reach == nil)
}

@Test func noBilinearSampleOutsideTheReachIsAboveZero() throws {
    // A blurred disc off-centre in a mask with a wide margin, as makeShadow builds them.
    let m = AlphaMask(width: 48, height: 40)
    for y in 0..<m.height { for x in 0..<m.width where (x - 18) * (x - 18) + (y - 15) * (y - 15) < 36 { m.bytes[y * m.bytesPerRow + x] = 255 } }
    GaussianBlur.apply(to: m, sigma: 2.5, threads: 1)
    let reach = try #require(m.reach)
    #expect(reach.x0 > 0 && reach.y0 > 0 && reach.x1 < m.width && reach.y1 < m.height, "the margin is wider than the blur")
    func texel(_ x: Int, _ y: Int) -> Int {
        Int(m.bytes[min(max(y, 0), m.height - 1) * m.bytesPerRow + min(max(x, 0), m.width - 1)])
    }
    var outside = 0
    // Texel positions (centre rule: the taps are floor(t − ½) and the next) every 1/8 texel over the mask and beyond.
    for j in -16..<(8 * m.height + 16) {
        for i in -16..<(8 * m.width + 16) {
            let tx = Double(i) / 8, ty = Double(j) / 8
            if tx >= Double(reach.x0) && tx <= Double(reach.x1) && ty >= Double(reach.y0) && ty <= Double(reach.y1) { continue }
            outside += 1
            let x0 = Int((tx - 0.5).rounded(.down)), y0 = Int((ty - 0.5).rounded(.down))
            let taps = [texel(x0, y0), texel(x0 + 1, y0), texel(x0, y0 + 1), texel(x0 + 1, y0 + 1)]
            #expect(taps.allSatisfy { $0 == 0 }, "a sample at (\(tx), \(ty)) outside the reach reads \(taps)")
            if taps.contains(where: { $0 != 0 }) { return }
        }
    }
    #expect(outside > 1000)
    // And it is tight: samples one texel inside the reach's top and left sides read a nonzero texel somewhere.
    func sampleIsAboveZero(_ tx: Double, _ ty: Double) -> Bool {
        let x0 = Int((tx - 0.5).rounded(.down)), y0 = Int((ty - 0.5).rounded(.down))
        let sum: Int = texel(x0, y0) + texel(x0 + 1, y0) + texel(x0, y0 + 1) + texel(x0 + 1, y0 + 1)
        return sum > 0
    }
    let top = (reach.x0..<reach.x1).contains { sampleIsAboveZero(Double($0) + 0.5, Double(reach.y0) + 1) }
    let left = (reach.y0..<reach.y1).contains { sampleIsAboveZero(Double(reach.x0) + 1, Double($0) + 0.5) }
    #expect(top && left)
}
