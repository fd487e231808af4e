import LayerGraphics
import LayerKit

/// One plane of a 3D rendering context: a layer drawn flat (its own subtree flattened into it, as everywhere),
/// placed in the context's 3D space. A `TransformLayer`'s sublayers become such planes; a `ReplicatorLayer` with
/// `preservesDepth` can hand its instances here the same way (the same layer, one matrix and opacity per copy).
struct ContextPlane {
    let layer: LayerSnapshot
    /// The layer's space to the context's space: the space of the superlayer of the context's root, with that
    /// superlayer's `sublayerTransform` applied but before it flattens (z kept, nothing divided by w).
    let toContext: Transform3D
    /// The opacity of the transform layers above it, each applied to every sublayer separately (no group).
    let opacity: Double
    /// The colour of the replicator instance it belongs to, multiplying each of its draws (nil: none).
    var tint: SIMD4<Float>? = nil

    /// Appends the planes of `root` (a layer that preserves depth) and of the nested transform layers, in
    /// drawing order (ascending `zPosition`, ties in array order; a nested context's planes at its place).
    /// - Parameter toContext: `root`'s own map into the context's space.
    static func collect(_ root: LayerSnapshot, toContext: Transform3D, opacity: Double, tint: SIMD4<Float>? = nil,
                        into planes: inout [ContextPlane]) {
        if root.isHidden || root.opacity <= 0 { return }
        let opacity = opacity * root.opacity
        func add(_ children: [LayerSnapshot], _ sub: Transform3D, _ tint: SIMD4<Float>?) {
            for child in children where !child.isHidden {
                let m = child.localTransform.concatenating(sub)
                if child.preserves3D {
                    collect(child, toContext: m, opacity: opacity, tint: tint, into: &planes)
                } else {
                    planes.append(ContextPlane(layer: child, toContext: m, opacity: opacity, tint: tint))
                }
            }
        }
        guard let replicator = root.payload as? ReplicatorPayload else {
            add(root.sublayersInDrawingOrder, root.sublayerMatrix.concatenating(toContext), tint)
            return
        }
        // A replicator that preserves depth: each instance's sublayers are planes of the context (SEMANTICS-LAYERS.md §4).
        for (k, m) in root.replicatorInstanceMatrices(replicator).enumerated() {
            let color = replicator.color(ofInstance: k)
            if color.alpha <= 0 { continue }
            let instanceTint = replicator.isPlainColor(ofInstance: k) ? tint : (tint ?? SIMD4(repeating: 1)) * color.instanceTint
            add(root.replicatorSublayersInDrawingOrder(replicator, instance: k),
                m.concatenating(root.sublayerMatrix).concatenating(toContext), instanceTint)
        }
    }
}

extension Lowering {
    /// Lowers the context of `root`, a layer that preserves depth, at its place among its siblings.
    /// - Parameters:
    ///   - toContext: `root`'s map into the context's space (its local transform, then its superlayer's sublayer matrix).
    ///   - toTarget: the context's space to target pixels (the superlayer's flattening, then its world matrix).
    ///   - visible: the superlayer's half-planes in front of the eye, in its own plane.
    func lowerContext(of root: LayerSnapshot, toContext: Transform3D, toTarget: Transform3D, visible: [HalfPlane],
                      clips: [ClipShape]) -> [DrawOp] {
        var planes: [ContextPlane] = []
        ContextPlane.collect(root, toContext: toContext, opacity: 1, into: &planes)
        return lower(planes, toTarget: toTarget, visible: visible, clips: clips)
    }

    /// Draws the planes of one context back to front (BSP order), each piece of a split plane as the whole layer
    /// clipped to the piece, so a crossing plane shows in front on one side of the crossing and behind on the other.
    /// `flipped`: the planes are mirrored in y (sublayers of a plain layer under an odd number of flipped ones).
    func lower(_ planes: [ContextPlane], toTarget: Transform3D, visible: [HalfPlane], clips: [ClipShape],
               flipped: Bool = false) -> [DrawOp] {
        var polygons: [DrawPolygon] = []
        var planeVisible: [[HalfPlane]] = []
        for (i, plane) in planes.enumerated() {
            let h = Homography(plane: plane.toContext)
            let v = visible.map { $0.pulledBack(through: h) } + [HalfPlane.inFront(of: h)]
            planeVisible.append(v)
            // Planes that draw nothing (culled back faces, edge-on) stay out of the tree: they would only cut others.
            let world = Homography(plane: plane.toContext.concatenating(toTarget))
            if world.inverted() == nil || isCulled(plane.layer, world, v + [HalfPlane.inFront(of: world)]) { continue }
            if let polygon = contextPolygon(plane, index: i, visible: v) { polygons.append(polygon) }
        }
        var ops: [DrawOp] = []
        for piece in BSPTree(polygons).backToFront() {
            let plane = planes[piece.planeIndex]
            let world = plane.toContext.concatenating(toTarget)
            var cutClips: [ClipShape] = []
            if !piece.cuts.isEmpty {
                guard let inverse = Homography(plane: world).inverted() else { continue }
                cutClips = piece.cuts.compactMap { halfPlaneClip($0, inverse: inverse) }
            }
            let drawn = lower(plane.layer, world: world, planes: planeVisible[piece.planeIndex] + piece.cuts,
                              clips: clips + cutClips, opacityScale: plane.opacity, flipped: flipped)
            ops += plane.tint.map { t in drawn.compactMap { tinted($0, t) } } ?? drawn
        }
        return ops
    }

    /// The plane's drawn extent, the part in front of the eye, in the context's space after the divide.
    func contextPolygon(_ plane: ContextPlane, index: Int, visible: [HalfPlane]) -> DrawPolygon? {
        let e = Self.extent(of: plane.layer)
        var poly = ConvexPolygon(rect: e.minX, e.minY, e.maxX, e.maxY)
        for p in visible where !poly.isEmpty { poly = poly.clipped(by: p) }
        let m = plane.toContext
        let points = poly.points.map { q -> SIMD3<Double> in
            let p = m.apply(x: q.x, y: q.y)
            return SIMD3(p.x, p.y, p.z) / p.w
        }
        return DrawPolygon(planeIndex: index, points: points,
                           toContext: (SIMD4(m.m11, m.m12, m.m13, m.m14), SIMD4(m.m21, m.m22, m.m23, m.m24),
                                       SIMD4(m.m41, m.m42, m.m43, m.m44)))
    }

    /// The rect of a layer's plane its drawing can cover: its bounds, its shadow, and (unless `masksToBounds`)
    /// its sublayers as flattened into it. The BSP tree sorts and cuts this whole rect, not just the bounds.
    static func extent(of layer: LayerSnapshot) -> Rect {
        let bounds = layer.bounds.standardized
        if layer.masksToBounds { return bounds }
        var r = bounds
        if layer.shadowOpacity > 0, layer.shadowColor != nil {
            let shape = layer.shadowPath?.boundingBox ?? bounds
            let blur = 3 * max(0, layer.shadowRadius) + 1
            r = r.union(shape.offsetBy(dx: layer.shadowOffset.width, dy: layer.shadowOffset.height).insetBy(dx: -blur, dy: -blur))
        }
        // A replicator's sublayers count once per instance, moved as that instance (SEMANTICS-LAYERS.md §4).
        var copies: [(sub: Transform3D, children: [LayerSnapshot])] = [(layer.sublayerMatrix, layer.sublayers)]
        if let replicator = layer.payload as? ReplicatorPayload {
            copies = layer.replicatorInstanceMatrices(replicator).enumerated().map { k, m in
                (m.concatenating(layer.sublayerMatrix), layer.replicatorSublayersInDrawingOrder(replicator, instance: k))
            }
        }
        for (sub, children) in copies {
            for child in children where !child.isHidden {
                let e = extent(of: child)
                let m = child.localTransform.concatenating(sub)
                for (x, y) in [(e.minX, e.minY), (e.maxX, e.minY), (e.maxX, e.maxY), (e.minX, e.maxY)] {
                    let p = m.apply(x: x, y: y)
                    // A corner behind the eye has no place in the plane; the part in front is within the others' box
                    // often enough, and an underestimate only costs ordering precision, never pixels.
                    if p.w > 1e-9 { r = r.union(Rect(x: p.x / p.w, y: p.y / p.w, width: 0, height: 0)) }
                }
            }
        }
        return r
    }

    /// A clip to the half-plane `a·u + b·v + c > 0` of a layer's plane, as the rounded-rect clips the kernels
    /// already evaluate: in coordinates turned so that u' is the distance from the line, the half-plane is a very
    /// large rect with one edge on the line. Antialiased like any clip edge; nil when the line is degenerate.
    func halfPlaneClip(_ p: HalfPlane, inverse: Homography) -> ClipShape? {
        let length = (p.a * p.a + p.b * p.b).squareRoot()
        guard length.isFinite, length > 1e-12 else { return nil }
        let nx = p.a / length, ny = p.b / length, c = p.c / length
        // (U, V, W) ↦ (nx·U + ny·V + c·W, −ny·U + nx·V, W): a rotation and shift of the plane, in row-vector form.
        let turn = Homography(m11: nx, m12: -ny, m13: 0, m21: ny, m22: nx, m23: 0, m31: c, m32: 0, m33: 1)
        let far: Float = 1e9
        return ClipShape(toLocal: PixelToLocal(inverse.concatenating(turn)),
                         shape: RoundedRect(minX: 0, minY: -far, maxX: far, maxY: far, radii: .zero),
                         bounds: viewport)
    }
}

extension Homography {
    /// `self`, then `other` (row vectors: `self · other`).
    func concatenating(_ o: Homography) -> Homography {
        Homography(m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31, m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
                   m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
                   m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31, m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
                   m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
                   m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31, m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
                   m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }
}
