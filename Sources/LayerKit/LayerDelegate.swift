import LayerGraphics

/// The object that draws, displays or lays out a layer for it (CALayerDelegate). Every method has a default, so
/// a delegate implements only what it needs. A layer holds its delegate weakly.
public protocol LayerDelegate: AnyObject {
    /// Gives `layer` new contents. Implement it to set `layer.contents` yourself; the default draws: it makes a
    /// backing store of the layer's size × `contentsScale`, calls `layer.draw(in:)` and sets the result as contents.
    func display(_ layer: Layer)
    /// Draws the content of `layer` into `context` (coordinates: the layer's bounds, y down).
    func draw(_ layer: Layer, in context: DrawingContext)
    /// Called just before `layer` draws into a new backing store.
    func layerWillDraw(_ layer: Layer)
    /// Places the sublayers of `layer`, after its layout manager (if any) has.
    func layoutSublayers(of layer: Layer)
    /// The action for `event` on `layer`, asked first (SEMANTICS-ANIMATION.md §4): an action ends the search,
    /// `NullAction.shared` ends it with no action, nil (the default) lets the layer search on.
    func action(for layer: Layer, forKey event: String) -> Action?
}

extension LayerDelegate {
    // A Swift protocol cannot ask whether a method is implemented (Core Animation's respondsToSelector:), so the
    // default `display(_:)` is the layer's own drawing path: a delegate that implements it takes over, as in CA.
    public func display(_ layer: Layer) { layer.displayByDrawing() }
    public func draw(_ layer: Layer, in context: DrawingContext) {}
    public func layerWillDraw(_ layer: Layer) {}
    public func layoutSublayers(of layer: Layer) {}
}
