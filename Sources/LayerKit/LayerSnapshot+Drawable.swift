import LayerGraphics

/// What a snapshot carries is what the compositor can draw. A caller may set any number in the model (NaN,
/// infinities, 1e300 …), and the model keeps it as set, as Core Animation does; the snapshot clamps what has a
/// natural range and marks a layer that cannot be placed (its geometry or matrices not finite, or beyond any
/// canvas) as hidden, so it draws nothing, with its subtree. This is the one place the rule lives: the
/// compositor's integer pixel maths may then trust every value it is given.
enum Drawable {
    /// Coordinates, lengths, depths and matrix entries beyond a billion points place nothing on any canvas, and
    /// products of such values would overflow the compositor's fixed-point and integer maths.
    static let limit = 1e9

    static func isPlaceable(_ v: Double) -> Bool { v.isFinite && abs(v) <= limit }
    static func isPlaceable(_ p: Point) -> Bool { isPlaceable(p.x) && isPlaceable(p.y) }
    static func isPlaceable(_ s: Size) -> Bool { isPlaceable(s.width) && isPlaceable(s.height) }
    static func isPlaceable(_ r: Rect) -> Bool { isPlaceable(r.origin) && isPlaceable(r.size) }
    /// Every entry placeable. Asked of two matrices per layer per snapshot, so it builds no array of them.
    static func isPlaceable(_ t: Transform3D) -> Bool {
        isPlaceable(t.m11) && isPlaceable(t.m12) && isPlaceable(t.m13) && isPlaceable(t.m14)
            && isPlaceable(t.m21) && isPlaceable(t.m22) && isPlaceable(t.m23) && isPlaceable(t.m24)
            && isPlaceable(t.m31) && isPlaceable(t.m32) && isPlaceable(t.m33) && isPlaceable(t.m34)
            && isPlaceable(t.m41) && isPlaceable(t.m42) && isPlaceable(t.m43) && isPlaceable(t.m44)
    }

    /// Whether the layer's own geometry places it anywhere.
    static func isPlaceable(_ p: LayerPresentation) -> Bool {
        isPlaceable(p.bounds) && isPlaceable(p.position) && isPlaceable(p.anchorPoint) && isPlaceable(p.anchorPointZ)
            && isPlaceable(p.zPosition) && isPlaceable(p.transform) && isPlaceable(p.sublayerTransform)
    }

    /// An opacity or other fraction: NaN is 0 (nothing shows), the rest clamped to 0…1.
    static func fraction(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    /// A radius or width: NaN and negatives are 0, the rest at most `limit`.
    static func length(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), limit) }

    /// Each channel a fraction.
    static func color(_ c: Color?) -> Color? {
        c.map { Color(red: fraction($0.red), green: fraction($0.green), blue: fraction($0.blue), alpha: fraction($0.alpha)) }
    }

    /// A rect in unit coordinates (contentsRect, contentsCenter): the whole unit square when it cannot be used.
    static func unitRect(_ r: Rect) -> Rect { isPlaceable(r) ? r : Rect(x: 0, y: 0, width: 1, height: 1) }

    /// A scale factor: 1 when it is not a positive number, else within 10⁻⁶…10⁶.
    static func scale(_ v: Double) -> Double { v > 0 && v.isFinite ? min(max(v, 1e-6), 1e6) : 1 }

    /// A rasterization scale: 1 when NaN, infinite or not positive; else within 1/16…16 (a finer raster of a big
    /// layer would be gigabytes; the compositor lowers it further to bound the raster's side).
    static func rasterizationScale(_ v: Double) -> Double { v > 0 && v.isFinite ? min(max(v, 1.0 / 16), 16) : 1 }

    /// The LOD bias of trilinear minification: 0 when NaN; beyond ±32 no mip level differs.
    static func bias(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, -32), 32) }

    /// A shadow is drawn only where its offset and path place it somewhere.
    static func shadowIsPlaceable(offset: Size, path: Path?) -> Bool {
        guard isPlaceable(offset) else { return false }
        guard let path else { return true }
        let box = path.boundingBox
        return box.isNull || isPlaceable(box)
    }
}
