import Foundation

/// Where a sound device's samples come from: one file's `AudioStream`, or a playlist's `PlaylistAudioMix`. Times are
/// on the playback timeline, so the device's position is the master clock either way.
public protocol PlaybackSoundSource: AnyObject, Sendable {
    /// Fills `frames` interleaved frames of `out`; says at which timeline time the first plays, and whether the
    /// source had nothing yet (silence, and the time does not move).
    func read(into out: UnsafeMutablePointer<Float>, frames: Int) -> (time: Double, starved: Bool)
    /// Continues from timeline time `t`.
    func seek(to t: Double)
    /// Lets go of the samples before timeline time `t` without playing them (a device that starts late catches up
    /// with a picture already moving); false when the decoding has not got that far yet (call again later).
    func skip(to t: Double) -> Bool
    /// Ends the decoding.
    func stop()
    /// Whether the sound has ended and every sample of it has been read: what follows is silence (a live input's
    /// stream stopped). Never waits.
    var hasPlayedOut: Bool { get }
}

extension PlaybackSoundSource {
    /// A source that never ends on its own (a playlist's mix runs to its timeline's end).
    public var hasPlayedOut: Bool { false }
}

/// The sound of a whole playlist on one timeline (issue 30): each item's `AudioStream`, resampled to the output's
/// format and placed at its `PlaylistTimeline` start, summed, with a linear crossfade over each transition (the
/// picture's fade is the same `(1 − p)·old + p·new`). Where there is no transition the next item's first sample
/// follows the last one's at once: sample-continuous, no silence inserted (an item whose sound is shorter than its
/// picture is padded with silence to its picture's end, as a single file's is).
///
/// Every item's decoder is opened at the start and fills its queue from its own start, so the next item's sound is
/// ready before the current one ends. The mix reads no stream until every stream it needs has enough queued: a
/// decoder that falls behind makes the whole mix wait (starved), never one item slip against the others.
public final class PlaylistAudioMix: PlaybackSoundSource, @unchecked Sendable { // state guarded by `lock`
    /// One item: its file (nil: silent) and the media time it starts at.
    public struct Item: Sendable {
        /// The file whose sound plays; nil for an item without sound (silence for its length).
        public var path: String?
        /// The media time of the item's first sample (`--start`).
        public var begin: Double
        /// An item of `path` from media time `begin`.
        public init(path: String?, begin: Double = 0) { self.path = path; self.begin = begin }
    }

    /// Where the items sit (longer after `append`).
    public var timeline: PlaylistTimeline { lock.withLock { placed } }
    /// `timeline`, read and changed under `lock`.
    private var placed: PlaylistTimeline
    /// Interleaved channels (the output's).
    public let channels: Int
    /// Whether the playlist starts again after its end (`--loop-playlist`).
    public let loops: Bool
    private var streams: [AudioStream?]
    private let lock = NSLock()
    /// The timeline sample the next read starts at.
    private var position = 0
    /// Items already sought back to their start after playing (the next round of a looping playlist).
    private var rewound: Set<Int> = []
    private var scratch: [Float] = []

    /// Opens every item's sound at the output's format. - Throws: `MediaError` when an item's sound cannot be opened.
    public init(items: [Item], timeline: PlaylistTimeline, channels: Int, loops: Bool = false) throws {
        precondition(items.count == timeline.items.count, "one item per timeline item")
        self.placed = timeline
        self.channels = channels
        self.loops = loops && timeline.totalFrames > 0
        var streams: [AudioStream?] = []
        for (item, place) in zip(items, timeline.items) {
            streams.append(try Self.openStream(item, at: place, on: timeline, channels: channels))
        }
        self.streams = streams
    }

    /// An item's sound, ready from its start on the timeline (nil for an item without sound).
    private static func openStream(_ item: Item, at place: PlaylistTimeline.Item, on timeline: PlaylistTimeline,
                                   channels: Int) throws -> AudioStream? {
        guard let path = item.path else { return nil }
        let start = timeline.seconds(place.startFrame), end = timeline.seconds(place.endFrame)
        // Timeline time t plays the item's media time t − start + begin.
        return try AudioStream(path: path, sampleRate: timeline.sampleRate, channels: channels,
                               range: PlaybackRange(start: start, end: end, loops: false),
                               placement: AudioPlacement(offset: item.begin - start))
    }

    /// One more item at the end while playing (`loadfile PATH append`): `timeline` is the old one with the item
    /// appended (`PlaylistTimeline.appending`). Its decoder opens now and fills its queue from the item's start, as
    /// the others did; the items before keep their streams (the last one's way out now crossfades into it).
    /// - Throws: `MediaError` when its sound cannot be opened (the mix is then unchanged).
    public func append(_ item: Item, timeline: PlaylistTimeline) throws {
        let old = self.timeline
        precondition(timeline.items.count == old.items.count + 1 && Array(timeline.items.prefix(max(0, old.items.count - 1))) == Array(old.items.dropLast()),
                     "the old timeline with one more item")
        let place = timeline.items[old.items.count]
        let stream = try Self.openStream(item, at: place, on: timeline, channels: channels)
        lock.lock()
        defer { lock.unlock() }
        // Already past its start (appended after the playlist's end): from where the mix is.
        if position > place.startFrame { stream?.seek(to: timeline.seconds(min(position, place.endFrame))) }
        streams.append(stream)
        placed = timeline
    }

    deinit { stop() }

    /// Ends every item's decoding.
    public func stop() { for s in lock.withLock({ streams }) { s?.stop() } }

    /// Continues from timeline time `t` (wrapped into the playlist when it loops): every item's stream is sought to
    /// where `t` falls in it (its start for an item still to come, so that it is ready; the same for one already played).
    public func seek(to t: Double) {
        lock.lock()
        defer { lock.unlock() }
        var frame = max(0, Int((t * Double(placed.sampleRate)).rounded()))
        if loops { frame %= placed.totalFrames }
        position = frame
        rewound = []
        for (k, place) in placed.items.enumerated() {
            let at = frame >= place.endFrame ? place.startFrame : min(max(frame, place.startFrame), place.endFrame)
            streams[k]?.seek(to: placed.seconds(at))
            if frame >= place.endFrame { rewound.insert(k) }
        }
    }

    /// Reads and drops the mix up to timeline time `t` (wrapped when the playlist loops), so that crossfades and
    /// item boundaries are crossed exactly as a read crosses them.
    public func skip(to t: Double) -> Bool {
        let timeline = self.timeline
        let total = timeline.totalFrames
        var target = max(0, Int((t * Double(timeline.sampleRate)).rounded()))
        if loops { target %= total }
        var position = framesRead
        var remaining = target - position
        if loops && remaining < 0 && -remaining > total / 2 { remaining += total } // t wrapped past the end
        if !loops && position >= total { return true } // the sound has ended
        var discard = [Float](repeating: 0, count: 1024 * channels)
        while remaining > 0 {
            let starved = discard.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, frames: min(remaining, 1024)).starved }
            var moved = framesRead - position
            if moved < 0 { moved += total }
            if starved || moved == 0 { return false }
            remaining -= moved
            position = framesRead
        }
        return true
    }

    /// The timeline sample of the next read (for tests and the offline writer).
    public var framesRead: Int { lock.withLock { position } }

    public func read(into out: UnsafeMutablePointer<Float>, frames: Int) -> (time: Double, starved: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let time = placed.seconds(position)
        out.update(repeating: 0, count: frames * channels)
        var done = 0
        while done < frames {
            if loops && position >= placed.totalFrames { position = 0; rewound = [] }
            // A block that does not cross the playlist's end (after a non-looping end: silence, the clock running on).
            let total = placed.totalFrames
            let n = position < total ? min(frames - done, total - position) : frames - done
            if position < total, !mixBlock(into: out + done * channels, from: position, count: n) {
                // Nothing read: the samples before this block stay (a partial read keeps its time exact).
                if done == 0 { return (time, true) }
                return (time, false) // what was mixed plays; the rest (already zero) is silence this once
            }
            position += n
            done += n
        }
        rewindPlayed()
        return (time, false)
    }

    /// Adds samples [from, from + count) of every item there into `out`; false (nothing read) when a stream it needs
    /// has too few queued.
    private func mixBlock(into out: UnsafeMutablePointer<Float>, from: Int, count: Int) -> Bool {
        var parts: [(k: Int, offset: Int, count: Int)] = []
        for (k, place) in placed.items.enumerated() {
            let lo = max(from, place.startFrame), hi = min(from + count, place.endFrame)
            guard lo < hi else { continue }
            parts.append((k, lo - from, hi - lo))
            if let s = streams[k], s.queuedFrames < hi - lo { return false }
        }
        for part in parts {
            guard let stream = streams[part.k] else { continue }
            let place = placed.items[part.k]
            if scratch.count < part.count * channels { scratch = [Float](repeating: 0, count: part.count * channels) }
            scratch.withUnsafeMutableBufferPointer { buffer in
                let b = buffer.baseAddress!
                _ = stream.read(into: b, frames: part.count)
                for i in 0..<part.count {
                    let g = Float(Self.gain(of: place, at: from + part.offset + i))
                    let o = out + (part.offset + i) * channels
                    for c in 0..<channels { o[c] += b[i * channels + c] * g }
                }
            }
        }
        return true
    }

    /// The crossfade: 0→1 over the item's way in, 1→0 over its way out, taken at the middle of the sample (so that
    /// the incoming and the outgoing gains of a sample add up to 1).
    static func gain(of item: PlaylistTimeline.Item, at frame: Int) -> Double {
        let into = Double(frame - item.startFrame) + 0.5, left = Double(item.endFrame - frame) - 0.5
        var g = 1.0
        if item.overlapBefore > 0 && into < Double(item.overlapBefore) { g = min(g, into / Double(item.overlapBefore)) }
        if item.overlapAfter > 0 && left < Double(item.overlapAfter) { g = min(g, left / Double(item.overlapAfter)) }
        return g
    }

    /// A looping playlist: items played through are sought back to their start now, so that the next round finds
    /// them ready (no gap at the wrap).
    private func rewindPlayed() {
        guard loops else { return }
        for (k, place) in placed.items.enumerated() where position >= place.endFrame && !rewound.contains(k) {
            streams[k]?.seek(to: placed.seconds(place.startFrame))
            rewound.insert(k)
        }
    }
}
