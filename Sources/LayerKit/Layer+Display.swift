import LayerGraphics

/// Drawn content as in Core Animation: a layer marked with `setNeedsDisplay()` gets new contents once, at the next
/// `displayIfNeeded()` (a snapshot runs it on every layer of the tree, after layout), and keeps them until marked again.
extension Layer {
    /// Marks the layer's contents as out of date: `display()` runs at the next `displayIfNeeded()`.
    public func setNeedsDisplay() {
        displayIsNeeded = true
        displayDirtyRect = nil
    }

    /// Whether the layer is marked as needing display.
    public func needsDisplay() -> Bool { displayIsNeeded }

    /// Calls `display()` if the layer is marked, and clears the mark (before, so a redraw may mark it again).
    public func displayIfNeeded() {
        guard displayIsNeeded else { return }
        displayIsNeeded = false
        // The part to redraw is handed over and cleared first, so that a mark made while drawing stays for next time.
        displayingDirtyRect = displayDirtyRect
        displayDirtyRect = nil
        defer { displayingDirtyRect = nil }
        display()
    }

    /// `displayIfNeeded()` on this layer, its mask and all their sublayers.
    func displaySubtreeIfNeeded() {
        displayIfNeeded()
        for layer in storedSublayers { layer.displaySubtreeIfNeeded() }
        mask?.displaySubtreeIfNeeded()
    }

    /// Draws the layer into a new backing store and makes it the contents: what `display()` does unless the delegate
    /// displays the layer itself. The store is `bounds.size × contentsScale` pixels (rounded up), transparent (opaque
    /// black when `isOpaque`), and its coordinates are the layer's bounds, so `draw(in:)` draws in points whatever
    /// the scale. Empty bounds leave no contents. Costs one cairo surface and one copy of its pixels.
    ///
    /// After `setNeedsDisplay(_:)` only, when the contents are still the store drawn last time at the same size,
    /// scale and opacity, the store keeps its pixels outside the marked rect and `draw(in:)` runs clipped to it.
    func displayByDrawing() {
        let b = bounds.standardized
        let scale = contentsScale > 0 ? contentsScale : 1
        guard b.width > 0, b.height > 0 else { contents = nil; lastBackingStore = nil; return }
        delegate?.layerWillDraw(self)
        let context = DrawingContext(size: b.size, scale: scale, opaque: isOpaque)
        context.translateBy(x: -b.minX, y: -b.minY)
        if let dirty = displayingDirtyRect, let kept = lastBackingStore, kept.canKeep(contents, bounds: b, scale: context.scale, opaque: isOpaque) {
            // The old pixels, one to one (the image covers the canvas's whole pixels), then the marked part afresh.
            context.draw(kept.image, in: Rect(x: b.minX, y: b.minY, width: Double(kept.image.width) / context.scale,
                                              height: Double(kept.image.height) / context.scale))
            let region = kept.pixelAligned(dirty.intersection(b), origin: b.origin, scale: context.scale)
            guard !region.isEmpty else { return }
            context.clip(to: region)
            context.clear(region)
        }
        draw(in: context)
        let image = context.makeImage()
        contents = .image(image)
        lastBackingStore = BackingStore(image: image, bounds: b, scale: context.scale, opaque: isOpaque)
    }
}

/// A backing store `displayByDrawing` made, remembered so that a partial redraw can keep what it does not redraw.
struct BackingStore {
    let image: Image
    let bounds: Rect
    let scale: Double
    let opaque: Bool

    /// Whether a redraw may start from this store: it is still the layer's contents, and the new store would have
    /// the same bounds, scale and opacity.
    func canKeep(_ contents: LayerContents?, bounds b: Rect, scale s: Double, opaque o: Bool) -> Bool {
        guard case .image(let shown)? = contents, shown === image else { return false }
        return bounds == b && scale == s && opaque == o
    }

    /// `rect` (layer points) grown to whole pixels of a store whose top-left pixel is at `origin`.
    func pixelAligned(_ rect: Rect, origin: Point, scale: Double) -> Rect {
        guard !rect.isNull, !rect.isEmpty else { return .zero }
        let x0 = ((rect.minX - origin.x) * scale).rounded(.down), y0 = ((rect.minY - origin.y) * scale).rounded(.down)
        let x1 = ((rect.maxX - origin.x) * scale).rounded(.up), y1 = ((rect.maxY - origin.y) * scale).rounded(.up)
        return Rect(x: origin.x + x0 / scale, y: origin.y + y0 / scale, width: (x1 - x0) / scale, height: (y1 - y0) / scale)
    }
}
