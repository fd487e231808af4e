import LayerGraphics

/// A layer that emits, animates and draws particles (Core Animation's CAEmitterLayer; SEMANTICS-LAYERS.md §7).
///
/// Each of `emitterCells` describes one kind of particle; the layer says where they are born (`emitterShape`,
/// `emitterMode`, `emitterPosition`, `emitterSize`…), how they are painted (`renderMode`), and scales the cells'
/// rates, lifetimes, speeds, sizes and spins. Particles are computed in closed form from the layer's local time and
/// `seed` in each snapshot: a particle keeps the values in effect at its birth (setting or animating `birthRate`,
/// `lifetime`, `velocity`… leaves the living particles as they are), births are integrated over a changing rate, and
/// nothing else passes between frames, so seeking to a time shows exactly the particles that playing to it shows,
/// and an export is the same on every run. They are drawn above the layer's background,
/// contents, sublayers and border, and are not clipped to its bounds (only by `masksToBounds`).
///
/// Cost: each snapshot evaluates every live particle (about 0.1 µs each); at most
/// `EmitterLayer.maximumParticleCount` live at once, whatever the rates and lifetimes.
open class EmitterLayer: Layer {
    /// The shape particles are born on or in (w, h, d = `emitterSize` and `emitterDepth`).
    public enum Shape: String, Sendable, CaseIterable {
        /// At `emitterPosition`.
        case point
        /// Along x, of length w, centred on the position.
        case line
        /// w × h in the layer's plane.
        case rectangle
        /// w × h × d.
        case cuboid
        /// A circle of radius w in the layer's plane.
        case circle
        /// A sphere of radius w.
        case sphere
    }

    /// Which part of the shape emits.
    public enum Mode: String, Sendable, CaseIterable {
        /// The corners (line ends, rectangle and cuboid corners; the circle or sphere itself).
        case points
        /// The edges (the circle, the sphere's surface).
        case outline
        /// The surface (uniform over its area; the whole disc for a circle).
        case surface
        /// The inside (uniform over the volume or area).
        case volume
    }

    /// How particles are painted over each other.
    public enum RenderMode: String, Sendable, CaseIterable {
        /// Cell order, then birth order (deterministic).
        case unordered
        /// The oldest painted first (the newest on top).
        case oldestFirst
        /// The newest painted first (the oldest on top).
        case oldestLast
        /// Ascending z, ties by birth order.
        case backToFront
        /// Unordered order, added: each premultiplied channel becomes min(1, dst + src), alpha too (a glow).
        case additive
    }

    /// The most particles one emitter layer shows at once: births past it (in index order) are skipped, so a
    /// birth rate of 10⁹ or a lifetime of 10³⁰⁰ costs at most this many particles (about 6 MB per snapshot).
    public static let maximumParticleCount = 65_536

    /// The kinds of particle emitted; nil or empty emits none.
    open var emitterCells: [EmitterCell]?

    /// Particles move, are born and die with time: an emitter with cells changes every frame.
    open override var drawsDifferentlyOverTime: Bool { !(emitterCells ?? []).isEmpty }
    /// Multipliers of every cell's birth rate, lifetime, velocity, scale and spin.
    open var birthRate = 1.0 { didSet { didChangeValue(forKey: "birthRate", from: oldValue) } }
    /// Multiplies every cell's lifetime.
    open var lifetime = 1.0 { didSet { didChangeValue(forKey: "lifetime", from: oldValue) } }
    /// Multiplies every cell's velocity.
    open var velocity = 1.0 { didSet { didChangeValue(forKey: "velocity", from: oldValue) } }
    /// Multiplies every cell's scale.
    open var scale = 1.0 { didSet { didChangeValue(forKey: "scale", from: oldValue) } }
    /// Multiplies every cell's spin.
    open var spin = 1.0 { didSet { didChangeValue(forKey: "spin", from: oldValue) } }
    /// The centre of the emitting shape in the layer's space, and its z.
    open var emitterPosition = Point(x: 0, y: 0) { didSet { didChangeValue(forKey: "emitterPosition", from: oldValue) } }
    /// The z of the emitting shape's centre.
    open var emitterZPosition = 0.0 { didSet { didChangeValue(forKey: "emitterZPosition", from: oldValue) } }
    /// The shape's width and height (a circle's or sphere's radius is the width), and its depth.
    open var emitterSize = Size(width: 0, height: 0) { didSet { didChangeValue(forKey: "emitterSize", from: oldValue) } }
    /// The emitting shape's depth (for cuboids and spheres).
    open var emitterDepth = 0.0 { didSet { didChangeValue(forKey: "emitterDepth", from: oldValue) } }
    /// Not animatable.
    open var emitterShape: Shape = .point
    /// Where on the shape particles are born. Not animatable.
    open var emitterMode: Mode = .volume
    /// The order particles are painted in, and whether they add up. Not animatable.
    open var renderMode: RenderMode = .unordered
    /// Whether particles keep their z: each is drawn at its depth in the layer's 3D space, under the layer's own
    /// transform and the superlayer's perspective (`sublayerTransform`), and they are painted back to front by depth.
    /// Without it z is dropped (it only orders `.backToFront`). Particles are depth-sorted among themselves, not
    /// interleaved with the other layers of a 3D rendering context.
    open var preservesDepth = false
    /// Picks the random draws: another seed gives other particles, the same seed the same ones.
    open var seed: UInt32 = 0

    /// The birth history: which values were in effect when (model changes stamped with the time of the first
    /// snapshot that saw them, animated values sampled), so living particles keep the values they were born with.
    let birthTimeline = Guarded(EmitterTimeline())

    open override class var animatableProperties: [AnimatableProperty] {
        super.animatableProperties + [
            AnimatableProperty("birthRate", value: { (l: EmitterLayer) in l.birthRate }, set: { l, v in l.birthRate = v }),
            AnimatableProperty("lifetime", value: { (l: EmitterLayer) in l.lifetime }, set: { l, v in l.lifetime = v }),
            AnimatableProperty("velocity", value: { (l: EmitterLayer) in l.velocity }, set: { l, v in l.velocity = v }),
            AnimatableProperty("scale", value: { (l: EmitterLayer) in l.scale }, set: { l, v in l.scale = v }),
            AnimatableProperty("spin", value: { (l: EmitterLayer) in l.spin }, set: { l, v in l.spin = v }),
            AnimatableProperty("emitterPosition", value: { (l: EmitterLayer) in l.emitterPosition }, set: { l, v in l.emitterPosition = v }),
            AnimatableProperty("emitterZPosition", value: { (l: EmitterLayer) in l.emitterZPosition }, set: { l, v in l.emitterZPosition = v }),
            AnimatableProperty("emitterSize", value: { (l: EmitterLayer) in l.emitterSize }, set: { l, v in l.emitterSize = v }),
            AnimatableProperty("emitterDepth", value: { (l: EmitterLayer) in l.emitterDepth }, set: { l, v in l.emitterDepth = v }),
        ]
    }

    /// The cells' animatable values, under `emitterCells.<name>.<property>` (named cells only).
    override func addInstanceAnimatableValues(to extras: inout [String: AnimationValue]) {
        for cell in emitterCells ?? [] {
            guard let n = cell.name, !n.isEmpty else { continue }
            cell.addAnimatableValues(prefix: "emitterCells." + n + ".", to: &extras)
        }
    }

    /// The particles alive at `time` (the layer's local time): those born by then, each with the values in effect at
    /// its birth (the birth timeline below), at the cells' current clocks and looks.
    open override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        guard let cells = emitterCells, !cells.isEmpty else { return nil }
        let now = birthState(presentation: presentation)
        let (segments, states) = birthTimeline.withLock { t in
            t.update(self, to: time)
            return (t.segments, t.states)
        }
        var payload = ParticleSystem(settings: now.settings, cells: now.cells, segments: segments, states: states).payload(at: time)
        payload.preservesDepth = preservesDepth
        return payload
    }
}
