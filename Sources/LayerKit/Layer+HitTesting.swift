import LayerGraphics

/// Hit testing as in Core Animation, through the same transforms the compositor draws with (3D and perspective
/// included): a point is carried into each layer's plane where the line of sight meets it.
extension Layer {
    /// The default `hitTest(_:)`. `p` is in the superlayer's space (for a root, the space the tree is drawn in).
    func hitTestSubtree(_ p: Point) -> Layer? {
        if isHidden { return nil }
        guard let local = toSuperlayer.unproject(p) else { return nil }
        // The compositor culls such a layer with everything on it, so nothing on it can be hit.
        if !isDoubleSided && !facesViewer { return nil }
        return hitTestInside(local)
    }

    /// Hit testing from a point already in this layer's own plane: its clip, its sublayers front to back, itself.
    func hitTestInside(_ local: Point) -> Layer? {
        if masksToBounds && !contains(local) { return nil }
        // A part (PlayerLayer's picture) stands for this layer's contents: a point on it hits this layer.
        for layer in sublayersInDrawingOrder.reversed() where !layer.isPartSublayer {
            if let hit = layer.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    /// The layer's own map from its plane to its superlayer's space, before the superlayer's sublayer matrix.
    var ownLocalTransform: Transform3D {
        LayerGeometry.localTransform(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                     transform: transform, position: position, zPosition: zPosition)
    }

    /// What this layer applies to its sublayers (sublayerTransform about the anchor, geometry flip).
    var ownSublayerMatrix: Transform3D {
        LayerGeometry.sublayerMatrix(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                     sublayerTransform: sublayerTransform, isGeometryFlipped: isGeometryFlipped)
    }

    /// The sublayers in drawing order: ascending `zPosition`, ties in array order.
    var sublayersInDrawingOrder: [Layer] {
        LayerGeometry.drawingOrder(storedSublayers, zPosition: \.zPosition)
    }

    /// Whether the layer's front faces the viewer once drawn, as the compositor judges it: the plane maps of the
    /// chain up to the root together keep the layer's orientation (each one's determinant gives its sign).
    var facesViewer: Bool {
        var sign = 1.0
        var layer: Layer? = self
        while let l = layer {
            let det = l.toSuperlayer.planeDeterminant
            if det == 0 { return false }
            if det < 0 { sign = -sign }
            layer = l.superlayer
        }
        return sign > 0
    }
}
