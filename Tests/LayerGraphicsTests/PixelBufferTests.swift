import Foundation
import LayerGraphics
import Testing

// MARK: - Helpers

/// The code of one sample of a planar buffer (8 or 10 bits).
private func code(_ buffer: PixelBuffer, plane: Int, x: Int, y: Int) -> Int {
    let p = buffer.planes[plane]
    precondition(x < p.width && y < p.height)
    if buffer.format.bitDepth > 8 {
        return Int(UInt16(littleEndian: p.base.loadUnaligned(fromByteOffset: y * p.bytesPerRow + x * 2, as: UInt16.self)))
    }
    return Int(p.base.load(fromByteOffset: y * p.bytesPerRow + x, as: UInt8.self))
}

/// RGB in 0…255 from Y, Cb, Cr codes, as the documented formula of `YUVToRGB` says.
private func rgb(_ k: YUVToRGB, y: Int, cb: Int, cr: Int) -> (r: Double, g: Double, b: Double) {
    let yy = Double(k.yScale) * (Double(y) - Double(k.yOffset))
    let u = Double(cb) - Double(k.cOffset), v = Double(cr) - Double(k.cOffset)
    return (yy + Double(k.crToR) * v, yy + Double(k.cbToG) * u + Double(k.crToG) * v, yy + Double(k.cbToB) * u)
}

private func solid(_ r: Int, _ g: Int, _ b: Int, width: Int = 4, height: Int = 4) -> Image {
    Image(width: width, height: height, color: Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255))
}

private func yuv(_ buffer: PixelBuffer, x: Int = 0, y: Int = 0) -> (y: Int, u: Int, v: Int) {
    let s = buffer.format.chromaShift
    return (code(buffer, plane: 0, x: x, y: y), code(buffer, plane: 1, x: x >> s.x, y: y >> s.y), code(buffer, plane: 2, x: x >> s.x, y: y >> s.y))
}

// MARK: - Codes

@Test func bt601LimitedWhite() {
    let b = PixelBuffer(converting: solid(255, 255, 255), to: .yuv420p, matrix: .bt601, range: .limited)
    let c = yuv(b)
    #expect(c.y == 235 && c.u == 128 && c.v == 128)
}

@Test func bt601LimitedBlack() {
    let b = PixelBuffer(converting: solid(0, 0, 0), to: .yuv420p, matrix: .bt601, range: .limited)
    let c = yuv(b)
    #expect(c.y == 16 && c.u == 128 && c.v == 128)
}

@Test func bt601LimitedPrimaries() {
    // The classic BT.601 studio-swing values.
    let red = yuv(PixelBuffer(converting: solid(255, 0, 0), to: .yuv420p, matrix: .bt601, range: .limited))
    #expect(abs(red.y - 81) <= 1 && abs(red.u - 90) <= 1 && abs(red.v - 240) <= 1)
    let green = yuv(PixelBuffer(converting: solid(0, 255, 0), to: .yuv420p, matrix: .bt601, range: .limited))
    #expect(abs(green.y - 145) <= 1 && abs(green.u - 54) <= 1 && abs(green.v - 34) <= 1)
    let blue = yuv(PixelBuffer(converting: solid(0, 0, 255), to: .yuv420p, matrix: .bt601, range: .limited))
    #expect(abs(blue.y - 41) <= 1 && abs(blue.u - 240) <= 1 && abs(blue.v - 110) <= 1)
}

@Test func bt709LimitedRed() {
    let red = yuv(PixelBuffer(converting: solid(255, 0, 0), to: .yuv444p, matrix: .bt709, range: .limited))
    #expect(abs(red.y - 63) <= 1 && abs(red.u - 102) <= 1 && abs(red.v - 240) <= 1)
}

@Test func fullRangeWhiteAndBlack() {
    let white = yuv(PixelBuffer(converting: solid(255, 255, 255), to: .yuv444p, matrix: .bt709, range: .full))
    #expect(white.y == 255 && white.u == 128 && white.v == 128)
    let black = yuv(PixelBuffer(converting: solid(0, 0, 0), to: .yuv444p, matrix: .bt709, range: .full))
    #expect(black.y == 0 && black.u == 128 && black.v == 128)
}

@Test func tenBitCodes() {
    let white = yuv(PixelBuffer(converting: solid(255, 255, 255), to: .yuv420p10, matrix: .bt2020, range: .limited))
    #expect(white.y == 940 && white.u == 512 && white.v == 512)
    let black = yuv(PixelBuffer(converting: solid(0, 0, 0), to: .yuv422p10, matrix: .bt2020, range: .limited))
    #expect(black.y == 64 && black.u == 512 && black.v == 512)
    let fullWhite = yuv(PixelBuffer(converting: solid(255, 255, 255), to: .yuv444p10, matrix: .bt709, range: .full))
    #expect(fullWhite.y == 1023 && fullWhite.u == 512 && fullWhite.v == 512)
    let red = yuv(PixelBuffer(converting: solid(255, 0, 0), to: .yuv444p10, matrix: .bt601, range: .limited))
    // 64 + 876·0.299, 512 − 896·0.299/1.772, 512 + 448.
    #expect(abs(red.y - 326) <= 1 && abs(red.u - 361) <= 1 && red.v == 960)
}

@Test func semiTransparentPixelsAreUnpremultipliedAndAlphaGoesToTheAlphaPlane() {
    let image = Image(width: 2, height: 2, color: Color.red.withAlpha(0.5))
    let plain = PixelBuffer(converting: image, to: .yuv420p, matrix: .bt601, range: .limited)
    let c = yuv(plain)
    #expect(abs(c.y - 81) <= 1 && abs(c.u - 90) <= 1 && abs(c.v - 240) <= 1)
    #expect(plain.isOpaque)

    let withAlpha = PixelBuffer(converting: image, to: .yuva420p, matrix: .bt601, range: .limited)
    #expect(withAlpha.planes.count == 4)
    #expect(!withAlpha.isOpaque)
    #expect(code(withAlpha, plane: 3, x: 1, y: 1) == 128)
    #expect(abs(yuv(withAlpha).y - 81) <= 1)
}

@Test func chromaIsTheBoxAverageOfItsPixels() {
    // Left column red, right column blue: one 4:2:0 chroma sample of their average (127.5, 0, 127.5).
    let red = Color.red.premultiplied.bgra, blue = Color.blue.premultiplied.bgra
    let image = Image(width: 2, height: 2) { px in
        px[0] = red; px[1] = blue; px[2] = red; px[3] = blue
    }
    let b = PixelBuffer(converting: image, to: .yuv420p, matrix: .bt601, range: .limited)
    let kr = 0.299, kb = 0.114, kg = 1 - kr - kb
    let luma = kr * 0.5 + kb * 0.5
    let u = 128 + 224 * (0.5 - luma) / (2 * (1 - kb)), v = 128 + 224 * (0.5 - luma) / (2 * (1 - kr))
    #expect(code(b, plane: 1, x: 0, y: 0) == Int(u.rounded()))
    #expect(code(b, plane: 2, x: 0, y: 0) == Int(v.rounded()))
    // Luma stays per pixel.
    #expect(code(b, plane: 0, x: 0, y: 1) == Int((16 + 219 * kr).rounded()))
    #expect(code(b, plane: 0, x: 1, y: 0) == Int((16 + 219 * kb).rounded()))
    _ = kg
}

@Test func theLastChromaColumnAndRowOfAnOddImageCoverOnlyTheirPixels() {
    // 3×3, white except a red last column and a blue last row (the corner is blue).
    let white = Color.white.premultiplied.bgra, red = Color.red.premultiplied.bgra, blue = Color.blue.premultiplied.bgra
    let image = Image(width: 3, height: 3) { px in
        for y in 0..<3 { for x in 0..<3 { px[y * 3 + x] = y == 2 ? blue : (x == 2 ? red : white) } }
    }
    let b = PixelBuffer(converting: image, to: .yuv420p, matrix: .bt601, range: .limited)
    // (1, 0) covers the red x = 2 of rows 0 and 1 only.
    #expect(abs(code(b, plane: 1, x: 1, y: 0) - 90) <= 1 && abs(code(b, plane: 2, x: 1, y: 0) - 240) <= 1)
    // (0, 1) and (1, 1) cover only the blue row.
    #expect(abs(code(b, plane: 1, x: 0, y: 1) - 240) <= 1 && abs(code(b, plane: 2, x: 0, y: 1) - 110) <= 1)
    #expect(abs(code(b, plane: 1, x: 1, y: 1) - 240) <= 1 && abs(code(b, plane: 2, x: 1, y: 1) - 110) <= 1)
    // (0, 0) is all white.
    #expect(code(b, plane: 1, x: 0, y: 0) == 128 && code(b, plane: 2, x: 0, y: 0) == 128)
}

// MARK: - Decoding coefficients

private let testColours: [(Int, Int, Int)] = [
    (255, 255, 255), (0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255),
    (128, 128, 128), (255, 255, 0), (0, 255, 255), (255, 0, 255), (200, 100, 50), (12, 34, 210),
]

/// Converts a solid colour and decodes the codes of its bottom-right pixel with `YUVToRGB`.
private func roundTrip(_ r: Int, _ g: Int, _ b: Int, _ format: PixelFormat, _ matrix: ColorMatrix, _ range: ColorRange)
    -> (codes: (y: Int, u: Int, v: Int), back: (r: Double, g: Double, b: Double), k: YUVToRGB) {
    let k = YUVToRGB(matrix: matrix, range: range, bitDepth: format.bitDepth)
    let buffer = PixelBuffer(converting: solid(r, g, b, width: 2, height: 2), to: format, matrix: matrix, range: range)
    #expect(buffer.yuvToRGB == k)
    let c = yuv(buffer, x: 1, y: 1)
    return (c, rgb(k, y: c.y, cb: c.u, cr: c.v), k)
}

@Test(arguments: ColorMatrix.allCases, ColorRange.allCases)
func yuvToRGBUndoesTheConversionWithinOneAt10Bits(matrix: ColorMatrix, range: ColorRange) {
    for (r, g, b) in testColours {
        let t = roundTrip(r, g, b, .yuv420p10, matrix, range)
        let ok = abs(t.back.r - Double(r)) <= 1 && abs(t.back.g - Double(g)) <= 1 && abs(t.back.b - Double(b)) <= 1
        #expect(ok, "\(matrix) \(range) 10-bit (\(r),\(g),\(b)) → \(t.codes) → \(t.back)")
    }
}

@Test(arguments: ColorMatrix.allCases, ColorRange.allCases)
func yuvToRGBUndoesTheConversionOfGreysWithinOneAt8Bits(matrix: ColorMatrix, range: ColorRange) {
    for v in [0, 1, 64, 128, 200, 254, 255] {
        let t = roundTrip(v, v, v, .yuv444p, matrix, range)
        #expect(t.codes.u == 128 && t.codes.v == 128)
        let ok = abs(t.back.r - Double(v)) <= 1 && abs(t.back.g - Double(v)) <= 1 && abs(t.back.b - Double(v)) <= 1
        #expect(ok, "\(matrix) \(range) 8-bit grey \(v) → \(t.codes) → \(t.back)")
    }
}

/// At 8 bits a colour cannot always come back within ±1: each code is rounded by up to half a step, and one
/// chroma step is worth up to ~2 in R or B (and full-range chroma clips 128 + 127.5 to 255). So the bound is half
/// a code through each coefficient, which any wrong coefficient (or a swapped one) exceeds by far.
@Test(arguments: ColorMatrix.allCases, ColorRange.allCases)
func yuvToRGBUndoesTheConversionWithinHalfACodeAt8Bits(matrix: ColorMatrix, range: ColorRange) {
    for (r, g, b) in testColours {
        let t = roundTrip(r, g, b, .yuv444p, matrix, range)
        let k = t.k
        let y = Double(k.yScale) / 2
        let boundR = y + abs(Double(k.crToR)) / 2 + 1e-3
        let boundG = y + (abs(Double(k.cbToG)) + abs(Double(k.crToG))) / 2 + 1e-3
        let boundB = y + abs(Double(k.cbToB)) / 2 + 1e-3
        let ok = abs(t.back.r - Double(r)) <= boundR && abs(t.back.g - Double(g)) <= boundG && abs(t.back.b - Double(b)) <= boundB
        #expect(ok, "\(matrix) \(range) 8-bit (\(r),\(g),\(b)) → \(t.codes) → \(t.back)")
        // Never worse than 1.5 in any channel.
        #expect(abs(t.back.r - Double(r)) < 1.5 && abs(t.back.g - Double(g)) < 1.5 && abs(t.back.b - Double(b)) < 1.5)
    }
}

@Test func bt601LimitedRedComesBackWithinOne() {
    let t = roundTrip(255, 0, 0, .yuv420p, .bt601, .limited)
    #expect(t.codes.y == 81 && t.codes.u == 90 && t.codes.v == 240)
    #expect(abs(t.back.r - 255) <= 1 && abs(t.back.g) <= 1 && abs(t.back.b) <= 1)
    let white = roundTrip(255, 255, 255, .yuv420p, .bt601, .limited)
    #expect(abs(white.back.r - 255) <= 1e-3 && abs(white.back.g - 255) <= 1e-3 && abs(white.back.b - 255) <= 1e-3)
}

@Test func yuvToRGBCoefficientsOfBT601Limited() {
    let k = YUVToRGB(matrix: .bt601, range: .limited, bitDepth: 8)
    #expect(k.yOffset == 16 && k.cOffset == 128)
    #expect(abs(k.yScale - 255 / 219) < 1e-6)
    #expect(abs(k.crToR - 1.596027) < 1e-5)
    #expect(abs(k.cbToB - 2.017232) < 1e-5)
    #expect(abs(k.cbToG + 0.391762) < 1e-5)
    #expect(abs(k.crToG + 0.812968) < 1e-5)
    let ten = YUVToRGB(matrix: .bt601, range: .limited, bitDepth: 10)
    #expect(ten.yOffset == 64 && ten.cOffset == 512)
    #expect(abs(ten.yScale * 4 - k.yScale) < 1e-6)
    let full = YUVToRGB(matrix: .bt709, range: .full, bitDepth: 8)
    #expect(full.yOffset == 0 && full.cOffset == 128 && full.yScale == 1)
}

// MARK: - Plane layout

@Test func planeSizesOf420WithOddDimensions() {
    let b = PixelBuffer(format: .yuv420p, width: 5, height: 3) { _, _, _ in }
    #expect(b.planes.count == 3)
    #expect(b.planes[0].width == 5 && b.planes[0].height == 3)
    #expect(b.planes[1].width == 3 && b.planes[1].height == 2)
    #expect(b.planes[2].width == 3 && b.planes[2].height == 2)
    #expect(b.planes[0].bytesPerRow >= 5 && b.planes[1].bytesPerRow >= 3)
    #expect(b.size == Size(width: 5, height: 3))
}

@Test func planeSizesOfTheOtherFormats() {
    let p422 = PixelBuffer(format: .yuv422p, width: 7, height: 5) { _, _, _ in }
    #expect(p422.planes[1].width == 4 && p422.planes[1].height == 5)
    let p444 = PixelBuffer(format: .yuv444p10, width: 7, height: 5) { _, _, _ in }
    #expect(p444.planes[2].width == 7 && p444.planes[2].height == 5)
    #expect(p444.planes[0].bytesPerRow >= 14)
    let p420a = PixelBuffer(format: .yuva420p, width: 7, height: 5) { _, _, _ in }
    #expect(p420a.planes.count == 4)
    #expect(p420a.planes[1].width == 4 && p420a.planes[1].height == 3)
    #expect(p420a.planes[3].width == 7 && p420a.planes[3].height == 5)
    let nv12 = PixelBuffer(format: .nv12, width: 7, height: 5) { _, _, _ in }
    #expect(nv12.planes.count == 2)
    #expect(nv12.planes[1].width == 4 && nv12.planes[1].height == 3)
    #expect(nv12.planes[1].bytesPerRow >= 8)
    let bgra = PixelBuffer(format: .bgra, width: 7, height: 5) { _, _, _ in }
    #expect(bgra.planes.count == 1 && bgra.planes[0].bytesPerRow >= 28 && !bgra.isOpaque)
}

@Test func convertedOddImageHasCeilingChromaPlanes() {
    let b = PixelBuffer(converting: solid(10, 20, 30, width: 5, height: 3), to: .yuv420p10, matrix: .bt709, range: .limited)
    #expect(b.planes[1].width == 3 && b.planes[1].height == 2)
    #expect(b.format == .yuv420p10 && b.matrix == .bt709 && b.range == .limited)
    // The corner chroma sample, covering one pixel only, has the same colour as the rest.
    #expect(code(b, plane: 1, x: 2, y: 1) == code(b, plane: 1, x: 0, y: 0))
    #expect(code(b, plane: 2, x: 2, y: 1) == code(b, plane: 2, x: 0, y: 0))
}

@Test func fillWritesEveryPlaneOnce() {
    var seen: [Int] = []
    let b = PixelBuffer(format: .yuv420p, width: 4, height: 4) { plane, base, bytesPerRow in
        seen.append(plane)
        for y in 0..<(plane == 0 ? 4 : 2) { base.storeBytes(of: UInt8(10 * (plane + 1) + y), toByteOffset: y * bytesPerRow, as: UInt8.self) }
    }
    #expect(seen == [0, 1, 2])
    #expect(code(b, plane: 0, x: 0, y: 3) == 13)
    #expect(code(b, plane: 2, x: 0, y: 1) == 31)
}

@Test func formatProperties() {
    #expect(PixelFormat.yuv420p10.bitDepth == 10 && PixelFormat.nv12.bitDepth == 8)
    #expect(PixelFormat.yuv422p.chromaShift == (1, 0))
    #expect(PixelFormat.yuv444p.chromaShift == (0, 0))
    #expect(PixelFormat.nv12.chromaShift == (1, 1))
    #expect(!PixelFormat.bgra.isYUV && PixelFormat.nv12.isYUV)
}

// MARK: - PNG

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("LayerGraphicsTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func pixels(_ image: Image) -> [PremultipliedColor] {
    image.withUnsafePixels { $0.map { PremultipliedColor(bgra: $0) } }
}

private let knownPixels: [PremultipliedColor] = [
    PremultipliedColor(r: 255, g: 0, b: 0, a: 255),
    PremultipliedColor(r: 0, g: 255, b: 0, a: 255),
    PremultipliedColor(r: 1, g: 2, b: 3, a: 255),
    PremultipliedColor(r: 0, g: 0, b: 0, a: 0),
    PremultipliedColor(r: 128, g: 0, b: 0, a: 128),
    PremultipliedColor(r: 10, g: 20, b: 30, a: 40),
    PremultipliedColor(r: 100, g: 50, b: 200, a: 200),
    PremultipliedColor(r: 1, g: 0, b: 1, a: 1),
]

@Test func pngRoundTrip() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let image = Image(width: 4, height: 2) { px in
        for (i, p) in knownPixels.enumerated() { px[i] = p.bgra }
    }
    let path = dir.appendingPathComponent("round trip.png").path
    try image.writePNG(to: path)
    let back = try Image(contentsOfPNG: path)
    #expect(back.width == 4 && back.height == 2)
    #expect(!back.isOpaque)
    for (i, (got, want)) in zip(pixels(back), knownPixels).enumerated() {
        #expect(got.a == want.a, "pixel \(i)")
        if want.a == 255 || want.a == 0 {
            #expect(got == want, "pixel \(i)")
        } else {
            let ok = abs(Int(got.r) - Int(want.r)) <= 1 && abs(Int(got.g) - Int(want.g)) <= 1 && abs(Int(got.b) - Int(want.b)) <= 1
            #expect(ok, "pixel \(i): \(got) vs \(want)")
        }
    }
    // Nothing but the file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["round trip.png"])
}

@Test func pngRoundTripOfAnOpaqueImageIsExact() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let image = Image(width: 3, height: 5) { px in
        for i in 0..<15 { px[i] = PremultipliedColor(r: UInt8(i * 17), g: UInt8(255 - i * 3), b: UInt8(i * i), a: 255).bgra }
    }
    let path = dir.appendingPathComponent("opaque.png").path
    try image.writePNG(to: path)
    // Writing again replaces the file.
    try image.writePNG(to: path)
    let back = try Image(contentsOfPNG: path)
    #expect(back.width == 3 && back.height == 5)
    #expect(back.isOpaque)
    #expect(pixels(back) == pixels(image))
    #expect(back.pixel(x: 2, y: 4) == PremultipliedColor(r: 14 * 17, g: 255 - 42, b: 196, a: 255))
}

@Test func surfaceWritesPNG() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let surface = Surface(width: 2, height: 3)
    surface.clear(to: Color(red: 0, green: 0.5, blue: 1))
    let path = dir.appendingPathComponent("surface.png").path
    try surface.writePNG(to: path)
    let back = try Image(contentsOfPNG: path)
    #expect(back.width == 2 && back.height == 3)
    #expect(back.pixel(x: 1, y: 2) == PremultipliedColor(r: 0, g: 128, b: 255, a: 255))
}

@Test func readingAMissingFileNamesIt() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("missing.png").path
    do {
        _ = try Image(contentsOfPNG: path)
        Issue.record("expected an error")
    } catch let error as GraphicsError {
        #expect(error.description.contains(path))
    }
}

@Test func readingATextFileThrows() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("notes.png").path
    try "this is not a PNG file\n".write(toFile: path, atomically: true, encoding: .utf8)
    do {
        _ = try Image(contentsOfPNG: path)
        Issue.record("expected an error")
    } catch let error as GraphicsError {
        #expect(error.description.contains(path))
    }
}

@Test func writingIntoAMissingDirectoryThrows() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("no/such/dir/out.png").path
    #expect(throws: GraphicsError.self) { try Image(width: 1, height: 1, color: .red).writePNG(to: path) }
    do {
        try Image(width: 1, height: 1, color: .red).writePNG(to: path)
    } catch let error as GraphicsError {
        #expect(error.description.contains(path))
    }
}

// A PNG made by hand (RGB, no alpha; grey), to read the formats cairo gives as RGB24.

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xffff_ffff
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xffff_ffff
}

private func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// A PNG of 8-bit samples, `colourType` 2 (RGB) or 0 (grey), rows given without filter bytes.
private func handMadePNG(width: Int, height: Int, colourType: UInt8, rows: [[UInt8]]) -> [UInt8] {
    var raw: [UInt8] = []
    for row in rows { raw += [0] + row }
    // zlib: one stored deflate block.
    var a: UInt32 = 1, b: UInt32 = 0
    for x in raw { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
    let len = UInt16(raw.count)
    let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(len & 0xff), UInt8(len >> 8), UInt8(~len & 0xff), UInt8(~len >> 8)] + raw + bigEndian(b << 16 | a)
    let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colourType, 0, 0, 0]
    return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
}

@Test func readingAnRGBPNGGivesOpaquePixels() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("rgb.png").path
    let png = handMadePNG(width: 2, height: 2, colourType: 2, rows: [[255, 0, 0, 0, 255, 0], [0, 0, 255, 10, 20, 30]])
    try Data(png).write(to: URL(fileURLWithPath: path))
    let image = try Image(contentsOfPNG: path)
    #expect(image.width == 2 && image.height == 2)
    #expect(image.isOpaque)
    #expect(pixels(image) == [
        PremultipliedColor(r: 255, g: 0, b: 0, a: 255), PremultipliedColor(r: 0, g: 255, b: 0, a: 255),
        PremultipliedColor(r: 0, g: 0, b: 255, a: 255), PremultipliedColor(r: 10, g: 20, b: 30, a: 255),
    ])
}

@Test func readingAGreyPNGGivesGreyPixels() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("grey.png").path
    let png = handMadePNG(width: 3, height: 1, colourType: 0, rows: [[0, 100, 255]])
    try Data(png).write(to: URL(fileURLWithPath: path))
    let image = try Image(contentsOfPNG: path)
    #expect(image.isOpaque)
    #expect(pixels(image) == [
        PremultipliedColor(r: 0, g: 0, b: 0, a: 255), PremultipliedColor(r: 100, g: 100, b: 100, a: 255),
        PremultipliedColor(r: 255, g: 255, b: 255, a: 255),
    ])
}

@Test func imageBasics() {
    let image = Image(width: 3, height: 2, color: Color.red.withAlpha(0.5))
    #expect(image.bytesPerRow == 12)
    #expect(image.size == Size(width: 3, height: 2))
    #expect(!image.isOpaque)
    #expect(image.pixel(x: 2, y: 1) == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
    #expect(Image(width: 1, height: 1, color: .blue).isOpaque)
    let mixed = Image(width: 2, height: 1) { px in px[0] = 0xff00_0000; px[1] = 0x7f00_0000 }
    #expect(!mixed.isOpaque)
}
