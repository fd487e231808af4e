import LayerGraphics

/// A layer that draws its sublayers `instanceCount` times, each copy moved by one more `instanceTransform`, tinted
/// by one more step of the colour offsets and running `instanceDelay` seconds later (Core Animation's
/// CAReplicatorLayer; SEMANTICS-LAYERS.md §4).
///
/// Instance k uses `instanceTransform`^k applied about the centre of the bounds, the colour
/// clamp₀₁(`instanceColor` + k·offsets) multiplying everything it draws (per draw, not as a group), and the
/// replicator's local time minus k·`instanceDelay`. The replicator's own background, contents and border are drawn
/// once, beneath all instances. Hit testing and conversions see instance 0 only.
open class ReplicatorLayer: Layer {
    /// The most instances drawn: a larger `instanceCount` (10⁹, say) draws this many, so a typo costs a slow frame,
    /// never a hang or a huge allocation. The book's uses need tens.
    public static let maximumInstanceCount = 10_000

    /// Copies of the sublayers, the original included; 0 or less draws no sublayer (the background still shows).
    /// Animates as the floor of the interpolated value.
    open var instanceCount = 1 {
        didSet { didChangeValue(forKey: "instanceCount", from: Double(oldValue)) }
    }

    /// Seconds each instance runs behind the previous one (negative: ahead).
    open var instanceDelay: Double = 0 {
        didSet { didChangeValue(forKey: "instanceDelay", from: oldValue) }
    }

    /// Instance k − 1 to instance k, in the replicator's bounds space about its centre.
    open var instanceTransform = Transform3D.identity {
        didSet { didChangeValue(forKey: "instanceTransform", from: oldValue) }
    }

    /// Instance 0's colour (nil: opaque white, which changes nothing).
    open var instanceColor: Color? = nil {
        didSet { didChangeValue(forKey: "instanceColor", from: oldValue ?? .white) }
    }

    /// Added to the colour's red, green, blue and alpha for each further instance.
    open var instanceRedOffset: Double = 0 {
        didSet { didChangeValue(forKey: "instanceRedOffset", from: oldValue) }
    }
    /// Added to the green component for each further instance.
    open var instanceGreenOffset: Double = 0 {
        didSet { didChangeValue(forKey: "instanceGreenOffset", from: oldValue) }
    }
    /// Added to the blue component for each further instance.
    open var instanceBlueOffset: Double = 0 {
        didSet { didChangeValue(forKey: "instanceBlueOffset", from: oldValue) }
    }
    /// Added to the alpha for each further instance.
    open var instanceAlphaOffset: Double = 0 {
        didSet { didChangeValue(forKey: "instanceAlphaOffset", from: oldValue) }
    }

    /// The instances' sublayers become planes of the 3D rendering context, as a `TransformLayer`'s sublayers do;
    /// the replicator then draws nothing of its own (no background, contents, border, shadow, mask or clip).
    /// Not animatable.
    open var preservesDepth = false

    open override class var animatableProperties: [AnimatableProperty] {
        super.animatableProperties + [
            AnimatableProperty("instanceCount", value: { (layer: ReplicatorLayer) in Double(layer.instanceCount) },
                               set: { layer, v in layer.instanceCount = v.isFinite ? Int(max(-1e9, min(v, 1e9)).rounded(.down)) : 0 }),
            AnimatableProperty("instanceDelay", value: { (layer: ReplicatorLayer) in layer.instanceDelay }, set: { layer, v in layer.instanceDelay = v }),
            AnimatableProperty("instanceTransform", value: { (layer: ReplicatorLayer) in layer.instanceTransform }, set: { layer, v in layer.instanceTransform = v }),
            AnimatableProperty("instanceColor", value: { (layer: ReplicatorLayer) in layer.instanceColor ?? .white }, set: { layer, v in layer.instanceColor = v }),
            AnimatableProperty("instanceRedOffset", value: { (layer: ReplicatorLayer) in layer.instanceRedOffset }, set: { layer, v in layer.instanceRedOffset = v }),
            AnimatableProperty("instanceGreenOffset", value: { (layer: ReplicatorLayer) in layer.instanceGreenOffset }, set: { layer, v in layer.instanceGreenOffset = v }),
            AnimatableProperty("instanceBlueOffset", value: { (layer: ReplicatorLayer) in layer.instanceBlueOffset }, set: { layer, v in layer.instanceBlueOffset = v }),
            AnimatableProperty("instanceAlphaOffset", value: { (layer: ReplicatorLayer) in layer.instanceAlphaOffset }, set: { layer, v in layer.instanceAlphaOffset = v }),
        ]
    }

    override var preservesSublayerDepth: Bool { preservesDepth }

    /// The presentation values of the replication, and, when instances run at other times than instance 0 and
    /// something below depends on time, each later instance's own snapshot of the sublayers.
    open override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        let extras = presentation.extras
        func number(_ key: String, _ model: Double) -> Double {
            if case .number(let v)? = extras[key] { return v }
            return model
        }
        var transform = instanceTransform
        if case .transform(let t)? = extras["instanceTransform"] { transform = t }
        var color = instanceColor ?? .white
        if case .color(let c)? = extras["instanceColor"] { color = c }
        let count = ReplicatorPayload.clampedCount(number("instanceCount", Double(instanceCount)))
        // Within ±10⁹ s (about 30 years): k·delay stays finite for every k, so each instance has a real time.
        let rawDelay = number("instanceDelay", instanceDelay)
        let delay = rawDelay.isFinite ? min(max(rawDelay, -1e9), 1e9) : 0
        var delayed: [[LayerSnapshot]] = []
        // Instance 0 is the snapshot's own `sublayers`; later ones need their own only when their time differs and
        // the subtree shows that difference (an animation, or a layer class whose drawing follows the clock).
        if delay != 0, count > 1, let subs = sublayers, !subs.isEmpty, subs.contains(where: { $0.subtreeDependsOnTime }) {
            delayed.reserveCapacity(count - 1)
            for k in 1..<count {
                let t = time - Double(k) * delay
                delayed.append(subs.map { LayerSnapshot($0, parentTime: t) })
            }
        }
        return ReplicatorPayload(instanceCount: count, instanceDelay: delay, instanceTransform: transform,
                                 instanceColor: color,
                                 offsets: (number("instanceRedOffset", instanceRedOffset), number("instanceGreenOffset", instanceGreenOffset),
                                           number("instanceBlueOffset", instanceBlueOffset), number("instanceAlphaOffset", instanceAlphaOffset)),
                                 preservesDepth: preservesDepth, delayedInstances: delayed)
    }
}

extension Layer {
    /// Whether this layer or one below it may look different at another time: it has animations, or its class is
    /// not one of LayerKit's own, whose drawing depends only on presentation values (a player layer, a drawable,
    /// subtitles and app subclasses may follow the clock).
    var subtreeDependsOnTime: Bool {
        if !animationEntries.isEmpty { return true }
        if !Self.timeIndependentClasses.contains(ObjectIdentifier(type(of: self))) { return true }
        if let mask, mask.subtreeDependsOnTime { return true }
        return storedSublayers.contains { $0.subtreeDependsOnTime }
    }

    private static let timeIndependentClasses: Set<ObjectIdentifier> = [
        ObjectIdentifier(Layer.self), ObjectIdentifier(ShapeLayer.self), ObjectIdentifier(GradientLayer.self),
        ObjectIdentifier(TextLayer.self), ObjectIdentifier(TransformLayer.self), ObjectIdentifier(ReplicatorLayer.self),
        ObjectIdentifier(ScrollLayer.self),
    ]
}
