import Foundation
import LayerGraphics

/// A mosaic video's coverage, row by row: the columns it may touch, those it covers fully, and its coverage of
/// each column between them (the antialiased edge, the rounded corners). Found once per placement and kept
/// (`MosaicEdgeCache`): a wall's tiles sit still while their pictures change, and a corner's coverage costs a
/// square root a pixel.
final class MosaicEdges: @unchecked Sendable {
    /// The pixels the draw may touch, inside the target.
    let bounds: PixelRect
    private var y0: Int { bounds.y0 }
    private var y1: Int { bounds.y1 }
    /// Per row from y0: reach r0..<r1 (empty when untouched) and deep d0..<d1 inside it (empty when none).
    private let spans: [SIMD4<Int32>]
    /// Per row: where its coverage of columns r0..<d0, then d1..<r1, starts in `values`.
    private let offsets: [Int]
    private let values: [Float]

    init(_ placement: MosaicPlacement) {
        bounds = placement.bounds
        let y0 = bounds.y0, y1 = bounds.y1
        var spans: [SIMD4<Int32>] = [], offsets: [Int] = [], values: [Float] = []
        spans.reserveCapacity(y1 - y0); offsets.reserveCapacity(y1 - y0)
        for y in y0..<y1 {
            offsets.append(values.count)
            guard let (r, d) = placement.columns(row: y) else { spans.append(.zero); continue }
            spans.append(SIMD4(Int32(r.0), Int32(d.0), Int32(d.1), Int32(r.1)))
            for x in r.0..<d.0 { values.append(placement.coverage(x: x, y: y)) }
            for x in d.1..<r.1 { values.append(placement.coverage(x: x, y: y)) }
        }
        self.spans = spans; self.offsets = offsets; self.values = values
    }

    /// The columns of row `y` that may be touched and those fully covered; nil when none may be.
    @inline(__always)
    func columns(row y: Int) -> (reach: (Int, Int), deep: (Int, Int))? {
        guard y >= y0, y < y1 else { return nil }
        let s = spans[y - y0]
        guard s.x < s.w else { return nil }
        return ((Int(s.x), Int(s.w)), (Int(s.y), Int(s.z)))
    }

    /// The coverage of pixel (x, y): 0 outside the reach, 1 inside the deep columns, else as found.
    @inline(__always)
    func coverage(x: Int, y: Int) -> Float {
        guard y >= y0, y < y1 else { return 0 }
        let s = spans[y - y0]
        let r0 = Int(s.x), d0 = Int(s.y), d1 = Int(s.z), r1 = Int(s.w)
        guard x >= r0, x < r1 else { return 0 }
        if x >= d0 && x < d1 { return 1 }
        let base = offsets[y - y0]
        return x < d0 ? values[base + x - r0] : values[base + (d0 - r0) + x - d1]
    }
}

/// The edges of recent mosaic placements, by placement (map, shapes, clips, bounds), for all of a compositor's
/// frames; a few dozen at most (a wall has one per tile).
final class MosaicEdgeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [[Double]: MosaicEdges] = [:]
    private let capacity = 64

    func edges(for placement: MosaicPlacement) -> MosaicEdges {
        let key = placement.key
        if let hit = lock.withLock({ entries[key] }) { return hit }
        let edges = MosaicEdges(placement)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = edges
        }
        return edges
    }
}

extension MosaicPlacement {
    /// Every number the coverage depends on.
    var key: [Double] {
        let t = toLocal
        var key: [Double] = [t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h, t.i, clippedToShape ? 1 : 0,
                             Double(bounds.x0), Double(bounds.y0), Double(bounds.x1), Double(bounds.y1)]
        func add(_ r: RoundedRect) {
            key += [Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY),
                    Double(r.radii.x), Double(r.radii.y), Double(r.radii.z), Double(r.radii.w),
                    r.continuous ? 1 : 0, r.aliased ? 1 : 0]
        }
        add(shape); add(contentsRect)
        for clip in clips { add(clip.shape) }
        return key
    }
}
