import Foundation
import LayerGraphics
import Testing

// What `make fuzz` found, kept as CLI runs: the binary must end each one with a status of its own choosing (never
// a signal), whatever FFmpeg thinks of the file.

/// A 2×2 red lossless WebP (36 bytes), made by
/// `ffmpeg -f lavfi -i color=red:s=2x2 -frames:v 1 -c:v libwebp -lossless 1 red.webp`.
private let redWebP: [UInt8] = [
    0x52, 0x49, 0x46, 0x46, 0x1c, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50,
    0x56, 0x50, 0x38, 0x4c, 0x0f, 0x00, 0x00, 0x00, 0x2f, 0x01, 0x40, 0x00,
    0x00, 0x07, 0x10, 0xf5, 0x8f, 0xfe, 0x07, 0x22, 0xa2, 0xff, 0x01, 0x00,
]

@Suite("fuzz findings")
struct FuzzFindingTests {
    /// FuzzMedia's first finding: a WebP followed by 16 bytes of junk. The webp_pipe demuxer hands the junk over
    /// as a second packet, and FFmpeg 5.1's WebP decoder with frame threads then aborts the process
    /// (`Assertion frame->buf[0] failed at decode.c:502`; `ffmpeg -threads 2 -i` aborts too).
    @Test(arguments: [["-o", "out.png"], ["--duration", "0.2", "-o", "out.mp4"]])
    func aWebPWithTrailingJunkIsShownNotAborted(_ output: [String]) throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("junk-after.webp")
            try Data(redWebP + [UInt8](repeating: 0xff, count: 16)).write(to: file)
            let r = runLayerplay(["junk-after.webp", "--size", "8x8"] + output, in: dir)
            expectSuccess(r)
            if output.last == "out.png", let out = readPNG(dir.appendingPathComponent("out.png")) {
                expectPixel(out, 4, 4, is: .red, "the picture before the junk")
            }
            #expect(partialFiles(in: dir).isEmpty)
        }
    }
}
