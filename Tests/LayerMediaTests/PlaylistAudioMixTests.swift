import Foundation
@testable import LayerMedia
import Testing
import TestSupport

/// A playlist's sound on one timeline (issue 30): items back to back are sample-continuous (no silence between
/// them, no sample lost or repeated), and a transition crossfades them linearly over its overlap.
@Suite("Playlist sound")
struct PlaylistAudioMixTests {
    /// Two 1 s stereo float WAVs at 48 kHz, each a constant level (0.5 and −0.25), so any gap is a run of zeros and
    /// any misplaced sample shows as the wrong level.
    private final class TwoLevels: MediaScratch {
        var a: String { path("a.wav") }
        var b: String { path("b.wav") }

        init() throws {
            try super.init("playlist-mix")
            for (name, level) in [("a.wav", "0.5"), ("b.wav", "-0.25")] {
                try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=\(level)|\(level):sample_rate=48000:duration=1", "-c:a", "pcm_f32le", name])
            }
        }
    }

    /// Reads the whole mix as a sound device does, `block` frames a call (starved calls retried), left channel.
    private func readAll(_ mix: PlaylistAudioMix, block: Int) -> [Float] {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: block * 2)
        let deadline = Date().addingTimeInterval(20)
        while mix.framesRead < mix.timeline.totalFrames && Date() < deadline {
            let r = buffer.withUnsafeMutableBufferPointer { mix.read(into: $0.baseAddress!, frames: block) }
            if r.starved { Thread.sleep(forTimeInterval: 0.001); continue }
            for i in 0..<block { out.append(buffer[i * 2]) }
        }
        return Array(out.prefix(mix.timeline.totalFrames))
    }

    @Test func itemsBackToBackAreSampleContinuous() throws {
        let clips = try TwoLevels()
        let timeline = PlaylistTimeline(lengths: [1, 1], transition: 0)
        let mix = try PlaylistAudioMix(items: [.init(path: clips.a), .init(path: clips.b)], timeline: timeline, channels: 2)
        // 1024 frames a call, as the device asks: the boundary at 48000 falls inside a call.
        let left = readAll(mix, block: 1024)
        #expect(left.count == 96_000, "2 s of sound")
        let wrongA = left[0..<48_000].filter { abs($0 - 0.5) > 1e-6 }.count
        let wrongB = left[48_000..<96_000].filter { abs($0 + 0.25) > 1e-6 }.count
        #expect(wrongA == 0 && wrongB == 0, "\(wrongA) samples of the first item and \(wrongB) of the second are not theirs")
        #expect(left[47_999] == 0.5 && left[48_000] == -0.25, "the second item's first sample follows the first's last")
    }

    @Test func aTransitionCrossfadesOverItsOverlap() throws {
        let clips = try TwoLevels()
        let timeline = PlaylistTimeline(lengths: [1, 1], transition: 0.25)
        #expect(timeline.totalFrames == 84_000, "2 s less the 0.25 s overlap")
        let mix = try PlaylistAudioMix(items: [.init(path: clips.a), .init(path: clips.b)], timeline: timeline, channels: 2)
        let left = readAll(mix, block: 1000)
        #expect(left.count == 84_000)
        #expect(left[0..<36_000].allSatisfy { abs($0 - 0.5) < 1e-6 }, "the first item alone before the transition")
        #expect(left[48_000..<84_000].allSatisfy { abs($0 + 0.25) < 1e-6 }, "the second alone after it")
        // Linear: halfway through, half of each: 0.5·0.5 − 0.25·0.5.
        #expect(abs(left[42_000] - 0.125) < 1e-3, "\(left[42_000])")
        let fade = left[36_000..<48_000]
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $1 <= $0 + 1e-7 }, "the level goes from one item's to the other's without a step back")
    }

    /// A device that starts late skips to the picture's time (the window's clock start): the samples before it are
    /// dropped, the next read plays exactly that time, across the crossfade as a read would.
    @Test func skippingDropsTheSamplesBeforeATimeAndGoesOnFromIt() throws {
        let clips = try TwoLevels()
        let timeline = PlaylistTimeline(lengths: [1, 1], transition: 0.25)
        let mix = try PlaylistAudioMix(items: [.init(path: clips.a), .init(path: clips.b)], timeline: timeline, channels: 2)
        let deadline = Date().addingTimeInterval(20)
        while !mix.skip(to: 0.875) && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) } // 42,000: mid-fade
        #expect(mix.framesRead == 42_000)
        #expect(mix.skip(to: 0.5), "a time already passed needs nothing")
        #expect(mix.framesRead == 42_000, "and drops nothing")
        let rest = Array(readAll(mix, block: 1024).prefix(42_000)) // whole blocks: the last one runs past the end
        #expect(rest.count == 42_000)
        #expect(abs((rest.first ?? 0) - 0.125) < 1e-3, "the first sample read is the fade's midpoint: \(rest.first ?? 0)")
        #expect(rest[6_000..<42_000].allSatisfy { abs($0 + 0.25) < 1e-6 }, "then the second item alone")
    }

    @Test func theExportWAVHoldsTheSameSamples() throws {
        let clips = try TwoLevels()
        let timeline = PlaylistTimeline(lengths: [1, 1], transition: 0.25)
        let mix = try PlaylistAudioMix(items: [.init(path: clips.a), .init(path: clips.b)], timeline: timeline, channels: 2)
        let path = clips.folder.appendingPathComponent("mix.wav").path
        try mix.writeWAV(to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == PlaylistAudioMix.wavHeaderSize + 84_000 * 2 * 4)
        let samples = data.dropFirst(PlaylistAudioMix.wavHeaderSize).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let live = try PlaylistAudioMix(items: [.init(path: clips.a), .init(path: clips.b)], timeline: timeline, channels: 2)
        let left = readAll(live, block: 1024)
        #expect(stride(from: 0, to: samples.count, by: 2).map { samples[$0] } == left, "the window's samples and the export's")
    }

    @Test func timelinePlacesItemsAndClampsShortOnes() {
        let t = PlaylistTimeline(lengths: [3, 1, 2], transition: 1)
        // The middle item is 1 s: both its transitions are clamped to 0.5 s.
        #expect(t.wasClamped)
        #expect(t.items.map(\.startFrame) == [0, 2 * 48_000 + 24_000, 3 * 48_000])
        #expect(t.duration == 5)
        #expect(t.index(at: 2.6) == 1 && t.index(at: 3.2) == 2)
        #expect(t.transition(at: 2.75).map { $0.outgoing } == 0)
        #expect(abs((t.transition(at: 2.75)?.progress ?? -1) - 0.5) < 1e-9)
        #expect(t.nextStop(after: 1) == 3, "> from the first item: where the second plays alone")
        #expect(t.nextStop(after: 2.75) == 3, "> during the transition finishes it")
        #expect(t.previousStop(before: 4) == 2.5)
        let cut = PlaylistTimeline(lengths: [1, 1], transition: 0)
        #expect(!cut.wasClamped && cut.duration == 2 && cut.transition(at: 1) == nil)
    }
}
