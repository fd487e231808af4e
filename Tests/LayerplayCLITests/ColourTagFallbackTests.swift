import Foundation
import Testing
import TestSupport

/// Tags layerplay does not convert, and absurd HDR metadata: today's rules, at most one warning, never a trap.
@Suite("Colour tags that cannot be honoured")
struct ColourTagFallbackTests {
    /// The first half second of the sample clip re-encoded (libx264) with `extra` arguments (tags).
    private func clip(_ name: String, _ extra: [String], in dir: URL) throws {
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", mediaSample("clip.mp4"), "-t", "0.5",
                                            "-an", "-c:v", "libx264", "-qp", "0"] + extra + [name], in: dir)
    }

    private func warnings(_ r: RunResult) -> [Substring] {
        r.stderr.split(separator: "\n").filter { $0.hasPrefix("layerplay: warning:") }
    }

    @Test func anUnknownTransferFallsBackWithOneWarning() throws {
        try withTemporaryDirectory { dir in
            try clip("plain.mp4", [], in: dir)
            try clip("linear.mp4", ["-color_trc", "linear", "-color_primaries", "film"], in: dir)
            expectSuccess(runLayerplay(["plain.mp4", "-o", "plain.png"], in: dir))
            let still = runLayerplay(["linear.mp4", "-o", "linear.png"], in: dir)
            #expect(still.status == 0 && !still.timedOut)
            #expect(warnings(still).count == 1, "\(still.stderr)")
            #expect(still.stderr.contains("transfer linear") && still.stderr.contains("primaries film"))
            let a = try #require(readPNG(dir.appendingPathComponent("plain.png")))
            let b = try #require(readPNG(dir.appendingPathComponent("linear.png")))
            #expect(samePixels(a, b), "shown as the untagged clip is")
            // A whole export (15 frames) still warns once.
            let export = runLayerplay(["linear.mp4", "-o", "out.mp4"], in: dir)
            #expect(export.status == 0 && !export.timedOut)
            #expect(warnings(export).count == 1, "\(export.stderr)")
        }
    }

    @Test func zeroMasteringValuesFallBackToAThousandNits() throws {
        try withTemporaryDirectory { dir in
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x32:rate=5:duration=0.4",
                                                "-c:v", "libx265", "-x265-params", "log-level=error:hdr10=1:master-display=G(0,0)B(0,0)R(0,0)WP(0,0)L(0,0):max-cll=0,0",
                                                "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020", "-color_trc", "smpte2084",
                                                "-colorspace", "bt2020nc", "zero.mp4"], in: dir)
            let probe = runLayerplay(["probe", "zero.mp4"], in: dir)
            expectSuccess(probe)
            #expect(probe.stdout.contains("\"tone_mapping_peak\" : 1000"), "\(probe.stdout)")
            expectSuccess(runLayerplay(["zero.mp4", "-o", "zero.png"], in: dir))
        }
    }
}
