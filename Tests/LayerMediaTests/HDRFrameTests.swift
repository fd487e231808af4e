import Foundation
import LayerGraphics
import LayerMedia
import Testing
import TestSupport

/// Decoded frames carry their colour, and leave the decoder as the compositor shows them: every consumer (the
/// window's player, stills, exports) takes frames from `VideoFrameSource`, so this is the frame each of them gets.
@Suite("HDR frames from the decoder")
struct HDRFrameTests {
    /// The 10-bit codes of plane `p` of a buffer, row by row.
    private func codes(_ b: PixelBuffer, plane p: Int) -> [UInt16] {
        let plane = b.planes[p]
        return (0..<plane.height).flatMap { y in
            (0..<plane.width).map { x in plane.base.load(fromByteOffset: y * plane.bytesPerRow + 2 * x, as: UInt16.self) }
        }
    }

    @Test func aPQFrameCarriesItsColourAndIsConvertedOnce() throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.pq, in: dir)
            let frame = try #require(try VideoFrameSource(path: clip.path).frame(at: 0))
            #expect(frame.color.transfer == .pq && frame.color.primaries == .bt2020 && frame.color.matrix == .bt2020)
            #expect(frame.color.range == .limited)
            #expect(frame.color.masteringDisplay?.maxLuminance == 1000)
            #expect(frame.color.masteringDisplay?.minLuminance == 0.0001)
            #expect(frame.color.contentLightLevel == ContentLightLevel(maxContentLightLevel: 1000, maxFrameAverageLightLevel: 400))
            let b = frame.pixelBuffer
            #expect(b.format == .yuv420p10 && b.matrix == .bt709 && b.range == .limited)
            // Deterministic: a second source gives the same codes (the window, a still and an export agree).
            let again = try #require(try VideoFrameSource(path: clip.path).frame(at: 0)).pixelBuffer
            for p in 0..<3 { #expect(codes(b, plane: p) == codes(again, plane: p)) }
        }
    }

    @Test func anSDRBT709TenBitFramePassesUntouched() throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.pq, in: dir)
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", clip.path, "-c", "copy", "-bsf:v",
                                                "hevc_metadata=colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1",
                                                "sdr.mp4"], in: dir)
            let frame = try #require(try VideoFrameSource(path: dir.appendingPathComponent("sdr.mp4").path).frame(at: 0))
            #expect(frame.color.transfer == .sdr && frame.color.primaries == .bt709 && !frame.color.needsConversion)
            let raw = try Data(contentsOf: dir.appendingPathComponent("pq.yuv"))
            let written = raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            let b = frame.pixelBuffer
            #expect(b.matrix == .bt709 && b.format == .yuv420p10)
            #expect(codes(b, plane: 0) + codes(b, plane: 1) + codes(b, plane: 2) == written, "the decoder's codes, as encoded")
        }
    }

    @Test func anHLGFrameIsReadAsHLG() throws {
        // Dolby Vision 8.4 (iPhone) decodes as this: its base layer is HLG, tagged arib-std-b67.
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.hlg, in: dir)
            let frame = try #require(try VideoFrameSource(path: clip.path).frame(at: 0))
            #expect(frame.color.transfer == .hlg && frame.color.sourcePeak == 1000 && frame.color.needsConversion)
            #expect(frame.pixelBuffer.matrix == .bt709)
        }
    }
}
