/// How the kernels walk a draw: rows of its polygon inside the area, minus what opaque draws above hide,
/// and, along a run, segments over which the projective map is linear to well under a texel.
enum SpanWalk {
    /// Calls `body(y, py, row, a, b)` for each visible run [a, b) of each row of `placement` in `area`, within the
    /// columns `reach(y)` gives (nil: none of the row), once per row: what the draw may touch at all.
    @inline(__always)
    static func forEachRun(_ placement: Placement, area: PixelRect, occluders: [OpaqueRows], target: RenderTarget,
                           reach: (_ y: Int) -> (Int, Int)? = { _ in (Int.min, Int.max) },
                           _ body: (_ y: Int, _ py: Double, _ row: UnsafeMutablePointer<UInt32>, _ a: Int, _ b: Int) -> Void) {
        var holes = RowHoles(occluders: occluders.count)
        for y in area.y0..<area.y1 {
            guard let span = placement.polygon.span(row: y), let within = reach(y) else { continue }
            let x0 = max(span.x0, area.x0, within.0), x1 = min(span.x1, area.x1, within.1)
            if x0 >= x1 { continue }
            let row = target.row(y)
            let py = Double(y) + 0.5
            holes.collect(occluders, row: y)
            forEachVisibleRun(x0, x1, excluding: holes.intervals) { a, b in body(y, py, row, a, b) }
        }
    }

    /// The longest segment a vector kernel is given (`ContentSampler.longestSegment`): long enough that the set-up
    /// of a segment (three projections, the walks) is small beside its pixels.
    static let longestSegment = 64

    /// Splits [x0, x1) into segments of at most `longest` pixels over which `texel` (pixel centre x → texel) is
    /// linear within 1/16 texel at the midpoint, halving where the map bends (near the horizon). Calls
    /// `body(x, n, start, step)` with the exact texel at the segment's first pixel and the per-pixel step.
    ///
    /// Cost: the bend changes slowly along a row, so each segment starts from the length the last one needed
    /// (doubled when its error was under a quarter of the bound: the error grows with the square of the length),
    /// and a segment's start is the previous one's end: two projections per segment in the steady state.
    @inline(__always)
    static func linearSegments(_ x0: Int, _ x1: Int, longest: Int = 16, texel: (Double) -> (Double, Double)?,
                               _ body: (_ x: Int, _ n: Int, _ start: (Double, Double), _ step: (Double, Double)) -> Void) {
        let bound = 1.0 / 256   // (1/16 texel)²
        var x = x0
        var previousEnd: (Double, Double)? = nil
        var preferred = longest
        while x < x1 {
            var n = min(preferred, x1 - x)
            guard let start = previousEnd ?? texel(Double(x) + 0.5), var end = texel(Double(x + n) + 0.5) else {
                previousEnd = nil; x += 1; continue
            }
            var endIsExact = true
            var error = 0.0
            while n > 1 {
                if let mid = texel(Double(x) + Double(n) / 2 + 0.5) {
                    let ex = (start.0 + end.0) / 2 - mid.0, ey = (start.1 + end.1) / 2 - mid.1
                    error = ex * ex + ey * ey
                    if error < bound { break }
                }
                n /= 2
                if let e = texel(Double(x + n) + 0.5) { end = e; endIsExact = true } else { endIsExact = false }
            }
            body(x, n, start, ((end.0 - start.0) / Double(n), (end.1 - start.1) / Double(n)))
            x += n
            previousEnd = endIsExact ? end : nil
            // Squared errors: doubling the length multiplies this by 16.
            preferred = n < preferred ? max(n, 1) : (error * 16 < bound ? min(n * 2, longest) : n)
        }
    }
}

/// The columns of one row that opaque draws above hide, sorted by their start. One per walk, refilled row after
/// row: a walk's rows allocate nothing, and the occluders (large structs) are read in place, not copied.
struct RowHoles {
    private(set) var intervals: [(Int, Int)] = []

    init(occluders: Int) { intervals.reserveCapacity(2 * occluders) }

    @inline(__always)
    mutating func collect(_ occluders: [OpaqueRows], row y: Int) {
        intervals.removeAll(keepingCapacity: true)
        if occluders.isEmpty { return }
        for i in occluders.indices where y >= occluders[i].y0 && y < occluders[i].y1 {
            occluders[i].append(row: y, to: &intervals)
        }
        // Insertion sort: a handful of intervals.
        var i = 1
        while i < intervals.count {
            let h = intervals[i]
            var j = i
            while j > 0 && intervals[j - 1].0 > h.0 { intervals[j] = intervals[j - 1]; j -= 1 }
            intervals[j] = h
            i += 1
        }
    }
}
