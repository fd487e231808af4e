import LayerGraphics

/// Layout as in Core Animation: a layer marked with `setNeedsLayout()` lays out its sublayers once, top-down,
/// in the next `layoutIfNeeded()` (a snapshot runs one); autoresizing follows a change of the bounds' size at once.
extension Layer {
    /// Marks the layer as needing `layoutSublayers()` at the next `layoutIfNeeded()`; several marks lay out once.
    public func setNeedsLayout() {
        layoutIsNeeded = true
        layoutManager?.invalidateLayout(of: self)
    }

    /// Whether the layer is marked as needing layout.
    public func needsLayout() -> Bool { layoutIsNeeded }

    /// Lays out this layer if it is marked, then its sublayers (and mask) the same way: parents before children,
    /// so a child laid out by its parent is laid out in the same pass. *(ours)* Core Animation starts from the
    /// highest ancestor that needs layout; this starts at the receiver (a snapshot calls it on the root).
    public func layoutIfNeeded() {
        if layoutIsNeeded {
            layoutIsNeeded = false
            layoutSublayers()
        }
        for layer in storedSublayers { layer.layoutIfNeeded() }
        mask?.layoutIfNeeded()
    }

    /// What a change of `bounds` sets off: any change asks for layout (and display, with
    /// `needsDisplayOnBoundsChange`), as a scrolled bounds origin does in Core Animation; a change of size also
    /// resizes the sublayers by their masks.
    func boundsDidChange(from old: Rect) {
        guard bounds != old else { return }
        if bounds.size != old.size { resizeSublayers(withOldSize: old.size) }
        setNeedsLayout()
        if needsDisplayOnBoundsChange { setNeedsDisplay() }
    }

    /// The default `resize(withOldSuperlayerSize:)`: moves and resizes the frame by `autoresizingMask`, sharing each
    /// axis's change of the superlayer's size evenly among its flexible parts (AppKit's and Core Animation's rule).
    /// *(ours)* A size never goes below zero.
    func autoresize(withOldSuperlayerSize oldSize: Size) {
        guard let superlayer, !autoresizingMask.isEmpty else { return }
        let newSize = superlayer.bounds.size
        let mask = autoresizingMask
        let x = Self.share(newSize.width - oldSize.width, mask.contains(.layerMinXMargin), mask.contains(.layerWidthSizable), mask.contains(.layerMaxXMargin))
        let y = Self.share(newSize.height - oldSize.height, mask.contains(.layerMinYMargin), mask.contains(.layerHeightSizable), mask.contains(.layerMaxYMargin))
        if x == (0, 0) && y == (0, 0) { return }
        let old = frame
        frame = Rect(x: old.minX + x.origin, y: old.minY + y.origin,
                     width: max(0, old.width + x.size), height: max(0, old.height + y.size))
    }

    /// The parts of `change` that move the frame's min edge and that resize it, when the flexible parts of the axis
    /// (min margin, size, max margin) share it evenly. The max margin's share needs no action: it is what is left.
    static func share(_ change: Double, _ minMargin: Bool, _ size: Bool, _ maxMargin: Bool) -> (origin: Double, size: Double) {
        let parts = [minMargin, size, maxMargin].filter { $0 }.count
        guard parts > 0, change != 0 else { return (0, 0) }
        let each = change / Double(parts)
        return (minMargin ? each : 0, size ? each : 0)
    }
}
