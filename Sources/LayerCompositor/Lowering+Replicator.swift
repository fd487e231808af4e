import LayerGraphics
import LayerKit

/// A replicator's instances (SEMANTICS-LAYERS.md §4): the sublayers lowered once per instance, each with
/// `T(−c) · M^k · T(c)` before the replicator's sublayer matrix and, when its colour is not plain white, every draw
/// multiplied by that colour.
extension Lowering {
    /// The draws of all instances, instance 0's first (later instances above).
    func replicatedSublayerOps(_ layer: LayerSnapshot, _ payload: ReplicatorPayload, world: Transform3D, planes: [HalfPlane],
                               clips: [ClipShape], flipped: Bool) -> [DrawOp] {
        let sub = layer.sublayerMatrix
        let toPlane = Transform3D.flattening.concatenating(world)
        var ops: [DrawOp] = []
        for (k, m) in layer.replicatorInstanceMatrices(payload).enumerated() {
            let color = payload.color(ofInstance: k)
            // A transparent instance multiplies all it draws by 0.
            if color.alpha <= 0 { continue }
            let instanceSub = m.concatenating(sub)
            var instanceOps: [DrawOp] = []
            for child in layer.replicatorSublayersInDrawingOrder(payload, instance: k) {
                let a = child.localTransform.concatenating(instanceSub)
                if child.preserves3D {
                    instanceOps += lowerContext(of: child, toContext: a, toTarget: toPlane, visible: planes, clips: clips)
                    continue
                }
                let ah = Homography(plane: a)
                let childPlanes = planes.map { $0.pulledBack(through: ah) } + [HalfPlane.inFront(of: ah)]
                instanceOps += lower(child, world: a.concatenating(toPlane), planes: childPlanes, clips: clips,
                                     flipped: flipped != layer.isGeometryFlipped)
            }
            if payload.isPlainColor(ofInstance: k) {
                ops += instanceOps
            } else {
                let tint = color.instanceTint
                ops += instanceOps.compactMap { tinted($0, tint) }
            }
        }
        return ops
    }

    /// `op` with every pixel it draws multiplied by `tint` (premultiplied B, G, R, A factors in 0…1), draw by draw:
    /// plain colours are multiplied in place, a body with contents through its kernel's tint, draws that sample otherwise
    /// (gradients, particles) become a group of one whose result is multiplied, and a group's own draws are tinted
    /// one by one (its mask is not).
    func tinted(_ op: DrawOp, _ tint: SIMD4<Float>) -> DrawOp? {
        switch op {
        case .body(let b) where b.contents == nil:
            let border = b.border.map { BorderDraw(inner: $0.inner, color: $0.color * tint) }
            let copy = BodyDraw(placement: b.placement, shape: b.shape, background: b.background.map { $0 * tint },
                                contents: nil, border: border, opacity: b.opacity)
            copy.uncut = b.uncut  // a body cut under its border stays restorable (DrawOp.withOpacity)
            return .body(copy)
        case .body(let b):
            // With contents: the body's composed result is multiplied in its kernel (one multiply a pixel, no group
            // pass: a tinted video instance costs what an untinted one does), as a group of one would be.
            let copy = BodyDraw(placement: b.placement, shape: b.shape, background: b.background, contents: b.contents,
                                border: b.border, opacity: b.opacity, bodyTint: (b.bodyTint ?? SIMD4(repeating: 1)) * tint)
            copy.uncut = b.uncut
            return .body(copy)
        case .shadow(let s):
            return .shadow(ShadowDraw(placement: s.placement, mask: s.mask, scale: s.scale, offsetX: s.offsetX,
                                      offsetY: s.offsetY, color: s.color * tint, opacity: s.opacity))
        case .group(let g) where g.tint == nil:
            let ops = g.ops.compactMap { tinted($0, tint) }
            let crossfade = g.crossfade.map { (ops: $0.ops.compactMap { tinted($0, tint) }, fraction: $0.fraction) }
            return .group(GroupDraw(ops: ops, mask: g.mask, opacity: g.opacity, bounds: g.bounds, crossfade: crossfade))
        case .group(let g):
            // Already a tinted group of one (a nested replicator): the colours multiply.
            return .group(GroupDraw(ops: g.ops, mask: g.mask, opacity: g.opacity, bounds: g.bounds, crossfade: g.crossfade,
                                    tint: g.tint! * tint))
        case .gradient, .particles:
            let bounds = op.bounds.intersection(viewport)
            if bounds.isEmpty { return nil }
            return .group(GroupDraw(ops: [op], mask: nil, opacity: 1, bounds: bounds, tint: tint))
        }
    }
}

extension Color {
    /// The factors a replicator instance of this colour multiplies premultiplied B, G, R, A pixels by: (b·a, g·a, r·a, a).
    var instanceTint: SIMD4<Float> {
        let a = Float(min(max(alpha, 0), 1))
        func c(_ v: Double) -> Float { Float(min(max(v, 0), 1)) * a }
        return SIMD4(c(blue), c(green), c(red), a)
    }
}
