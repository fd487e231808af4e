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
    /// transform layer itself). Its planes (through nested TransformLayers) live in the 3D space of its
    /// superlayer, so the frontmost is the one nearest the viewer where the line of sight through `p` meets it,
    /// as the compositor's depth sort draws them, not the last in tree order.
    open override func hitTest(_ p: Point) -> Layer? {
        if isHidden { return nil }
        let outsideFacing = superlayer?.facesViewer ?? true
        var best: (layer: Layer, depth: Double)?
        func visit(_ context: Layer, _ toSpace: Transform3D) {
            for child in context.sublayers ?? [] where !child.isHidden {
                // The child's plane into the superlayer's space, without flattening on the way.
                let m = child.ownLocalTransform.concatenating(context.ownSublayerMatrix).concatenating(toSpace)
                if child is TransformLayer { visit(child, m); continue }
                guard let local = m.unproject(p) else { continue }
                if !child.isDoubleSided && (m.planeDeterminant > 0) != outsideFacing { continue }
                guard let hit = child.hitTestInside(local) else { continue }
                let q = m.apply(x: local.x, y: local.y)
                let depth = q.z / q.w // larger is nearer the viewer
                if best.map({ depth > $0.depth }) ?? true { best = (hit, depth) }
            }
        }
        visit(self, toSuperlayer)
        return best?.layer
    }

    override var preservesSublayerDepth: Bool { true }
}
