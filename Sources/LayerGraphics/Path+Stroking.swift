import Foundation

// What a shape layer strokes (SEMANTICS-LAYERS.md §1, "Stroke trimming" and "Dashes"): the part of the path between
// two fractions of its length, cut into the dash pattern measured along the whole path. cairo restarts its dashes
// at every subpath and knows no trimming, so the cutting is done here and cairo strokes the pieces solid.

extension Path {
    /// The dash pieces of a path longer than this many pattern lengths are not cut (the stroke is solid): a
    /// pattern of 10⁻⁹ points on a long path would otherwise make billions of pieces.
    static let maxDashRepeats = 100_000.0

    /// The pieces a stroke draws: the part of the path between the fractions `start` and `end` (0…1) of its length,
    /// cut into `dashes` (on, off, … lengths, already doubled when odd and known to have a positive sum; nil: solid)
    /// whose state at a distance d along the whole path is that at d + `phase`.
    ///
    /// Each piece is an open subpath (a cut end gets the line cap); a subpath of the path that is drawn whole and
    /// undashed is kept as it is, so a closed one stays closed (a join, no caps). A move adds no length and a close
    /// adds its closing line.
    public func strokedPart(from start: Double, to end: Double, dashes: [Double]?, phase: Double) -> Path {
        let subpaths = StrokeSubpath.split(self)
        let total = subpaths.reduce(0) { $0 + $1.length }
        guard end > start, total > 0, total.isFinite else { return Path() }
        var dashes = dashes
        if let d = dashes, total / d.reduce(0, +) > Self.maxDashRepeats { dashes = nil }
        if dashes == nil, start <= 0, end >= 1 { return self }
        let from = start * total, to = end * total
        var out = Path()
        var walked = 0.0
        for sub in subpaths {
            defer { walked += sub.length }
            if sub.length == 0 { continue }
            if dashes == nil, from <= walked, walked + sub.length <= to { out.addPath(sub.original); continue }
            var pen: Double? // where the piece being drawn ends, along the whole path
            var g = walked
            for seg in sub.segments {
                let a = g, b = g + seg.length
                g = b
                let lo = max(a, from), hi = min(b, to)
                guard seg.length > 0, lo < hi else { continue }
                Self.onIntervals(lo, hi, dashes: dashes, phase: phase) { x0, x1 in
                    let t0 = seg.parameter(atLength: x0 - a), t1 = seg.parameter(atLength: x1 - a)
                    let piece = seg.portion(t0, t1)
                    if let p = pen, abs(p - x0) <= 1e-9 * max(1, total) {} else { out.move(to: piece.start) }
                    switch piece.kind {
                    case .line: out.addLine(to: piece.end)
                    case .curve(let c1, let c2): out.addCurve(to: piece.end, control1: c1, control2: c2)
                    }
                    pen = x1
                }
            }
        }
        return out
    }

    /// Calls `body` with each stretch of [lo, hi] where the dash pattern is on (the whole of it when solid).
    private static func onIntervals(_ lo: Double, _ hi: Double, dashes: [Double]?, phase: Double, _ body: (Double, Double) -> Void) {
        guard let dashes else { body(lo, hi); return }
        let period = dashes.reduce(0, +)
        var q = (lo + phase).truncatingRemainder(dividingBy: period)
        if q < 0 { q += period }
        // The entry q lies in, and how much of it is left.
        var i = 0
        while i < dashes.count - 1 && q >= dashes[i] { q -= dashes[i]; i += 1 }
        var left = max(dashes[i] - q, 0)
        var x = lo
        while x < hi {
            let next = x + left
            if i % 2 == 0, next > x || dashes[i] == 0 { body(x, min(next, hi)) }
            if next >= hi { break }
            x = next
            i = (i + 1) % dashes.count
            left = dashes[i]
        }
    }
}

/// One subpath for stroking: its drawn segments (a close's line included), its length and its own elements.
struct StrokeSubpath {
    var original = Path()
    var segments: [PathSegment] = []
    var length: Double { segments.reduce(0) { $0 + $1.length } }

    /// The subpaths of `path`, split at moves and after closes (a line after a close starts a new subpath at the
    /// closed one's start, as in cairo and Core Graphics); an element before any move moves there.
    static func split(_ path: Path) -> [StrokeSubpath] {
        var result: [StrokeSubpath] = []
        var sub = StrokeSubpath()
        var current: Point?, start: Point?
        func begin(at p: Point) {
            if !sub.original.isEmpty { result.append(sub) }
            sub = StrokeSubpath()
            sub.original.move(to: p)
            current = p; start = p
        }
        for e in path.elements {
            switch e {
            case .move(let p): begin(at: p)
            case .line(let p):
                guard let c = current else { begin(at: p); continue }
                sub.original.addLine(to: p)
                sub.segments.append(PathSegment(start: c, end: p, kind: .line)); current = p
            case .curve(let c1, let c2, let p):
                guard let c = current else { begin(at: p); continue }
                sub.original.addCurve(to: p, control1: c1, control2: c2)
                sub.segments.append(PathSegment(start: c, end: p, kind: .curve(c1, c2))); current = p
            case .close:
                guard let c = current, let s = start else { continue }
                sub.original.closeSubpath()
                if c != s { sub.segments.append(PathSegment(start: c, end: s, kind: .line)) }
                result.append(sub)
                sub = StrokeSubpath()
                sub.original.move(to: s)
                current = s
            }
        }
        if sub.original.elements.count > 1 { result.append(sub) }
        return result
    }
}
