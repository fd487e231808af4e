import Foundation
@testable import LayerMedia
import Testing
import TestSupport

/// A live input's sound keeps the gaps of its stream (CLI.md "Streams", a `--reconnect`: `LiveReconnect` puts the new
/// connection's packets after a gap as long as the wall clock saw): played with `keepsGaps`, the sound after a gap
/// comes at its own time, after silence as long as the gap, so it plays with its picture. A file's sound is played
/// sample after sample, as before.
@Suite("Gaps in a live input's sound")
struct SoundGapTests {
    /// A tone from 0 to 0.5 s and from 1 to 1.5 s: one 1 s tone whose second half is stamped 0.5 s later (Matroska
    /// keeps each block's time), as a reconnect's packets are.
    private final class GappedTone: MediaScratch {
        var clip: String { path("gap.mkv") }

        init() throws {
            try super.init("sound-gap")
            try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000:duration=1",
                        "-af", "asetnsamples=n=480,asetpts='if(gte(T,0.5),PTS+0.5/TB,PTS)'",
                        "-c:a", "pcm_s16le", "-ac", "1", "gap.mkv"])
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

    /// The first 2 s of `clip`'s sound as an `AudioStream` plays it.
    private func played(_ clip: String, keepsGaps: Bool) throws -> [Float] {
        let stream = try AudioStream(path: clip, sampleRate: 48000, channels: 1, range: PlaybackRange(start: 0, end: .infinity, loops: false),
                                     bufferSeconds: 3, keepsGaps: keepsGaps)
        defer { stream.stop() }
        Thread.sleep(forTimeInterval: 1.5)
        var out: [Float] = [], chunk = [Float](repeating: 0, count: 1024)
        while out.count < 2 * 48000 {
            _ = chunk.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, frames: 1024) }
            out += chunk
        }
        return Array(out.prefix(2 * 48000))
    }

    @Test func aLiveInputsSoundKeepsTheGap() throws {
        let clip = try GappedTone()
        #expect(soundingQuarters(try played(clip.clip, keepsGaps: true)) == [true, true, false, false, true, true, false, false])
    }

    @Test func aFilesSoundIsPlayedSampleAfterSample() throws {
        // What a live input's sound did before keepsGaps: the second half right after the first, 0.5 s early.
        let clip = try GappedTone()
        #expect(soundingQuarters(try played(clip.clip, keepsGaps: false)) == [true, true, true, true, false, false, false, false])
    }
}
