import LayerGraphics
import LayerKit

extension Layer {
    /// Draws the layer and its sublayers into `context` (`CALayer.render(in:)`), in the layer's own coordinate space:
    /// a point of the layer's bounds lands where the context's current transform puts that point of user space (the
    /// layer's own `position` and `transform` do not apply, as in Core Animation). It draws over what the context
    /// holds, through its clip.
    ///
    /// As Core Animation's, it draws the model tree, ignoring animations (what `presentation()` says is not what it
    /// draws), after laying out and redrawing what asked for it; it does not host the tree, so nothing begins to
    /// animate. Time-varying contents (a video's frame, particles) are those of the host's current time.
    ///
    /// Ours: Core Animation's `render(in:)` leaves out 3D transforms and some layer kinds; here the compositor that
    /// draws a window draws it, so perspective, `TransformLayer` depth sorting, masks, shadows, replicators and tiled
    /// layers come out as on screen, flattened into the context's 2D user space. The tree is rendered at the context's
    /// pixel resolution (its `scale` and current transform) by a compositor of its own on this thread, then blended in:
    /// it costs one render of the tree and a canvas-sized buffer. This method lives in LayerCompositor (LayerKit
    /// cannot see the compositor): `import LayerCompositor` to call it.
    public func render(in context: DrawingContext) {
        let root = modelSnapshot()
        let world = Transform3D(affine: context.currentTransform)
        let surface = Surface(width: context.pixelWidth, height: context.pixelHeight)
        Compositor(threads: 1).render(root, world: world, into: surface)
        context.composite(surface)
    }
}
