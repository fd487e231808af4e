import Foundation
import Testing

// An export's work is bounded by what the input really holds (issue 15): a damaged or crafted frame rate, a range
// past the input's end, or an absurd --duration ends in a bounded export or one error line, never in an export
// that renders for ever or until the disk fills. The damaged files are made here, by patching the boxes of a
// movie layerplay itself wrote (libx264 in MP4 at 30 frames/s: a media timescale of 15360, 512 per frame).

/// `probe`'s description of a file, as JSON.
private func probe(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let r = runLayerplay(["probe", url.path], sourceLocation: sourceLocation)
    try #require(r.status == 0, "probe failed; \(r)", sourceLocation: sourceLocation)
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
}

/// The video stream's frames per second and the container's seconds of a probed file.
private func rateAndDuration(_ url: URL) throws -> (rate: Double, seconds: Double) {
    let json = try probe(url)
    let video = try #require(json["video"] as? [String: Any])
    return (try #require(video["frame_rate"] as? Double), try #require(json["duration"] as? Double))
}

/// A 2 s, 30 frames/s MP4 of a still, written by layerplay.
private func writeMovie(in dir: URL) throws -> URL {
    let png = try writeQuadrantsPNG(in: dir)
    let movie = dir.appendingPathComponent("clip.mp4")
    let r = runLayerplay([png.path, "--duration", "2", "--fps", "30", "-o", movie.path])
    try #require(r.status == 0, "could not make the clip; \(r)")
    return movie
}

/// The movie with the 32-bit word `offset` bytes after the first `box` fourcc replaced by `value`.
private func patched(_ movie: URL, box: String, offset: Int, value: UInt32, as name: String) throws -> URL {
    var bytes = [UInt8](try Data(contentsOf: movie))
    let tag = Array(box.utf8)
    let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tag }, "no '\(box)' box")
    for i in 0..<4 { bytes[at + offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
    let url = movie.deletingLastPathComponent().appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

@Suite struct RunawayWorkTests {
    @Test(arguments: [
        // stts: fourcc, version/flags, entry count, sample count, then the sample delta (512 → 1: 15,360 frames/s).
        ("stts", 16, UInt32(1), 15_360.0),
        // mdhd (version 0): fourcc, version/flags, created, modified, then the timescale (×1e6 / 30: 1,000,000 frames/s).
        ("mdhd", 16, UInt32(512_000_000), 1_000_000.0),
    ])
    func anAbsurdFrameRateIsNotBelieved(_ box: String, _ offset: Int, _ value: UInt32, _ claimed: Double) throws {
        try withTemporaryDirectory { dir in
            let damaged = try patched(try writeMovie(in: dir), box: box, offset: offset, value: value, as: "damaged.mp4")
            let video = try #require(try probe(damaged)["video"] as? [String: Any])
            #expect(video["claimed_frame_rate"] as? Double == claimed, "the file should claim \(claimed) frames/s: \(video)")
            #expect(video["frame_rate"] as? Double == 30, "60 frames in 2 s are 30 frames/s: \(video)")
            let out = dir.appendingPathComponent("out.mp4")
            let r = runLayerplay([damaged.path, "--duration", "1", "--no-audio", "-o", out.path], timeout: 120)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("layerplay: warning:") && r.stderr.contains("claims"), "\(r)")
            let written = try rateAndDuration(out)
            #expect(written.rate == 30 && abs(written.seconds - 1) < 0.05, "a 1 s export at 30 frames/s, not \(written)")
        }
    }

    @Test(arguments: ["1e12", "100000", "3.5"])
    func aRangePastTheEndStopsAtTheEnd(_ duration: String) throws {
        try withTemporaryDirectory { dir in
            let movie = try writeMovie(in: dir)
            let out = dir.appendingPathComponent("out.mp4")
            let r = runLayerplay([movie.path, "--start", "0.5", "--duration", duration, "-o", out.path], timeout: 120)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("layerplay: warning:") && r.stderr.contains("ends at 2"), "\(r)")
            let written = try rateAndDuration(out)
            #expect(abs(written.seconds - 1.5) < 0.05, "the export should stop at the input's end: \(written)")
        }
    }

    @Test func aStillLongerThanOneExportMayBeIsRefused() throws {
        try withTemporaryDirectory { dir in
            let png = try writeQuadrantsPNG(in: dir)
            let out = dir.appendingPathComponent("out.mp4")
            let r = runLayerplay([png.path, "--duration", "1e12", "-o", out.path])
            expectRunFailure(r, absentOutput: out, mentions: ["24 hours"])
        }
    }

    @Test(arguments: ["99:99:99", "1:60", "0:61:00"])
    func clockTimesWithSixtyOrMoreMinutesOrSecondsAreUsageErrors(_ time: String) throws {
        try withTemporaryDirectory { dir in
            let png = try writeQuadrantsPNG(in: dir)
            let out = dir.appendingPathComponent("out.mp4")
            expectUsageError(runLayerplay([png.path, "--duration", time, "-o", out.path]), absentOutput: out)
        }
    }
}
