import Foundation
import Testing
import TestSupport

// Issue 29: subtitles come out of `--segments N` (the farm's local twin) as out of one export. Soft subtitle streams
// are written once, into the track file of `--audio-only` with the sound, and muxed at the join (a cue that spans a
// seam is one cue, not two halves); burnt-in subtitles are pictures of the tree, right from any segment's first frame.

/// Cues that span both seams of `--segments 3` over 3 s at 10 frames/s (segments of frames 0–9, 10–19, 20–29).
private let seamCues = """
1
00:00:00,500 --> 00:00:01,500
Over the first seam

2
00:00:01,800 --> 00:00:02,600
Over the <i>second</i> one

"""

/// A 3 s grey clip without sound and its subtitle files, in the fixtures' folder: `seams.srt`, and the clip with them
/// as a mov_text stream (`seams.mp4`, copied into an MP4 as it is) and as a SubRip stream (`seams.mkv`, re-encoded
/// into an MP4 as mov_text).
private func seamClips(_ f: SubtitleFixtures) throws {
    try seamCues.write(toFile: f.path("seams.srt"), atomically: true, encoding: .utf8)
    let grey = ["-f", "lavfi", "-i", "color=c=gray:size=160x120:rate=10:duration=3", "-i", "seams.srt"]
    let video = ["-map", "0", "-map", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"]
    try f.ffmpeg(grey + video + ["-c:s", "mov_text", "seams.mp4"])
    try f.ffmpeg(grey + video + ["-c:s", "srt", "seams.mkv"])
}

/// Each subtitle packet of `file`: its stream, times (in the stream's time base) and a hash of its bytes.
private func subtitlePackets(_ file: String, in f: SubtitleFixtures) throws -> [String] {
    let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "s", "-show_data_hash", "MD5",
                                                   "-show_entries", "packet=stream_index,pts,dts,duration,data_hash", "-of", "csv=p=0", file],
                                       in: f.directory)
    return out.split(separator: "\n").map(String.init)
}

/// ffmpeg's hash of each decoded frame of `file`'s video.
private func frameHashes(_ file: String, in f: SubtitleFixtures) throws -> [String] {
    let out = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"], in: f.directory)
    return out.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
}

@Suite("segments and subtitles")
struct SegmentSubtitleTests {
    @Test(arguments: ["seams.mp4", "seams.mkv"])
    func softSubtitlesOfSegmentsAreTheSingleExportsPackets(_ input: String) throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        try seamClips(f)
        expectSuccess(runLayerplay([input, "-o", "single.mp4"], in: f.directory, timeout: 120))
        expectSuccess(runLayerplay([input, "--segments", "3", "-o", "joined.mp4"], in: f.directory, timeout: 120))
        let single = try subtitlePackets("single.mp4", in: f), joined = try subtitlePackets("joined.mp4", in: f)
        #expect(try f.streams(of: f.path("joined.mp4")) == ["video:h264", "subtitle:mov_text"])
        #expect(single.count >= 2, "the single export carries the cues: \(single)")
        #expect(joined == single)
        // The plan says the track file carries subtitles (the farm asks for it from that), and no sound.
        let plan = runLayerplay([input, "--segments", "3", "--plan", "-o", "plan.mp4"], in: f.directory)
        expectSuccess(plan)
        #expect(plan.stdout.contains("\"audio\": false, \"subtitles\": true"), "\(plan.stdout)")
    }

    @Test func burntInSubtitlesOfSegmentsAreTheSingleExportsFrames() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        try seamClips(f)
        let args = ["seams.mp4", "--subtitles", "seams.srt", "--codec", "ffv1"]
        expectSuccess(runLayerplay(args + ["-o", "single.mkv"], in: f.directory, timeout: 120))
        expectSuccess(runLayerplay(args + ["--segments", "3", "-o", "joined.mkv"], in: f.directory, timeout: 120))
        let single = try frameHashes("single.mkv", in: f), joined = try frameHashes("joined.mkv", in: f)
        #expect(single.count == 30)
        #expect(joined == single)
        #expect(Set(single).count >= 3, "grey, cue 1 and cue 2: the subtitles are drawn")
        // Burnt in, they are not carried as a stream as well.
        #expect(try f.streams(of: f.path("joined.mkv")) == ["video:ffv1"])
    }
}
