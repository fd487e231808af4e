import Foundation
import Testing
import TestSupport

/// A plain transcode keeps the video's frames exactly: as many, at the same times (CLI.md, `--start`/`--duration`).
/// The default range is the video stream's, not the container's: the container lasts as long as its longest
/// stream, and sound often runs past the picture (by AAC's 23 ms of priming at least), where the export used to
/// repeat the last frame to fill it (91 frames of a 90-frame clip). Sound past the last frame's end is cut there.
@Suite("layerplay transcode keeps the frames")
struct TranscodeFrameTests {
    /// One audio frame of AAC at 44.1 kHz: the granularity at which copied sound can be cut.
    static let audioFrame = 1024.0 / 44100

    /// Inputs of 90 frames at 30 frames/s (3 s, 160×90) whose AAC sound is longer, shorter and later than the
    /// picture, and the clip: a Matroska file (which records no per-stream duration) whose 3 s of AAC ends
    /// 23 ms after the picture.
    static let inputs: [(name: String, ffmpegArguments: [String])] = {
        let picture = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=3"]
        func sound(_ seconds: Double) -> [String] { ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(seconds)"] }
        let codecs = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15", "-c:a", "aac"]
        return [
            ("longer.mp4", picture + sound(3.5) + codecs + ["longer.mp4"]),
            ("shorter.mp4", picture + sound(2) + codecs + ["shorter.mp4"]),
            ("later.mp4", picture + ["-itsoffset", "0.5"] + sound(3) + codecs + ["later.mp4"]),
            ("same.mkv", picture + sound(3) + codecs + ["same.mkv"]),
        ]
    }()

    struct Packet { var time: Double; var duration: Double }

    /// The packets of the first stream of `kind` (`v` or `a`) of `file`, in presentation order.
    static func packets(_ kind: String, of file: String, in dir: URL) throws -> [Packet] {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(kind):0", "-show_entries",
                                                       "packet=pts_time,duration_time", "-of", "csv=p=0", file], in: dir)
        return out.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard let time = fields.first ?? nil else { return nil }
            return Packet(time: time, duration: fields.count > 1 ? (fields[1] ?? 0) : 0)
        }.sorted { $0.time < $1.time }
    }

    @Test(arguments: ["mp4", "mkv", "mov", "ts"])
    func aTranscodeKeepsTheVideosFramesAndCutsTheSoundAtTheirEnd(container: String) throws {
        try withTemporaryDirectory { dir in
            for input in Self.inputs {
                try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + input.ffmpegArguments, in: dir)
                let output = "out-\((input.name as NSString).deletingPathExtension).\(container)"
                expectSuccess(runLayerplay([input.name, "-o", output], in: dir))
                let what = "\(input.name) → \(output)"

                let frames = try Self.packets("v", of: input.name, in: dir)
                let written = try Self.packets("v", of: output, in: dir)
                #expect(frames.count == 90, "the input has 90 frames: \(what)")
                #expect(written.count == frames.count, "as many frames as the input, none repeated at the end: \(what)")
                // The same times, measured from the first frame (a .ts starts at 1.4 s); Matroska keeps milliseconds.
                let times = frames.map { $0.time - frames[0].time }
                let writtenTimes = written.map { $0.time - (written.first?.time ?? 0) }
                let worst = zip(times, writtenTimes).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= 0.0015, "frame times differ by up to \(worst) s: \(what)")

                // The sound ends at the last frame's end at the latest (a copied AAC frame may reach one frame
                // past it), and where the input's sound ends earlier, it still ends where it did.
                let pictureEnd = (times.last ?? 0) + 1.0 / 30
                let sound = try Self.packets("a", of: input.name, in: dir)
                let writtenSound = try Self.packets("a", of: output, in: dir)
                let origin = written.first?.time ?? 0
                let soundEnd = (writtenSound.map { $0.time + $0.duration }.max() ?? 0) - origin
                #expect(!writtenSound.isEmpty, "the sound is kept: \(what)")
                #expect(soundEnd <= pictureEnd + Self.audioFrame + 0.002, "the sound ends at \(soundEnd) s, the picture at \(pictureEnd) s: \(what)")
                let inputSoundEnd = (sound.map { $0.time + $0.duration }.max() ?? 0) - frames[0].time
                #expect(soundEnd >= min(inputSoundEnd, pictureEnd) - Self.audioFrame - 0.002,
                        "the sound ends at \(soundEnd) s, early (the input's at \(inputSoundEnd) s): \(what)")
                // Sound that starts after the picture starts as late in the movie (LateSoundTests has why).
                let inputSoundStart = (sound.first?.time ?? 0) - frames[0].time
                let soundStart = (writtenSound.first?.time ?? 0) - origin
                #expect(abs(soundStart - inputSoundStart) <= Self.audioFrame + 0.002,
                        "the sound starts at \(soundStart) s, in the input at \(inputSoundStart) s: \(what)")
            }
        }
    }
}
