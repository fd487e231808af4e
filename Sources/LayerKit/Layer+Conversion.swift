import LayerGraphics

/// Converting points and rects between the coordinate spaces of two layers of one tree, through every transform
/// the compositor applies (SEMANTICS.md's chain, flattening included), so a converted point lands on the pixel
/// that shows it.
///
/// Going up, a point is carried into each superlayer's plane and divided by w. Going down into a layer, it becomes
/// the point of that layer's plane (z = 0) that is seen there: where the line of sight through it meets the plane.
/// The way goes through the nearest common ancestor only, so a perspective higher up cannot spoil a conversion
/// between two layers below it. A `nil` layer means the root of the receiver's tree (the layer with no superlayer).
///
/// The result is nil when the point has no image on the other layer: a layer on the way is seen edge-on, the
/// point lies behind the eye on one of the planes, or the two layers are not in one tree (a `mask` is a tree of
/// its own). *(ours: Core Animation returns some point in those cases; an optional makes the failure visible.)*
extension Layer {
    /// `p`, given in `layer`'s space (the root's when nil), in this layer's space. Optional where CALayer's
    /// `convert(_:from:)` is not: unwrap it (`if let q = layer.convert(p, from: other)`, or `!` when both layers are
    /// flat and in one tree) — nil says the point has no image here (above).
    public func convert(_ p: Point, from layer: Layer?) -> Point? {
        (layer ?? root).map(p, into: self)
    }

    /// `p`, given in this layer's space, in `layer`'s space (the root's when nil).
    public func convert(_ p: Point, to layer: Layer?) -> Point? {
        map(p, into: layer ?? root)
    }

    /// The bounding box of `r`'s four corners, given in `layer`'s space (the root's when nil), in this layer's
    /// space; nil when a corner has no image there.
    public func convert(_ r: Rect, from layer: Layer?) -> Rect? {
        (layer ?? root).map(r, into: self)
    }

    /// The bounding box of `r`'s four corners, given in this layer's space, in `layer`'s space (the root's when
    /// nil); nil when a corner has no image there.
    public func convert(_ r: Rect, to layer: Layer?) -> Rect? {
        map(r, into: layer ?? root)
    }

    // MARK: The chain

    /// Layer space to the superlayer's plane, before flattening: `local(self) · sub(superlayer)`; for a root,
    /// `local(self)` (into the space the tree is drawn in).
    var toSuperlayer: Transform3D {
        let local = LayerGeometry.localTransform(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                                 transform: transform, position: position, zPosition: zPosition)
        guard let superlayer else { return local }
        return local.concatenating(LayerGeometry.sublayerMatrix(
            bounds: superlayer.bounds, anchorPoint: superlayer.anchorPoint, anchorPointZ: superlayer.anchorPointZ,
            sublayerTransform: superlayer.sublayerTransform, isGeometryFlipped: superlayer.isGeometryFlipped))
    }

    /// The layer at the top of this layer's tree.
    var root: Layer {
        var layer = self
        while let parent = layer.superlayer { layer = parent }
        return layer
    }

    private func map(_ p: Point, into target: Layer) -> Point? {
        if target === self { return p }
        guard let common = nearestCommonAncestor(with: target) else { return nil }
        var p = p
        var layer = self
        while layer !== common, let parent = layer.superlayer {
            guard let up = layer.toSuperlayer.project(p) else { return nil }
            p = up
            layer = parent
        }
        for layer in target.ancestors(below: common).reversed() {
            guard let down = layer.toSuperlayer.unproject(p) else { return nil }
            p = down
        }
        return p
    }

    private func map(_ r: Rect, into target: Layer) -> Rect? {
        if r.isNull { return r }
        var box = Rect.null
        for corner in [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.minX, r.maxY), Point(r.maxX, r.maxY)] {
            guard let q = map(corner, into: target) else { return nil }
            box = box.union(Rect(x: q.x, y: q.y, width: 0, height: 0))
        }
        return box
    }

    /// The nearest layer that is this one or an ancestor of it, and `other` or an ancestor of it.
    private func nearestCommonAncestor(with other: Layer) -> Layer? {
        var mine = Set<ObjectIdentifier>()
        var layer: Layer? = self
        while let l = layer { mine.insert(ObjectIdentifier(l)); layer = l.superlayer }
        layer = other
        while let l = layer {
            if mine.contains(ObjectIdentifier(l)) { return l }
            layer = l.superlayer
        }
        return nil
    }

    /// This layer and its ancestors up to, not including, `ancestor`: nearest first.
    private func ancestors(below ancestor: Layer) -> [Layer] {
        var chain: [Layer] = []
        var layer = self
        while layer !== ancestor, let parent = layer.superlayer {
            chain.append(layer)
            layer = parent
        }
        return chain
    }
}
