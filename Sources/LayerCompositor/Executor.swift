import Dispatch
import LayerGraphics

/// Executes a draw list: into a surface in bands of rows spread over the cores, or into any target on the
/// calling thread. Groups are painted on an intermediate buffer the size of their area in the band,
/// then masked and blended at their opacity.
final class Executor: Sendable {
    let threads: Int
    /// Rows per band: small enough to balance two cores on uneven scenes, big enough to amortise span setup.
    let bandHeight = 16

    init(threads: Int) { self.threads = max(1, threads) }

    /// - Parameter clear: fill each band with transparent black before drawing into it (on the band's core,
    ///   while its rows are in that core's cache), instead of clearing the whole surface first on one thread.
    func render(_ ops: [DrawOp], into surface: Surface, clear: Bool) {
        let full = PixelRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        let target = RenderTarget(base: surface.pixels, pixelsPerRow: surface.pixelsPerRow, originX: 0, originY: 0)
        let bands = (surface.height + bandHeight - 1) / bandHeight
        let plan = Plan(ops)
        let work: @Sendable (Int) -> Void = { [self] band in
            let area = PixelRect(x0: 0, y0: band * bandHeight, x1: full.x1, y1: min(full.y1, (band + 1) * bandHeight))
            if clear { clearBand(area, under: ops, in: target) }
            execute(plan, into: target, area: area)
        }
        if threads == 1 {
            for band in 0..<bands { work(band) }
        } else {
            DispatchQueue.concurrentPerform(iterations: bands, execute: work)
        }
    }

    /// Renders only `region` of the surface (cleared first); the rest of the surface is left as it is.
    func render(_ ops: [DrawOp], into surface: Surface, region: PixelRect) {
        let area = region.intersection(PixelRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !area.isEmpty else { return }
        let target = RenderTarget(base: surface.pixels, pixelsPerRow: surface.pixelsPerRow, originX: 0, originY: 0)
        let firstBand = area.y0 / bandHeight, bands = (area.y1 + bandHeight - 1) / bandHeight - firstBand
        let plan = Plan(ops)
        let work: @Sendable (Int) -> Void = { [self] i in
            let band = firstBand + i
            let rows = PixelRect(x0: area.x0, y0: max(area.y0, band * bandHeight), x1: area.x1, y1: min(area.y1, (band + 1) * bandHeight))
            for y in rows.y0..<rows.y1 { (target.row(y) + rows.x0).update(repeating: 0, count: rows.width) }
            execute(plan, into: target, area: rows)
        }
        if threads == 1 || bands == 1 {
            for i in 0..<bands { work(i) }
        } else {
            DispatchQueue.concurrentPerform(iterations: bands, execute: work)
        }
    }

    /// Renders a list whose first draw is an opaque canvas colour over the whole surface (`canvasColor`) into a
    /// surface that shows `previous` (nil: anything): the canvas is filled only where this frame or the previous
    /// one drew above it, the rest is drawn as usual. Returns what the surface shows now; nil when the list has no
    /// such canvas (then it is rendered whole, cleared first).
    func render(_ ops: [DrawOp], into surface: Surface, over previous: Backdrop?) -> Backdrop? {
        let w = surface.width, h = surface.height
        guard let color = canvasColor(ops, width: w, height: h) else {
            render(ops, into: surface, clear: true)
            return nil
        }
        let before = previous.flatMap { $0.color == color && $0.width == w && $0.height == h ? $0 : nil }
        let target = RenderTarget(base: surface.pixels, pixelsPerRow: surface.pixelsPerRow, originX: 0, originY: 0)
        let bands = (h + bandHeight - 1) / bandHeight
        let plan = Plan(ops)
        var spans = [Int32](repeating: 0, count: 2 * h)
        spans.withUnsafeMutableBufferPointer { buffer in
            let spans = SpanStore(base: buffer.baseAddress!)
            let work: @Sendable (Int) -> Void = { [self] band in
                let area = PixelRect(x0: 0, y0: band * bandHeight, x1: w, y1: min(h, (band + 1) * bandHeight))
                let occluders = plan.occluders[0]
                var holes = RowHoles(occluders: occluders.count)
                Self.storeDrawnColumns(plan.ops, rows: area.y0..<area.y1, width: w, into: spans.base)
                for y in area.y0..<area.y1 {
                    // The canvas is refilled where either frame drew; elsewhere the surface still shows it.
                    var a = Int(spans.base[2 * y]), b = Int(spans.base[2 * y + 1])
                    if let before {
                        if let s = before.span(row: y) { a = min(a, s.start); b = max(b, s.end) }
                    } else {
                        a = 0; b = w
                    }
                    if a >= b { continue }
                    let row = target.row(y)
                    holes.collect(occluders, row: y)
                    forEachVisibleRun(a, b, excluding: holes.intervals) { x0, x1 in
                        (row + x0).update(repeating: color, count: x1 - x0)
                    }
                }
                execute(plan, into: target, area: area, from: 1)
            }
            if threads == 1 {
                for band in 0..<bands { work(band) }
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: work)
            }
        }
        return Backdrop(color: color, width: w, height: h, spans: spans)
    }

    /// The bands' shared span array; each band writes its own rows.
    private struct SpanStore: @unchecked Sendable { let base: UnsafeMutablePointer<Int32> }

    /// The pixel word of a list's first draw when it paints every pixel of the surface that one opaque colour
    /// (a canvas's background: no contents, border, clip or transparency, and its deep interior covers every row).
    private func canvasColor(_ ops: [DrawOp], width: Int, height: Int) -> UInt32? {
        guard case .body(let b)? = ops.first, b.contents == nil, b.border == nil, b.opacity >= 1,
              b.placement.clips.isEmpty, let background = b.background, background.w >= 255, let deep = b.deep else { return nil }
        for y in 0..<height {
            guard let i = deep.interval(row: y), i.0 <= 0, i.1 >= width else { return nil }
        }
        return pack(background)
    }

    /// For each of `rows`, the columns the draws after the first may touch: the hull of their polygons' spans
    /// within their bounds (a group's bounds), clamped to the surface, stored as a (start, end) pair per row in
    /// `spans`, (width, 0) where none does (start ≥ end: none, as `Backdrop` reads it). Draw by draw over the rows
    /// (a draw's payload is unwrapped once a band, not once a row).
    private static func storeDrawnColumns(_ ops: [DrawOp], rows: Range<Int>, width: Int, into spans: UnsafeMutablePointer<Int32>) {
        for y in rows { spans[2 * y] = Int32(width); spans[2 * y + 1] = 0 }
        for op in ops.dropFirst() {
            let bounds = op.bounds
            let top = max(rows.lowerBound, bounds.y0), bottom = min(rows.upperBound, bounds.y1)
            if top >= bottom { continue }
            let polygon: ConvexPolygon?
            switch op {
            case .body(let d): polygon = d.placement.polygon
            case .shadow(let d): polygon = d.placement.polygon
            case .gradient(let d): polygon = d.placement.polygon
            case .group, .particles: polygon = nil
            }
            for y in top..<bottom {
                var a = bounds.x0, b = bounds.x1
                if let polygon {
                    guard let s = polygon.span(row: y) else { continue }
                    a = max(a, s.x0); b = min(b, s.x1)
                }
                spans[2 * y] = min(spans[2 * y], Int32(max(a, 0)))
                spans[2 * y + 1] = max(spans[2 * y + 1], Int32(min(b, width)))
            }
        }
    }

    /// Fills `area` with transparent black, except where the first draw is certainly opaque (an opaque canvas
    /// background): every pixel there is overwritten, by that draw or by an opaque draw above that hides it.
    private func clearBand(_ area: PixelRect, under ops: [DrawOp], in target: RenderTarget) {
        guard case .body(let first)? = ops.first, first.opaqueArea != nil else {
            target.row(area.y0).update(repeating: 0, count: target.pixelsPerRow * area.height)
            return
        }
        let canvas = OpaqueRows(first)
        for y in area.y0..<area.y1 {
            let row = target.row(y)
            var a = area.x1, b = area.x1   // the columns left as they are
            if let kept = canvas.opaqueInterval(row: y) {
                a = min(max(kept.0, area.x0), area.x1); b = min(max(kept.1, a), area.x1)
            }
            (row + area.x0).update(repeating: 0, count: a - area.x0)
            (row + b).update(repeating: 0, count: area.x1 - b)
        }
    }

    func execute(_ ops: [DrawOp], into target: RenderTarget, area: PixelRect) {
        execute(Plan(ops), into: target, area: area)
    }

    /// A draw list with, for each draw, the opaque draws later in the list (so painted above) that overlap it: what
    /// they hide need not be drawn. At most a few, the largest first, to bound the per-row cost. Found once a frame,
    /// not once a band.
    private struct Plan: @unchecked Sendable {
        let ops: [DrawOp]
        /// Unretained: `ops` keeps them alive.
        let occluders: [[OpaqueRows]]

        init(_ ops: [DrawOp]) {
            self.ops = ops
            occluders = ops.indices.map { i in
                let bounds = ops[i].bounds
                var found: [BodyDraw] = []
                for op in ops[(i + 1)...] {
                    guard case .body(let b) = op, b.occludes, !b.placement.bounds.intersection(bounds).isEmpty else { continue }
                    found.append(b)
                }
                if found.count > 4 {
                    found.sort { $0.placement.bounds.width * $0.placement.bounds.height > $1.placement.bounds.width * $1.placement.bounds.height }
                    found.removeLast(found.count - 4)
                }
                return found.map(OpaqueRows.init)
            }
        }
    }

    /// Draws `plan`'s draws from the `first`th on.
    private func execute(_ plan: Plan, into target: RenderTarget, area: PixelRect, from first: Int = 0) {
        for i in plan.ops.indices.dropFirst(first) {
            let r = plan.ops[i].bounds.intersection(area)
            if r.isEmpty { continue }
            switch plan.ops[i] {
            case .body(let b): Kernels.drawBody(b, into: target, area: r, occluders: plan.occluders[i])
            case .shadow(let s): Kernels.drawShadow(s, into: target, area: r, occluders: plan.occluders[i])
            case .group(let g): executeGroup(g, into: target, area: r)
            case .gradient(let g): Kernels.drawGradient(g, into: target, area: r, occluders: plan.occluders[i])
            case .particles(let p): Kernels.drawParticles(p, into: target, area: r)
            }
        }
    }

    private func executeGroup(_ g: GroupDraw, into target: RenderTarget, area r: PixelRect) {
        let count = r.width * r.height
        let layer = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        layer.initialize(repeating: 0, count: count)
        defer { layer.deallocate() }
        execute(g.ops, into: RenderTarget(base: layer, pixelsPerRow: r.width, originX: r.x0, originY: r.y0), area: r)

        var maskPixels: UnsafeMutablePointer<UInt32>? = nil
        if let mask = g.mask {
            let m = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            m.initialize(repeating: 0, count: count)
            execute(mask, into: RenderTarget(base: m, pixelsPerRow: r.width, originX: r.x0, originY: r.y0), area: r)
            maskPixels = m
        }
        defer { maskPixels?.deallocate() }

        var newPixels: UnsafeMutablePointer<UInt32>? = nil
        if let (ops, fraction) = g.crossfade {
            // A fade: the new picture on a buffer of its own, mixed into the old one, then composited as a group.
            let n = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            n.initialize(repeating: 0, count: count)
            execute(ops, into: RenderTarget(base: n, pixelsPerRow: r.width, originX: r.x0, originY: r.y0), area: r)
            let f = min(max(fraction, 0), 1)
            for i in 0..<count where layer[i] != 0 || n[i] != 0 {
                let mixed = unpack(layer[i]) * (1 - f) + unpack(n[i]) * f
                layer[i] = pack(mixed)
            }
            newPixels = n
        }
        defer { newPixels?.deallocate() }

        if maskPixels == nil && g.tint == nil {
            // Only the opacity: whole rows at once (a crossfaded or faded picture is a whole frame of this).
            for y in r.y0..<r.y1 {
                OpacityBlend.blendRow(target.row(y) + r.x0, layer + (y - r.y0) * r.width, count: r.width, opacity: g.opacity)
            }
            return
        }
        for y in r.y0..<r.y1 {
            let dst = target.row(y)
            let src = layer + (y - r.y0) * r.width - r.x0
            let msk = maskPixels.map { $0 + (y - r.y0) * r.width - r.x0 }
            for x in r.x0..<r.x1 {
                let word = src[x]
                if word == 0 { continue }
                var k = g.opacity
                if let msk { k *= Float(msk[x] >> 24) * (1 / 255) }
                if k <= 0 { continue }
                if let tint = g.tint { blend(unpack(word) * k * tint, over: &dst[x]) } else { blend(unpack(word) * k, over: &dst[x]) }
            }
        }
    }
}
