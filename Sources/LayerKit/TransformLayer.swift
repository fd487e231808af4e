import LayerGraphics

/// A layer that makes a true 3D scene of its sublayers, as Core Animation's CATransformLayer: they are not
/// flattened into its plane but keep their 3D positions in the 3D rendering context of its superlayer, where
/// the compositor sorts them by depth (splitting planes that cross). A TransformLayer inside a TransformLayer
/// extends the same context.
///
/// It draws nothing of its own: `backgroundColor`, `contents`, the border, the shadow, `mask` and
/// `masksToBounds` are ignored. Its `transform` and `sublayerTransform` place the sublayers, and its `opacity`
/// applies to each sublayer separately (no group is formed, so crossing planes still show through each other
/// only as their own opacities say).
open class TransformLayer: Layer {
    /// A TransformLayer has no plane to hit: only its sublayers are hit (Core Animation never hit-tests the
    /// transform layer itself). Points are carried into the sublayers through the transforms as drawn.
    open override func hitTest(_ p: Point) -> Layer? {
        if isHidden { return nil }
        guard let local = toSuperlayer.unproject(p) else { return nil }
        for layer in sublayersInDrawingOrder.reversed() {
            if let hit = layer.hitTest(local) { return hit }
        }
        return nil
    }

    override var preservesSublayerDepth: Bool { true }
}
