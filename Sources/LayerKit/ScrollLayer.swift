import LayerGraphics

/// A layer whose `bounds.origin` is scrolled to move its sublayers (Core Animation's CAScrollLayer;
/// SEMANTICS-LAYERS.md §5). It draws nothing of its own beyond a plain layer: the sublayers move by −Δ of the
/// origin, while its background, border and contents stay put. There is no content size and no clamping: content
/// can scroll away for ever. Clipping is `masksToBounds`'s job, which is on by default here.
open class ScrollLayer: Layer {
    /// The axes `scroll(to:)` may move.
    public enum ScrollMode: String, Sendable, Hashable, CaseIterable {
        /// No axis, the vertical, the horizontal, or both.
        case none, vertically, horizontally, both
        var horizontal: Bool { self == .horizontally || self == .both }
        var vertical: Bool { self == .vertically || self == .both }
    }

    /// Which axes scroll; not animatable.
    open var scrollMode: ScrollMode = .both

    /// A scroll layer that clips to its bounds and scrolls both ways.
    public override init() {
        super.init()
        masksToBounds = true
    }

    /// Moves `bounds.origin` to `p` along the allowed axes, through the `bounds` setter (so it animates implicitly
    /// where bounds would). A non-finite coordinate is refused on its axis.
    open func scroll(to p: Point) {
        var b = bounds
        if scrollMode.horizontal, p.x.isFinite { b.origin.x = p.x }
        if scrollMode.vertical, p.y.isFinite { b.origin.y = p.y }
        if b != bounds { bounds = b }
    }

    /// Scrolls by the least amount that shows `r` (in the layer's bounds space) along each allowed axis: no change
    /// when it is already inside; its start when it is longer than the view.
    open func scroll(toRect r: Rect) {
        let r = r.standardized
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return }
        let b = bounds.standardized
        func axis(_ o: Double, _ length: Double, _ lo: Double, _ hi: Double) -> Double {
            if lo >= o && hi <= o + length { return o }
            if hi - lo > length || lo < o { return lo }
            return hi - length
        }
        scroll(to: Point(x: axis(b.minX, b.width, r.minX, r.maxX), y: axis(b.minY, b.height, r.minY, r.maxY)))
    }
}

extension Layer {
    /// The nearest `ScrollLayer` among the strict ancestors.
    var enclosingScrollLayer: ScrollLayer? {
        var layer = superlayer
        while let l = layer {
            if let s = l as? ScrollLayer { return s }
            layer = l.superlayer
        }
        return nil
    }

    /// Scrolls the nearest enclosing `ScrollLayer` so that `p`, in this layer's space, lands at its bounds origin;
    /// nothing without one (or when `p` has no image there).
    public func scroll(_ p: Point) {
        guard let s = enclosingScrollLayer, let q = convert(p, to: s) else { return }
        s.scroll(to: q)
    }

    /// Scrolls the nearest enclosing `ScrollLayer` by the least amount that shows `r`, given in this layer's space.
    public func scrollRectToVisible(_ r: Rect) {
        guard let s = enclosingScrollLayer, let q = convert(r, to: s) else { return }
        s.scroll(toRect: q)
    }

    /// The part of this layer's bounds that the nearest enclosing `ScrollLayer` shows (its bounds brought into this
    /// layer's space, a bounding box through transforms); the bounds without one.
    public var visibleRect: Rect {
        let b = bounds.standardized
        guard let s = enclosingScrollLayer else { return b }
        guard let v = s.convert(s.bounds.standardized, to: self) else { return Rect(x: b.minX, y: b.minY, width: 0, height: 0) }
        let x0 = max(b.minX, v.minX), y0 = max(b.minY, v.minY), x1 = min(b.maxX, v.maxX), y1 = min(b.maxY, v.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: b.minX, y: b.minY, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
