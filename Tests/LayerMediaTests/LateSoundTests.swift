import Foundation
import LayerGraphics
import LayerKit
@testable import LayerMedia
import Testing
import TestSupport

/// A file whose sound starts after its picture (`ffmpeg -itsoffset` on the sound, a camera that starts recording
/// sound late) keeps that gap: media time 0 is the picture's first frame for every stream, so the sound starts as
/// late in a window and in an export, copied or re-encoded, as in the file. Each stream's own first timestamp was
/// its 0, which moved the sound to the picture's start.
@Suite("Sound that starts after the picture")
struct LateSoundTests {
    /// 2 s of picture; a tone from 0.5 s to 1.5 s (PCM, sample-exact), the file's sound stream starting at 0.5 s.
    private final class LateTone: MediaScratch {
        var clip: String { path("late-tone.mov") }

        init() throws {
            try super.init("late-sound")
            try ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=32x32:rate=10:duration=2",
                        "-itsoffset", "0.5", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:duration=1",
                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-ac", "1", "late-tone.mov"])
        }

        /// The mono 48 kHz samples of `file` on its own timeline, at least 2 s: silence before its sound starts (the
        /// ffmpeg CLI pads from the file's time 0) and after it ends, so that where the tone is tells when it plays.
        func samples(of file: String) throws -> [Float] {
            let samples = try monoSamples(of: file, filter: "aresample=async=1:first_pts=0")
            // After its sound ends a file is silent: padded to the 2 s of picture.
            return samples + [Float](repeating: 0, count: max(0, 2 * 48000 - samples.count))
        }
    }

    /// Which quarter seconds of `samples` (48 kHz mono) sound: the RMS of each quarter's middle 0.15 s above -40 dBFS.
    private func soundingQuarters(_ samples: [Float]) -> [Bool] {
        let quarter = 12_000, margin = 1_800
        return stride(from: 0, to: samples.count - quarter + 1, by: quarter).map { start in
            let part = samples[(start + margin)..<(start + quarter - margin)]
            let rms = (part.reduce(0.0) { $0 + Double($1 * $1) } / Double(part.count)).squareRoot()
            return rms > 0.01
        }
    }

    /// The tone from 0.5 s to 1.5 s of 2 s.
    private let lateTone = [false, false, true, true, true, true, false, false]

    @Test func theFileKeepsItsGapAsTheCLIDecodesIt() throws {
        let clip = try LateTone()
        #expect(soundingQuarters(try clip.samples(of: clip.clip)).prefix(8) == lateTone[...])
    }

    @Test func aWindowPlaysTheSoundAsLateAsTheFile() throws {
        let clip = try LateTone()
        let stream = try AudioStream(path: clip.clip, sampleRate: 48000, channels: 1,
                                     range: PlaybackRange(start: 0, end: .infinity, loops: false), placement: AudioPlacement(offset: 0),
                                     bufferSeconds: 3)
        defer { stream.stop() }
        Thread.sleep(forTimeInterval: 1.5)
        var out: [Float] = [], chunk = [Float](repeating: 0, count: 1024)
        while out.count < 2 * 48000 {
            _ = chunk.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, frames: 1024) }
            out += chunk
        }
        #expect(soundingQuarters(out) == lateTone)
    }

    /// Exports 2 s of a plain tree with the clip's sound into `name` (.mov copies the PCM, .mp4 re-encodes it).
    @Test(arguments: ["copied.mov", "encoded.mp4"])
    func anExportKeepsTheSoundAsLateAsTheFile(name: String) throws {
        let clip = try LateTone()
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 32, height: 32)
        root.backgroundColor = .black
        let out = clip.folder.appendingPathComponent(name).path
        let exporter = Exporter(root: root, width: 32, height: 32,
                                settings: EncoderSettings(codec: nil, crf: 30, preset: "veryfast", frameRate: MovieWriter.rational(10)),
                                start: 0, frameCount: 20, audioSource: clip.clip)
        _ = try exporter.export(to: out, replacing: true) { _ in }
        #expect(soundingQuarters(try clip.samples(of: out)).prefix(8) == lateTone[...], "\(name)")
    }
}
