import LayerGraphics

/// The matrices of SEMANTICS.md's transform chain, written once: the model (`Layer`: convert, hit testing) and
/// the snapshot the compositor lowers both call these, so what is drawn and what is hit cannot disagree.
enum LayerGeometry {
    /// The anchor point in the layer's bounds space: `bounds.origin + anchorPoint · bounds.size`.
    static func anchor(bounds: Rect, anchorPoint: Point) -> Point {
        Point(x: bounds.origin.x + anchorPoint.x * bounds.width, y: bounds.origin.y + anchorPoint.y * bounds.height)
    }

    /// Layer space to superlayer space:
    /// `T(-a.x, -a.y, -anchorPointZ) · transform · T(position.x, position.y, zPosition)`.
    static func localTransform(bounds: Rect, anchorPoint: Point, anchorPointZ: Double, transform: Transform3D,
                               position: Point, zPosition: Double) -> Transform3D {
        let a = anchor(bounds: bounds, anchorPoint: anchorPoint)
        return Transform3D.makeTranslation(-a.x, -a.y, -anchorPointZ)
            .concatenating(transform)
            .concatenating(.makeTranslation(position.x, position.y, zPosition))
    }

    /// What a layer applies to its sublayers: its geometry flip (when `isGeometryFlipped`), then
    /// `T(-a) · sublayerTransform · T(a)` with `a` its anchor in bounds space.
    ///
    /// *(ours)* The flip mirrors y about the middle of the bounds (`y ↦ minY + maxY − y`), so a sublayer at the
    /// top of the bounds' coordinates shows at the bottom, and it comes first: sublayers are laid out in the
    /// flipped space, and `sublayerTransform` (a perspective, say) still acts in the layer's own, unflipped space.
    static func sublayerMatrix(bounds: Rect, anchorPoint: Point, anchorPointZ: Double, sublayerTransform: Transform3D,
                               isGeometryFlipped: Bool) -> Transform3D {
        var m = Transform3D.identity
        if isGeometryFlipped {
            let middle = bounds.midY
            m = Transform3D.makeTranslation(0, -middle, 0).concatenating(.makeScale(1, -1, 1))
                .concatenating(.makeTranslation(0, middle, 0))
        }
        if sublayerTransform.isIdentity { return m }
        let a = anchor(bounds: bounds, anchorPoint: anchorPoint)
        return m.concatenating(.makeTranslation(-a.x, -a.y, -anchorPointZ))
            .concatenating(sublayerTransform)
            .concatenating(.makeTranslation(a.x, a.y, anchorPointZ))
    }

    /// Siblings in drawing order: ascending `zPosition`, ties in array order (a stable sort).
    static func drawingOrder<Item>(_ items: [Item], zPosition: (Item) -> Double) -> [Item] {
        items.enumerated().sorted { a, b in
            let za = zPosition(a.element), zb = zPosition(b.element)
            return za != zb ? za < zb : a.offset < b.offset
        }.map(\.element)
    }
}

extension Transform3D {
    /// `Z = diag(1, 1, 0, 1)`: a point carried into a layer's plane loses its z (w is kept). SEMANTICS.md, flattening:
    /// `world(child) = local(child) · sub(P) · Z · world(P)`.
    public static let flattening = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                               m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
}
