import Foundation

/// A stretch of the emitter layer's time over which births follow one state at constant rates.
struct BirthSegment: Sendable {
    /// Start and end on the layer's clock (the first segment starts at −∞, so a pre-rolled cell has a state).
    var start, end: Double
    /// Index into `EmitterTimeline.states`.
    var state: Int
    /// Births per second on each cell's clock over the whole segment (a sampled stretch's is the trapezoid mean).
    var rates: [Double]
    /// How many grid cells were sampled into it (0 for a constant stretch).
    var samples: Int

    var isSampled: Bool { samples > 0 }
}

/// The birth history of one emitter layer (SEMANTICS-LAYERS.md §7 "Births" and "Model changes"): segments of layer
/// time, each with the state particles born in it take and constant birth rates, so the births N(τ) = ∫ρ are summed
/// in closed form and particle n's birth time is exact whatever order frames come in.
///
/// What is written stays: the timeline only grows forwards (to the latest time rendered), so a model change, or an
/// animation that ends and is removed, leaves the particles born before it as they were, and a seek back shows the
/// old values. Stretches where no birth-value animation varies are one segment each (merged while the state stays
/// the same); where one varies, the state is sampled on the fixed grid k/960 s (the grid is absolute, so a seek and a
/// play make the same segments) and the rate integrated by trapezoids. A model change found by a snapshot applies
/// from that snapshot's time; a newly added animation rewrites the timeline from where it begins.
struct EmitterTimeline: Sendable {
    static let gridStep = 1.0 / 960
    /// At most this many sampled segments (about 68 s of animated birth values at 1/960 s): past it, animated
    /// stretches are taken as constant (sampled once each), so memory stays bounded (a state is ~0.5 kB a cell).
    static let maximumSampledSegments = 1 << 16

    private(set) var segments: [BirthSegment] = []
    private(set) var states: [EmitterBirthState] = []
    /// The model the timeline was last extended with: a snapshot that finds another one starts a new segment.
    private var model: EmitterBirthState?
    /// The birth-value animations the timeline has taken into account (held, so their identities stay unique).
    private var known: [Animation] = []
    private var sampledCount = 0

    /// The end of what is written (−∞ when nothing is).
    var end: Double { segments.last?.end ?? -.infinity }

    /// Brings the timeline up to `time` (the layer's clock) for `layer`'s current model and animations.
    mutating func update(_ layer: EmitterLayer, to time: Double) {
        guard time.isFinite else { return }
        let spans = layer.birthAnimations()
        // An animation not seen before rewrites from where it begins (an export or a seek then sees it whole); one
        // that was seen and is gone (removed on completion) leaves what it wrote.
        let fresh = spans.filter { s in !known.contains { $0 === s.animation } }
        if let from = fresh.map(\.begin).min(), from < end { truncate(at: from) }
        known += fresh.map(\.animation)
        if known.count > 256 { known.removeFirst(known.count - 256) }

        let current = layer.modelBirthState()
        if let old = model, !old.hasSameValues(as: current) {
            if time < end {
                truncate(at: time)
            } else if let last = segments.last, !last.isSampled, !spans.contains(where: { $0.begin < time && $0.end > last.end }) {
                // The old model held until this snapshot: its segment runs on to now.
                segments[segments.count - 1].end = time
            }
        }
        let changed = model.map { !$0.hasSameValues(as: current) } ?? false
        model = current
        extend(layer, to: time, spans: spans)
        if changed, let last = segments.last, last.end == time, !last.isSampled {
            // Seen at the time already written up to: the new values hold from now, so a particle due now takes
            // them (a zero-length segment, which the next extension lengthens).
            append(BirthSegment(start: time, end: time, state: 0, rates: current.rates, samples: 0), layer.birthState(at: time))
        }
    }

    /// Drops everything from `time` on.
    private mutating func truncate(at time: Double) {
        while let last = segments.last, last.start >= time { segments.removeLast() }
        if let last = segments.last, last.end > time { segments[segments.count - 1].end = time }
        let used = (segments.map(\.state).max() ?? -1) + 1
        if used < states.count { states.removeLast(states.count - used) }
        sampledCount = segments.reduce(0) { $0 + $1.samples }
    }

    private mutating func extend(_ layer: EmitterLayer, to time: Double, spans: [(animation: Animation, begin: Double, end: Double)]) {
        var x = end
        var right: (at: Double, state: EmitterBirthState)?
        while x < time {
            if x.isFinite, sampledCount < Self.maximumSampledSegments, spans.contains(where: { $0.begin <= x && x < $0.end }) {
                // A varying stretch: one grid cell, its state at the left end, the rate's trapezoid mean. The last
                // cell may reach past `time`: it is what the animations give there, as a seek would compute it.
                // The next grid point after x (x itself is usually one, give or take the last bit of k·step).
                let k = (x / Self.gridStep).rounded(.down)
                var next = (k + 1) * Self.gridStep
                if next <= x * (1 + 1e-12) + 1e-15 { next = (k + 2) * Self.gridStep }
                // A span that ends inside the cell ends it there, and its rate is taken just before its end (an
                // animation without fill jumps back to the model value at its end).
                var spanEnd = Double.infinity
                for s in spans where s.begin <= x && x < s.end { spanEnd = min(spanEnd, s.end) }
                if spanEnd <= next { next = spanEnd }
                let left: EmitterBirthState
                if let r = right, r.at == x { left = r.state } else { left = layer.birthState(at: x) }
                let r = layer.birthState(at: next == spanEnd ? next.nextDown : next)
                let lr = left.rates, rr = r.rates
                let mean = lr.indices.map { i in (lr[i] + (i < rr.count ? rr[i] : 0)) / 2 }
                append(BirthSegment(start: x, end: next, state: 0, rates: mean, samples: 1), left)
                sampledCount += 1
                right = next == spanEnd ? nil : (next, r)
                x = next
            } else {
                // A constant stretch up to the next varying one or to `time`, sampled inside it.
                var stop = time
                for s in spans where s.begin > x && s.begin < stop { stop = s.begin }
                let inner = x.isInfinite ? stop - 1 : x + (stop - x) / 2
                let state = layer.birthState(at: inner)
                append(BirthSegment(start: x, end: stop, state: 0, rates: state.rates, samples: 0), state)
                x = stop
            }
        }
    }

    /// Appends a segment with `state`, or lengthens the last one when it has the same state and rates.
    private mutating func append(_ segment: BirthSegment, _ state: EmitterBirthState) {
        if let last = segments.last, last.isSampled == segment.isSampled, last.rates == segment.rates, states[last.state].hasSameValues(as: state) {
            segments[segments.count - 1].end = segment.end
            segments[segments.count - 1].samples += segment.samples
            return
        }
        var s = segment
        s.state = states.count
        states.append(state)
        segments.append(s)
    }
}
