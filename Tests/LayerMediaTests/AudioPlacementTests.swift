import Foundation
import LayerGraphics
import LayerKit
@testable import LayerMedia
import Testing
import TestSupport

/// A scene input's sound placed like its picture (SCENES.md §6): a negative `start` plays silence first, and a
/// looping input's sound wraps at its duration, in a window (`AudioStream`) and in an export (`Exporter`).
@Suite("Audio placement")
struct AudioPlacementTests {
    /// A 1 s clip (video and sound) whose sound is a tone in its first half and silence in its second, so where
    /// the tone is tells which part of the source plays when.
    private final class HalfTone: MediaScratch {
        /// MOV with PCM keeps the sound sample-exact; the MP4 exports re-encode it anyway.
        var clip: String { path("half-tone.mov") }

        init() throws {
            try super.init("audio-placement")
            try ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=32x32:rate=10:duration=1",
                        "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:duration=1",
                        "-af", "volume=enable='gte(t,0.5)':volume=0", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                        "-c:a", "pcm_s16le", "-ac", "1", "half-tone.mov"])
        }

        /// The mono 48 kHz samples of `file`, decoded by the ffmpeg CLI.
        func samples(of file: String) throws -> [Float] { try monoSamples(of: file) }
    }

    /// Which quarter seconds of `samples` (48 kHz mono) sound: the RMS of each quarter's middle 0.15 s
    /// (away from the edges, where encoders smear) above -40 dBFS.
    private func soundingQuarters(_ samples: [Float]) -> [Bool] {
        let quarter = 12_000, margin = 1_800
        return stride(from: 0, to: samples.count - quarter + 1, by: quarter).map { start in
            let part = samples[(start + margin)..<(start + quarter - margin)]
            let rms = (part.reduce(0.0) { $0 + Double($1 * $1) } / Double(part.count)).squareRoot()
            return rms > 0.01
        }
    }

    @Test func placementMapsTheTimelineOntoTheSound() {
        let late = AudioPlacement(offset: -0.5, loopLength: 2)
        #expect(late.mediaTime(0.25) == nil && late.silence(from: 0.25) == 0.25)
        #expect(late.mediaTime(0.5) == 0 && late.mediaTime(3) == 0.5 && late.untilWrap(from: 3) == 1.5)
        let early = AudioPlacement(offset: 1.5)
        #expect(early.mediaTime(0) == 1.5 && early.untilWrap(from: 0) == nil && early.silence(from: 0) == 0)
        // Bad values are clamped or dropped, never a crash: no offset, no loop.
        let bad = AudioPlacement(offset: .nan, loopLength: .infinity)
        #expect(bad.isIdentity && AudioPlacement(offset: 0, loopLength: 0).loopLength == nil)
        #expect(AudioPlacement(offset: -1e300).offset == -86_400)
    }

    /// What an `AudioStream` (a window's sound) plays from timeline 0 for `seconds`, as the device reads it.
    private func played(_ path: String, placement: AudioPlacement, seconds: Double) throws -> [Float] {
        // The whole stretch fits the queue: once the decode thread has filled it, no read waits for it.
        let stream = try AudioStream(path: path, sampleRate: 48000, channels: 1,
                                     range: PlaybackRange(start: 0, end: .infinity, loops: false), placement: placement,
                                     bufferSeconds: seconds + 1)
        defer { stream.stop() }
        Thread.sleep(forTimeInterval: 1.5)
        var out: [Float] = [], chunk = [Float](repeating: 0, count: 1024)
        while out.count < Int(seconds * 48000) {
            let (time, starved) = chunk.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, frames: 1024) }
            #expect(!starved, "the decode thread had 1.5 s to queue \(seconds) s of sound")
            // The samples carry timeline times: the device clock stays on the timeline through silence and wraps.
            #expect(abs(time - Double(out.count) / 48000) < 1e-6)
            out += chunk
        }
        return out
    }

    @Test func aWindowPlaysTheSoundLateAndLooped() throws {
        let clip = try HalfTone()
        // Looping: the tone (first half of each second) comes back every second.
        let looped = soundingQuarters(try played(clip.clip, placement: AudioPlacement(offset: 0, loopLength: 1), seconds: 3))
        #expect(looped == [true, true, false, false, true, true, false, false, true, true, false, false])
        // Not looping: once, then silence (the clock runs on).
        let once = soundingQuarters(try played(clip.clip, placement: AudioPlacement(offset: 0), seconds: 2))
        #expect(once == [true, true, false, false, false, false, false, false])
        // Half a second late (start -0.5) and looping: silence first, then the tone at 0.5, 1.5, 2.5.
        let late = soundingQuarters(try played(clip.clip, placement: AudioPlacement(offset: -0.5, loopLength: 1), seconds: 3))
        #expect(late == [false, false, true, true, false, false, true, true, false, false, true, true])
        // From a quarter into the source (start 0.25), looping: the wrap stays on the source's second.
        let early = soundingQuarters(try played(clip.clip, placement: AudioPlacement(offset: 0.25, loopLength: 1), seconds: 2))
        #expect(early == [true, false, false, true, true, false, false, true])
    }

    /// Exports `seconds` of a plain tree with `clip`'s sound placed by `offset` and `loop`.
    private func exported(_ clip: HalfTone, offset: Double, loop: Double?, seconds: Double) throws -> [Float] {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 32, height: 32)
        root.backgroundColor = .black
        let out = clip.folder.appendingPathComponent("out-\(UUID().uuidString).mp4").path
        let exporter = Exporter(root: root, width: 32, height: 32,
                                settings: EncoderSettings(codec: nil, crf: 30, preset: "veryfast", frameRate: MovieWriter.rational(10)),
                                start: 0, frameCount: Int(seconds * 10), audioSource: clip.clip)
        exporter.audioOffset = offset
        exporter.audioLoopLength = loop
        _ = try exporter.export(to: out, replacing: true) { _ in }
        return try clip.samples(of: out)
    }

    @Test func anExportRepeatsALoopingSoundToItsLength() throws {
        let clip = try HalfTone()
        let looped = try exported(clip, offset: 0, loop: 1, seconds: 3)
        #expect(looped.count >= 3 * 48000 - 1024, "the sound lasts as long as the movie: \(looped.count) samples")
        #expect(soundingQuarters(looped).prefix(12) == [true, true, false, false, true, true, false, false, true, true, false, false])
        let once = try exported(clip, offset: 0, loop: nil, seconds: 2)
        #expect(!soundingQuarters(once).dropFirst(2).contains(true), "without loop the tone plays once")
    }

    @Test func anExportStartsALateSoundAfterSilence() throws {
        let clip = try HalfTone()
        let late = try exported(clip, offset: -0.5, loop: nil, seconds: 2)
        // Half a second of silence, then the source's second (tone, silence) once.
        #expect(soundingQuarters(late).prefix(6) == [false, false, true, true, false, false])
        let lateLooped = try exported(clip, offset: -0.5, loop: 1, seconds: 3)
        #expect(soundingQuarters(lateLooped).prefix(12) == [false, false, true, true, false, false, true, true, false, false, true, true])
    }
}
