/// Where each item of a playlist sits on the one clock a window or an export plays it on (issue 30): item k+1
/// starts where item k ends, less the transition between them, during which both play.
///
/// Everything is counted in samples of the sound's rate, so the picture's item boundaries and the sound's are the
/// same instants and the sound is sample-continuous from item to item (no rounding gap or overlap of one sample).
/// A transition longer than half of either item it joins is clamped to that half (`wasClamped`), so that an item's
/// way in and way out never overlap each other.
public struct PlaylistTimeline: Sendable, Equatable {
    /// One item's place: its first sample on the timeline, its length, and the overlap with the next item.
    public struct Item: Sendable, Equatable {
        /// The timeline sample the item starts at.
        public var startFrame: Int
        /// The item's length in samples.
        public var frames: Int
        /// Samples at its end during which the next item plays too (the transition out; 0 for the last item).
        public var overlapAfter: Int
        /// Samples at its start during which the previous item plays too (the transition in).
        public var overlapBefore: Int
        /// The timeline sample just after the item.
        public var endFrame: Int { startFrame + frames }
    }

    /// The items in order.
    public let items: [Item]
    /// Samples a second: the unit of every position.
    public let sampleRate: Int
    /// Whether some transition was shorter than asked because an item it joins is shorter than twice the transition.
    public let wasClamped: Bool

    /// Items of the given lengths (seconds; non-finite or negative count as 0), joined by transitions of
    /// `transition` seconds (0: cut, back to back).
    public init(lengths: [Double], transition: Double, sampleRate: Int = 48000) {
        self.sampleRate = sampleRate
        let rate = Double(sampleRate)
        let frames = lengths.map { $0.isFinite && $0 > 0 ? Int(($0 * rate).rounded()) : 0 }
        let asked = transition.isFinite && transition > 0 ? Int((transition * rate).rounded()) : 0
        var items: [Item] = []
        var clamped = false
        var start = 0
        for (k, n) in frames.enumerated() {
            let overlapBefore = items.last?.overlapAfter ?? 0
            var overlapAfter = 0
            if k + 1 < frames.count {
                overlapAfter = min(asked, n / 2, frames[k + 1] / 2)
                if overlapAfter < asked { clamped = true }
            }
            items.append(Item(startFrame: start, frames: n, overlapAfter: overlapAfter, overlapBefore: overlapBefore))
            start += n - overlapAfter
        }
        self.items = items
        wasClamped = clamped
    }

    /// This timeline with one more item of `length` seconds at its end, joined by a transition of `transition`
    /// seconds (`loadfile PATH append` while playing): the items before keep their places; the last one gains its
    /// way out.
    public func appending(_ length: Double, transition: Double) -> PlaylistTimeline {
        PlaylistTimeline(lengths: items.map { seconds($0.frames) } + [length], transition: transition, sampleRate: sampleRate)
    }

    /// The timeline's length in samples: the sum of the items less the overlaps.
    public var totalFrames: Int { items.last?.endFrame ?? 0 }
    /// The timeline's length in seconds.
    public var duration: Double { seconds(totalFrames) }

    /// A sample position in seconds.
    public func seconds(_ frame: Int) -> Double { Double(frame) / Double(sampleRate) }
    /// Where item `k` starts, in seconds.
    public func start(of k: Int) -> Double { seconds(items[k].startFrame) }
    /// Where item `k` ends, in seconds.
    public func end(of k: Int) -> Double { seconds(items[k].endFrame) }

    /// The item the playlist is on at time `t`: the one whose span holds it, the incoming one during a transition
    /// (the title and `playlist-pos` name the item coming in, as the transition shows it); the first before 0,
    /// the last from the end on.
    public func index(at t: Double) -> Int {
        guard !items.isEmpty else { return 0 }
        var found = 0
        for (k, item) in items.enumerated() where seconds(item.startFrame) <= t { found = k }
        return found
    }

    /// The transition in progress at `t`: the outgoing item and how far it is, 0…1; nil outside transitions.
    public func transition(at t: Double) -> (outgoing: Int, progress: Double)? {
        for k in items.indices.dropLast() where items[k].overlapAfter > 0 {
            let from = seconds(items[k + 1].startFrame), to = seconds(items[k].endFrame)
            if t >= from && t < to { return (k, (t - from) / (to - from)) }
        }
        return nil
    }

    /// Whether item `k` shows at `t`: within its span (the last item also after the end, on its last frame).
    public func shows(_ k: Int, at t: Double) -> Bool {
        if k == items.count - 1 && t >= seconds(items[k].endFrame) { return true }
        if k == 0 && t < 0 { return true }
        return t >= seconds(items[k].startFrame) && t < seconds(items[k].endFrame)
    }

    /// Where `>` goes from `t`: the end of the transition in progress (it finishes it), else the next item's start
    /// after its way in (where it plays alone); nil on the last item.
    public func nextStop(after t: Double) -> Double? {
        if let (k, _) = transition(at: t) { return seconds(items[k].endFrame) }
        let k = index(at: t)
        guard k + 1 < items.count else { return nil }
        return seconds(items[k].endFrame)
    }

    /// Where `<` goes from `t`: the start of the item before the one playing (mpv's `playlist-prev`); nil on the first.
    public func previousStop(before t: Double) -> Double? {
        let k = index(at: t)
        guard k > 0 else { return nil }
        return seconds(items[k - 1].startFrame)
    }
}
