import LayerGraphics

/// An object that places a layer's sublayers (CALayoutManager): set it as a layer's `layoutManager` and the layer
/// asks it in `layoutSublayers()`. Only `layoutSublayers(of:)` is required.
public protocol LayoutManager: AnyObject {
    /// Places the sublayers of `layer` (sets their frames), when `layer` is laid out.
    func layoutSublayers(of layer: Layer)
    /// The size `layer` would like in its superlayer; nil leaves the answer to the layer (its frame's size).
    func preferredSize(of layer: Layer) -> Size?
    /// Called when `layer` is marked as needing layout, to drop anything cached about it.
    func invalidateLayout(of layer: Layer)
}

extension LayoutManager {
    public func preferredSize(of layer: Layer) -> Size? { nil }
    public func invalidateLayout(of layer: Layer) {}
}
