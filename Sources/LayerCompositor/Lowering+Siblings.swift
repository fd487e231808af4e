import LayerGraphics
import LayerKit

/// SEMANTICS.md's "Sibling order is depth order": a layer's sublayers are planes in its space, drawn back to front
/// before it flattens them. A flat tree keeps its drawing order as it is, without building anything.
extension Lowering {
    /// The sublayers of a (flattening) layer, each lowered into its plane.
    /// - Parameters:
    ///   - toPlane: the layer's space to target pixels (its flattening, then its world matrix).
    ///   - planes: the layer's half-planes in front of the eye, in its own plane.
    ///   - flipped: whether the sublayers' planes are mirrored in y (see `lower`).
    func sublayerOps(of layer: LayerSnapshot, toPlane: Transform3D, planes: [HalfPlane], clips: [ClipShape],
                     flipped: Bool) -> [DrawOp] {
        let sub = layer.sublayerMatrix
        let children = layer.sublayersInDrawingOrder
        if !Self.isDrawnInOrder(children, sub) {
            // Depth matters: every child is one plane (a transform layer's planes join the sort), BSP-ordered.
            var contextPlanes: [ContextPlane] = []
            contextPlanes.reserveCapacity(children.count)
            for child in children where !child.isHidden {
                let a = child.localTransform.concatenating(sub)
                if child.preserves3D {
                    ContextPlane.collect(child, toContext: a, opacity: 1, into: &contextPlanes)
                } else {
                    contextPlanes.append(ContextPlane(layer: child, toContext: a, opacity: 1))
                }
            }
            return lower(contextPlanes, toTarget: toPlane, visible: planes, clips: clips, flipped: flipped)
        }
        var ops: [DrawOp] = []
        for child in children {
            let a = child.localTransform.concatenating(sub)
            if child.preserves3D {
                // A 3D rendering context: its planes are sorted in this layer's space before it flattens them.
                ops += lowerContext(of: child, toContext: a, toTarget: toPlane, visible: planes, clips: clips)
                continue
            }
            let ah = Homography(plane: a)
            let childPlanes = planes.map { $0.pulledBack(through: ah) } + [HalfPlane.inFront(of: ah)]
            ops += lower(child, world: a.concatenating(toPlane), planes: childPlanes, clips: clips, flipped: flipped)
        }
        return ops
    }

    /// Whether drawing the children in the order given is already back to front: every child's plane is parallel to
    /// the layer's (z constant over it, after the divide) and none is nearer the eye (larger z) than one drawn after
    /// it. Then a BSP tree would keep this order, so it is skipped: every 2D tree, and stacks ordered by `zPosition`.
    /// (The matrices are multiplied again when drawing: cheaper than an array per layer on the 2D path.)
    static func isDrawnInOrder(_ children: [LayerSnapshot], _ sub: Transform3D) -> Bool {
        if children.count < 2 { return true }
        var previous = -Double.infinity
        for child in children where !child.isHidden {
            let m = child.localTransform.concatenating(sub)
            // z and w of a point (x, y, 0, 1) of the child's plane: x·m13 + y·m23 + m43 and x·m14 + y·m24 + m44.
            guard m.m13 == 0, m.m23 == 0, m.m14 == 0, m.m24 == 0, m.m44 > 0 else { return false }
            let z = m.m43 / m.m44
            // NaN (or an infinite depth) has no place in an ordering: keep the array order, as before.
            guard z.isFinite else { continue }
            if z < previous { return false }
            previous = z
        }
        return true
    }
}
