import Foundation
import LayerGraphics
@testable import LayerMedia
import Testing
import TestSupport

/// The sRGB codes (0…255) of a colour given as Display P3 codes: the sRGB curve, P3 → BT.709 in linear light, the
/// curve back (what a colour-managed viewer shows for an in-gamut colour).
private func p3ToSRGB(_ c: SIMD3<Double>) -> SIMD3<Double> {
    func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    func encoded(_ v: Double) -> Double { let v = min(max(v, 0), 1); return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
    let l = ColorPrimaries.displayP3.toBT709.apply(SIMD3(linear(c.x / 255), linear(c.y / 255), linear(c.z / 255)))
    return SIMD3(encoded(l.x), encoded(l.y), encoded(l.z)) * 255
}

private func rgb(_ image: Image, _ x: Int, _ y: Int) -> SIMD3<Double> {
    let p = image.pixel(x: x, y: y)
    return SIMD3(Double(p.r), Double(p.g), Double(p.b))
}

private func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
}

/// Left half one P3 colour, right half another (both inside sRGB's gamut once converted).
private let p3Colours: [SIMD3<Double>] = [SIMD3(200, 120, 60), SIMD3(40, 160, 210)]

@Suite("Pictures with an ICC profile")
struct ICCImageTests {
    private func writePNG(_ name: String, profile: [UInt8]?, in dir: URL) throws -> String {
        let data = ICCPNG.data(width: 16, height: 8, profile: profile) { x, _ in
            let c = p3Colours[x < 8 ? 0 : 1]
            return (UInt8(c.x), UInt8(c.y), UInt8(c.z))
        }
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    @Test func aDisplayP3PNGIsConvertedToSRGB() throws {
        let profile = ICCConversion.displayP3Profile()
        #expect(profile.count > 128)
        try withTemporaryDirectory { dir in
            let tagged = try ImageLoader.load(path: writePNG("p3.png", profile: profile, in: dir))
            let untagged = try ImageLoader.load(path: writePNG("plain.png", profile: nil, in: dir))
            for (i, colour) in p3Colours.enumerated() {
                let x = i * 8 + 4
                #expect(rgb(untagged, x, 4) == colour, "a picture without a profile keeps its codes")
                let expected = p3ToSRGB(colour)
                #expect(maxDifference(rgb(tagged, x, 4), expected) <= 2, "\(rgb(tagged, x, 4)) vs \(expected)")
                #expect(maxDifference(expected, colour) > 10, "the test colour is one that P3 → sRGB changes")
            }
        }
    }

    @Test func aDisplayP3PNGAsTheMovieInputIsConvertedToo() throws {
        // The still/movie path (VideoFrameSource → FrameConverter) gives the same pixels as ImageLoader.
        try withTemporaryDirectory { dir in
            let path = try writePNG("p3.png", profile: ICCConversion.displayP3Profile(), in: dir)
            let frame = try #require(try VideoFrameSource(path: path).frame(at: 0))
            let buffer = frame.pixelBuffer
            #expect(buffer.format == .bgra)
            let word = buffer.planes[0].base.load(fromByteOffset: 4 * buffer.planes[0].bytesPerRow + 4 * 4, as: UInt32.self)
            let got = SIMD3(Double((word >> 16) & 0xFF), Double((word >> 8) & 0xFF), Double(word & 0xFF))
            #expect(maxDifference(got, p3ToSRGB(p3Colours[0])) <= 2)
        }
    }

    @Test func aJPEGWithAnAPP2ProfileIsConverted() throws {
        try withTemporaryDirectory { dir in
            let png = try writePNG("plain.png", profile: nil, in: dir)
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", png, "-q:v", "1", "plain.jpg"], in: dir)
            let jpeg = try Data(contentsOf: dir.appendingPathComponent("plain.jpg"))
            // APP2 "ICC_PROFILE\0", chunk 1 of 1, right after SOI (how cameras and phones store it).
            let profile = ICCConversion.displayP3Profile()
            var segment = Data([0xFF, 0xE2])
            let length = 2 + 12 + 2 + profile.count
            segment.append(contentsOf: [UInt8(length >> 8), UInt8(length & 0xFF)])
            segment.append(Data("ICC_PROFILE".utf8) + Data([0, 1, 1]) + Data(profile))
            let tagged = jpeg.prefix(2) + segment + jpeg.dropFirst(2)
            try tagged.write(to: dir.appendingPathComponent("p3.jpg"))
            let plain = try ImageLoader.load(path: dir.appendingPathComponent("plain.jpg").path)
            let converted = try ImageLoader.load(path: dir.appendingPathComponent("p3.jpg").path)
            for x in [4, 12] {
                #expect(maxDifference(rgb(converted, x, 4), p3ToSRGB(rgb(plain, x, 4))) <= 3, "\(rgb(converted, x, 4)) vs \(p3ToSRGB(rgb(plain, x, 4)))")
            }
        }
    }

    @Test func aWebPWithAnICCPChunkIsConverted() throws {
        // A lossless WebP made by ffmpeg (libwebp), then its chunks rewritten as an extended file (VP8X with the ICC
        // flag, 0x20) carrying the P3 profile in an ICCP chunk before the picture: how phones and editors write them.
        try withTemporaryDirectory { dir in
            let png = try writePNG("plain.png", profile: nil, in: dir)
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", png, "-c:v", "libwebp", "-lossless", "1", "plain.webp"], in: dir)
            let plainData = [UInt8](try Data(contentsOf: dir.appendingPathComponent("plain.webp")))
            try #require(plainData.count > 20 && plainData[0..<4] == Array("RIFF".utf8)[...] && plainData[8..<12] == Array("WEBP".utf8)[...])
            func chunk(_ tag: String, _ body: [UInt8]) -> [UInt8] {
                let n = body.count
                return Array(tag.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body + (n % 2 == 1 ? [0] : [])
            }
            // The file's chunks after the header; a VP8X of its own (alpha, say) is dropped and made again.
            var chunks: [(tag: String, body: [UInt8])] = [], at = 12
            while at + 8 <= plainData.count {
                let n = Int(plainData[at + 4]) | Int(plainData[at + 5]) << 8 | Int(plainData[at + 6]) << 16 | Int(plainData[at + 7]) << 24
                chunks.append((String(decoding: plainData[at..<(at + 4)], as: UTF8.self), Array(plainData[(at + 8)..<min(plainData.count, at + 8 + n)])))
                at += 8 + n + n % 2
            }
            let oldFlags = chunks.first { $0.tag == "VP8X" }?.body.first ?? 0
            let (w, h) = (16 - 1, 8 - 1)
            let vp8x = [oldFlags | 0x20, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16), UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16)]
            var body = Array("WEBP".utf8) + chunk("VP8X", vp8x) + chunk("ICCP", ICCConversion.displayP3Profile())
            for c in chunks where c.tag != "VP8X" { body += chunk(c.tag, c.body) }
            let n = body.count
            try Data(Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body)
                .write(to: dir.appendingPathComponent("p3.webp"))
            let plain = try ImageLoader.load(path: dir.appendingPathComponent("plain.webp").path)
            let converted = try ImageLoader.load(path: dir.appendingPathComponent("p3.webp").path)
            for (i, colour) in p3Colours.enumerated() {
                let x = i * 8 + 4
                #expect(rgb(plain, x, 4) == colour, "lossless: the plain WebP keeps its codes")
                #expect(maxDifference(rgb(converted, x, 4), p3ToSRGB(colour)) <= 2, "\(rgb(converted, x, 4)) vs \(p3ToSRGB(colour))")
            }
        }
    }

    @Test func aDamagedProfileLeavesThePictureAsItIs() throws {
        try withTemporaryDirectory { dir in
            var profile = ICCConversion.displayP3Profile()
            for i in 0..<min(64, profile.count) { profile[i] = 0xA5 }
            let damaged = try ImageLoader.load(path: writePNG("bad.png", profile: profile, in: dir))
            #expect(rgb(damaged, 4, 4) == p3Colours[0])
        }
    }
}
