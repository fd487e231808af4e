import Foundation
import LayerGraphics
import LayerMedia
import Testing
import TestSupport

/// Decoded frames carry their colour, and leave the decoder as the compositor shows them: every consumer (the
/// window's player, stills, exports) takes frames from `VideoFrameSource`, so this is the frame each of them gets.
@Suite("HDR frames from the decoder")
struct HDRFrameTests {
    /// The codes of plane `p` of a buffer (8 or 10 bits), row by row.
    private func codes(_ b: PixelBuffer, plane p: Int) -> [UInt16] {
        let plane = b.planes[p], wide = b.format.bitDepth > 8
        return (0..<plane.height).flatMap { y in
            (0..<plane.width).map { x in
                wide ? plane.base.load(fromByteOffset: y * plane.bytesPerRow + 2 * x, as: UInt16.self)
                    : UInt16(plane.base.load(fromByteOffset: y * plane.bytesPerRow + x, as: UInt8.self))
            }
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
            // Converted in 10 bits, then on in 8 (SEMANTICS.md §Colour).
            #expect(b.format == .yuv420p && b.matrix == .bt709 && b.range == .limited)
            // Deterministic: a second source gives the same codes (the window, a still and an export agree).
            let again = try #require(try VideoFrameSource(path: clip.path).frame(at: 0)).pixelBuffer
            for p in 0..<3 { #expect(codes(b, plane: p) == codes(again, plane: p)) }
        }
    }

    @Test func aPlayerLayersFramesAreConvertedAtTheSizeItShowsThem() throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.pq, in: dir)
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-stream_loop", "9", "-i", clip.path,
                                                "-c", "copy", "ten.mp4"], in: dir)
            let player = try Player(path: dir.appendingPathComponent("ten.mp4").path)
            let layer = PlayerLayer(player: player)
            layer.bounds = Rect(x: 0, y: 0, width: 64, height: 16)
            // A frame decoded after the layer laid out (past the decoder's queue of four) comes at the level such a
            // layer draws, a quarter of 256×64, and stands for the whole frame; a draw can still take any level.
            let late = try #require(player.frame(at: 0.3)).pixelBuffer
            #expect(late.width == 64 && late.height == 16 && late.frameSize == Size(width: 256, height: 64))
            #expect(late.levels?.picture(level: 0).width == 256)
        }
    }

    @Test func anSDRBT709TenBitFrameKeepsItsCodesInEightBits() throws {
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
            #expect(b.matrix == .bt709 && b.format == .yuv420p)
            // No colour conversion: each 10-bit code as encoded, ÷ 4 with the 2×2 ordered dither 0, 2 / 3, 1.
            var expected: [UInt16] = [], offset = 0
            for p in 0..<3 {
                let plane = b.planes[p]
                for y in 0..<plane.height {
                    for x in 0..<plane.width {
                        let d: UInt16 = y % 2 == 0 ? (x % 2 == 0 ? 0 : 2) : (x % 2 == 0 ? 3 : 1)
                        expected.append(min((written[offset + y * plane.width + x] + d) >> 2, 255))
                    }
                }
                offset += plane.width * plane.height
            }
            #expect(codes(b, plane: 0) + codes(b, plane: 1) + codes(b, plane: 2) == expected, "the decoder's codes, as encoded, in 8 bits")
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
