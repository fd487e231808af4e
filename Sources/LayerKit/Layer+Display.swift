import LayerGraphics

/// Drawn content as in Core Animation: a layer marked with `setNeedsDisplay()` gets new contents once, at the next
/// `displayIfNeeded()` (a snapshot runs it on every layer of the tree, after layout), and keeps them until marked again.
extension Layer {
    /// Marks the layer's contents as out of date: `display()` runs at the next `displayIfNeeded()`.
    public func setNeedsDisplay() { displayIsNeeded = true }

    /// Whether the layer is marked as needing display.
    public func needsDisplay() -> Bool { displayIsNeeded }

    /// Calls `display()` if the layer is marked, and clears the mark (before, so a redraw may mark it again).
    public func displayIfNeeded() {
        guard displayIsNeeded else { return }
        displayIsNeeded = false
        display()
    }

    /// `displayIfNeeded()` on this layer, its mask and all their sublayers.
    func displaySubtreeIfNeeded() {
        displayIfNeeded()
        for layer in storedSublayers { layer.displaySubtreeIfNeeded() }
        mask?.displaySubtreeIfNeeded()
    }

    /// Draws the layer into a new backing store and makes it the contents: what `display()` does unless the delegate
    /// displays the layer itself. The store is `bounds.size × contentsScale` pixels (rounded up), transparent, and
    /// its coordinates are the layer's bounds, so `draw(in:)` draws in points whatever the scale. Empty bounds
    /// leave no contents. Costs one cairo surface and one copy of its pixels.
    func displayByDrawing() {
        let b = bounds.standardized
        let scale = contentsScale > 0 ? contentsScale : 1
        guard b.width > 0, b.height > 0 else { contents = nil; return }
        delegate?.layerWillDraw(self)
        let context = DrawingContext(size: b.size, scale: scale)
        context.translateBy(x: -b.minX, y: -b.minY)
        draw(in: context)
        contents = .image(context.makeImage())
    }
}
