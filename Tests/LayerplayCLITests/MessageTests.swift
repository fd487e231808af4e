import Foundation
import Testing
import TestSupport

// Each failure is one line that says what and why: not FFmpeg's bare "Invalid argument", not an encoder's own
// chatter; and the codecs an export picks by default are ones the container takes.

@Suite("layerplay messages")
struct MessageTests {
    /// Runs an export of clip.mp4 with `arguments` in `dir`; expects one `layerplay: error:` line mentioning each of
    /// `mentions` (and not FFmpeg's bare code), exit 1, and nothing left behind.
    func expectExportFailure(_ arguments: [String], output: String, mentions: [String],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2"] + arguments + ["-o", output], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent(output), directory: dir, mentions: mentions,
                             sourceLocation: sourceLocation)
            #expect(!r.stderr.contains("Invalid argument"), "\(r)", sourceLocation: sourceLocation)
        }
    }

    @Test func aCodecTheContainerDoesNotTakeIsNamedWithTheOnesItTakes() throws {
        try expectExportFailure(["--codec", "libx264"], output: "x.webm",
                                mentions: ["'x.webm'", "webm does not take h264 video", "--codec can be libvpx-vp9"])
        try expectExportFailure(["--codec", "libx264"], output: "x.gif", mentions: ["gif does not take h264 video", "gif"])
    }

    @Test func aSizeOutsideWhatEncodersTakeSaysTheLimit() throws {
        try expectExportFailure(["--size", "1x1"], output: "x.mp4",
                                mentions: ["1x1 is too small for libx264", "even sides, 2x2 at least"])
        try expectExportFailure(["--size", "16384x16384"], output: "x.mp4",
                                mentions: ["16384x16384 is too large", "(width + 128) × (height + 128) must stay under 2^28"])
    }

    /// The mov muxer lists VP9 among its codecs but refuses it when it writes the header: its reason, one line.
    @Test func aCodecTheContainerRefusesLateIsRefusedWithItsReason() throws {
        try expectExportFailure(["--codec", "libvpx-vp9"], output: "x.mov", mentions: ["cannot write 'x.mov': vp9 only supported in MP4"])
    }

    /// Any other refusal of an encoder: the reason it logged (FFmpeg's log is kept off stderr), not the bare code.
    @Test func anEncodersOwnRefusalIsItsLoggedReason() throws {
        try expectExportFailure(["--codec", "mpeg4", "--size", "9000x200"], output: "x.avi",
                                mentions: ["cannot open the encoder mpeg4 for 'x.avi': dimensions too large for MPEG-4"])
    }

    /// GIF pictures are not subsampled: 1×1 is written as it is.
    @Test func aOnePixelGIFIsWritten() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2", "--size", "1x1", "-o", "x.gif"], in: dir))
            let probe = runLayerplay(["probe", "x.gif"], in: dir)
            #expect(probe.stdout.contains("\"width\" : 1") && probe.stdout.contains("\"height\" : 1"), "\(probe)")
        }
    }

    /// x264 printed its own line ("x264 [error]: invalid preset 'nonexistent'") before ours.
    @Test func anUnknownPresetIsOneLineListingThePresets() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2", "--preset", "nonexistent", "-o", "x.mp4"], in: dir)
            #expect(r.status == 1)
            #expect(r.stderr == "layerplay: error: unknown preset 'nonexistent' for libx264 (ultrafast, superfast, veryfast, faster,"
                    + " fast, medium, slow, slower, veryslow, placebo)\n", "\(r)")
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    /// x265 printed 25 lines of banner and statistics on a successful export, SVT-AV1 its banner and settings.
    @Test(arguments: [("libx265", "x.mp4", "hevc"), ("libx265", "x.mkv", "hevc"), ("libsvtav1", "x.mkv", "av1")])
    func anExportWithAChattyEncoderPrintsNothing(_ encoder: String, _ output: String, _ codec: String) throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--codec", encoder, "-o", output], in: dir))
            #expect(runLayerplay(["probe", output], in: dir).stdout.contains("\"codec\" : \"\(codec)\""))
        }
    }

    /// The default codec is one the container takes, and so is the audio: each of these failed.
    @Test(arguments: ["x.ts", "x.gif"])
    func theDefaultCodecsFitTheContainer(_ output: String) throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "-o", output], in: dir))
            expectSuccess(runLayerplay(["probe", output], in: dir))
        }
    }
}
