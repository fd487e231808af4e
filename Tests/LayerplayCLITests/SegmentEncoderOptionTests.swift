import Foundation
import Testing
import TestSupport

/// `--encoder-opt` with `--frames A:B`: what the user asks of the encoder is kept where it cannot break the join
/// (x264's own parameters, with the segment's after them), and refused with one line where it would (threads, GOP):
/// libavcodec applies the options when the encoder opens, after the segment has set it up (CLI.md "Segments and joins").
@Suite("segments and encoder options")
struct SegmentEncoderOptionTests {
    @Test func x264ParametersAreKeptAndTheSegmentsGOPsStillWin() throws {
        try withTemporaryDirectory { dir in
            // keyint=5 would put keyframes every 5 frames; the segment's one-second GOPs (25 frames here) come after it.
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--frames", "0:50", "--encoder-opt", "x264-params=keyint=5:ref=1",
                                        "-o", "seg.mp4"], in: dir))
            let keyframes = try keyframeIndices("seg.mp4", in: dir)
            #expect(keyframes == [0, 25])
        }
    }

    @Test(arguments: ["threads=2", "g=5", "keyint_min=5"])
    func optionsThatWouldUndoTheJoinAreOneError(_ option: String) throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--frames", "0:25", "--encoder-opt", option, "-o", "seg.mp4"], in: dir)
            #expect(r.status == 1, "\(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("layerplay: error: --encoder-opt \(option.split(separator: "=")[0]) cannot be set for a segment"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("seg.mp4").path))
        }
    }
}
