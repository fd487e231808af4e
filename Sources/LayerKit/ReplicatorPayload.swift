import LayerGraphics

/// A replicator's presentation values as the compositor draws them (SEMANTICS-LAYERS.md §4), sanitised here.
public struct ReplicatorPayload: LayerPayload {
    /// Instances drawn, within 0…`ReplicatorLayer.maximumInstanceCount`.
    public let instanceCount: Int
    /// Seconds each instance runs behind the one before it.
    public let instanceDelay: Double
    /// Instance k − 1 → k about the bounds' centre; a matrix with a non-finite entry places no instance after 0.
    public let instanceTransform: Transform3D
    /// Instance 0's colour, each component within 0…1.
    public let instanceColor: Color
    /// Per-instance steps of red, green, blue and alpha (non-finite: 0).
    public let offsets: (red: Double, green: Double, blue: Double, alpha: Double)
    /// Whether the instances keep their 3D places (else they are flattened into the layer's plane).
    public let preservesDepth: Bool
    /// Instance k's sublayer snapshots at index k − 1, when instances run at different times and that shows;
    /// empty when every instance draws the snapshot's own `sublayers`.
    public let delayedInstances: [[LayerSnapshot]]

    /// The payload of these values, sanitised (counts clamped, non-finite steps 0).
    public init(instanceCount: Int, instanceDelay: Double, instanceTransform: Transform3D, instanceColor: Color,
                offsets: (red: Double, green: Double, blue: Double, alpha: Double), preservesDepth: Bool,
                delayedInstances: [[LayerSnapshot]] = []) {
        let finite = [instanceTransform.m11, instanceTransform.m12, instanceTransform.m13, instanceTransform.m14,
                      instanceTransform.m21, instanceTransform.m22, instanceTransform.m23, instanceTransform.m24,
                      instanceTransform.m31, instanceTransform.m32, instanceTransform.m33, instanceTransform.m34,
                      instanceTransform.m41, instanceTransform.m42, instanceTransform.m43, instanceTransform.m44].allSatisfy(\.isFinite)
        let count = min(max(instanceCount, 0), ReplicatorLayer.maximumInstanceCount)
        self.instanceCount = finite ? count : min(count, 1)
        self.instanceDelay = instanceDelay.isFinite ? instanceDelay : 0
        self.instanceTransform = finite ? instanceTransform : .identity
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        func step(_ v: Double) -> Double { v.isFinite ? v : 0 }
        self.instanceColor = Color(red: unit(instanceColor.red), green: unit(instanceColor.green), blue: unit(instanceColor.blue),
                                   alpha: unit(instanceColor.alpha))
        self.offsets = (step(offsets.red), step(offsets.green), step(offsets.blue), step(offsets.alpha))
        self.preservesDepth = preservesDepth
        self.delayedInstances = delayedInstances
    }

    /// An animated or model count as a number of instances: the floor, clamped (NaN: none).
    static func clampedCount(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value.rounded(.down), 0), Double(ReplicatorLayer.maximumInstanceCount)))
    }

    /// C_k = clamp₀₁(`instanceColor` + k·offsets), per component.
    public func color(ofInstance k: Int) -> Color {
        let k = Double(k)
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return Color(red: unit(instanceColor.red + k * offsets.red), green: unit(instanceColor.green + k * offsets.green),
                     blue: unit(instanceColor.blue + k * offsets.blue), alpha: unit(instanceColor.alpha + k * offsets.alpha))
    }

    /// Whether instance k's colour changes nothing (opaque white).
    public func isPlainColor(ofInstance k: Int) -> Bool {
        let c = color(ofInstance: k)
        return c.red >= 1 && c.green >= 1 && c.blue >= 1 && c.alpha >= 1
    }

    public func isEqual(to other: any LayerPayload) -> Bool {
        guard let o = other as? ReplicatorPayload else { return false }
        return instanceCount == o.instanceCount && instanceDelay == o.instanceDelay && instanceTransform == o.instanceTransform
            && instanceColor == o.instanceColor && offsets == o.offsets && preservesDepth == o.preservesDepth
            && delayedInstances.isEmpty && o.delayedInstances.isEmpty
    }
}

extension LayerSnapshot {
    /// The matrices of a replicator's instances in its bounds space: T(−c) · M^k · T(c) for k = 0 ..< count, c the
    /// bounds' centre; an instance whose power is no longer finite ends the list (nothing after it can be placed).
    public func replicatorInstanceMatrices(_ payload: ReplicatorPayload) -> [Transform3D] {
        let b = bounds.standardized
        let c = (x: b.midX, y: b.midY)
        let toCentre = Transform3D.makeTranslation(-c.x, -c.y, 0), back = Transform3D.makeTranslation(c.x, c.y, 0)
        var out: [Transform3D] = []
        out.reserveCapacity(payload.instanceCount)
        var power = Transform3D.identity
        for k in 0..<payload.instanceCount {
            if k > 0 { power = power.concatenating(payload.instanceTransform) }
            let m = toCentre.concatenating(power).concatenating(back)
            guard [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44, m.m33, m.m43].allSatisfy(\.isFinite) else { break }
            out.append(m)
        }
        return out
    }
}

extension LayerSnapshot {
    /// The sublayers instance k of this replicator draws, in drawing order (ascending `zPosition`, ties in array
    /// order): its own time-shifted snapshot when it has one, else this snapshot's sublayers.
    public func replicatorSublayersInDrawingOrder(_ payload: ReplicatorPayload, instance k: Int) -> [LayerSnapshot] {
        if k >= 1 && k - 1 < payload.delayedInstances.count {
            return LayerGeometry.drawingOrder(payload.delayedInstances[k - 1], zPosition: \.zPosition)
        }
        return sublayersInDrawingOrder
    }
}
