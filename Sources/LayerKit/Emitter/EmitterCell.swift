import LayerGraphics

/// One kind of particle an `EmitterLayer` emits (Core Animation's CAEmitterCell; SEMANTICS-LAYERS.md §7): how many
/// are born a second, how long they live, how they leave the emitter and how their size, turn and colour change.
///
/// A value with a range (`velocity` and `velocityRange`…) is drawn per particle uniformly from
/// [value − range/2, value + range/2]. Every property but `name`, `isEnabled`, `contentsScale` and the filters
/// animates on the emitter layer under `emitterCells.<name>.<property>` (a cell needs a `name` for that; a
/// sub-cell's key repeats the pattern: `emitterCells.fire.emitterCells.smoke.birthRate`).
///
/// A class, as Core Animation's: the layer reads its cells' current values at each snapshot (on the model's thread,
/// like the layer itself; the snapshot keeps only values).
public final class EmitterCell {
    /// The key-path component that names the cell in animations.
    public var name: String?
    /// A disabled cell emits nothing (its living particles vanish with it).
    public var isEnabled = true

    /// Particles born per second (times the layer's `birthRate`); 0 emits none.
    public var birthRate = 0.0
    /// Seconds a particle lives (times the layer's `lifetime`), and its spread.
    public var lifetime = 0.0, lifetimeRange = 0.0
    /// Emission direction in radians: longitude from +x towards +y (clockwise on screen; −π/2 is up), latitude
    /// tilting towards +z, and the spread of the longitude.
    public var emissionLongitude = 0.0, emissionLatitude = 0.0, emissionRange = 0.0
    /// Speed in points a second (times the layer's `velocity`), and its spread.
    public var velocity = 0.0, velocityRange = 0.0
    /// Acceleration in points per second² (positive y falls: y grows downwards).
    public var xAcceleration = 0.0, yAcceleration = 0.0, zAcceleration = 0.0
    /// Size factor of the image at birth, its spread, and its change per second.
    public var scale = 1.0, scaleRange = 0.0, scaleSpeed = 0.0
    /// Turn in radians a second (times the layer's `spin`), and its spread.
    public var spin = 0.0, spinRange = 0.0
    /// The tint at birth (straight components; nil draws as opaque white).
    public var color: Color? = .white
    /// Per-component spreads of the tint at birth.
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    /// Per-component change of the tint a second (`alphaSpeed` −0.4 fades a particle out in 2.5 s).
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0

    /// The particle's image; nil draws nothing (the particles still live, and their sub-cells would emit).
    public var contents: Image?
    /// The part of `contents` drawn, in unit coordinates of the image.
    public var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point: a particle's natural size is the image's (`contentsRect` part) over this.
    public var contentsScale = 1.0
    /// How the image is sampled when drawn smaller or larger than its pixels. Minifying uses the image's mipmaps
    /// unless the filter is `.nearest`; `minificationFilterBias` shifts the mipmap level.
    public var minificationFilter: ContentsFilter = .linear
    /// The filter used when the image is drawn bigger than its pixels.
    public var magnificationFilter: ContentsFilter = .linear
    /// Shifts the mipmap level that minification picks (positive: blurrier).
    public var minificationFilterBias = 0.0

    /// Cells each particle of this one emits (SEMANTICS-LAYERS.md §7 "Sub-cells"; not drawn yet: their key paths
    /// animate, their particles are a later phase).
    public var emitterCells: [EmitterCell]?

    /// The cell's own clock relative to the layer's (CAMediaTiming): it emits while its local time
    /// `(τ − beginTime)·speed + timeOffset` lies in [0, duration) (duration 0: for ever).
    public var beginTime = 0.0, duration = 0.0, speed = 1.0, timeOffset = 0.0

    /// A cell that emits nothing (birth rate 0) until it is set up, as CAEmitterCell.
    public init() {}
}

extension EmitterCell {
    /// The animatable properties, as (key, read, write): the one list that key paths, presentation and snapshot use.
    static let numberProperties: [(key: String, get: @Sendable (EmitterCell) -> Double, set: @Sendable (EmitterCell, Double) -> Void)] = [
        ("birthRate", { $0.birthRate }, { $0.birthRate = $1 }),
        ("lifetime", { $0.lifetime }, { $0.lifetime = $1 }),
        ("lifetimeRange", { $0.lifetimeRange }, { $0.lifetimeRange = $1 }),
        ("emissionLongitude", { $0.emissionLongitude }, { $0.emissionLongitude = $1 }),
        ("emissionLatitude", { $0.emissionLatitude }, { $0.emissionLatitude = $1 }),
        ("emissionRange", { $0.emissionRange }, { $0.emissionRange = $1 }),
        ("velocity", { $0.velocity }, { $0.velocity = $1 }),
        ("velocityRange", { $0.velocityRange }, { $0.velocityRange = $1 }),
        ("xAcceleration", { $0.xAcceleration }, { $0.xAcceleration = $1 }),
        ("yAcceleration", { $0.yAcceleration }, { $0.yAcceleration = $1 }),
        ("zAcceleration", { $0.zAcceleration }, { $0.zAcceleration = $1 }),
        ("scale", { $0.scale }, { $0.scale = $1 }),
        ("scaleRange", { $0.scaleRange }, { $0.scaleRange = $1 }),
        ("scaleSpeed", { $0.scaleSpeed }, { $0.scaleSpeed = $1 }),
        ("spin", { $0.spin }, { $0.spin = $1 }),
        ("spinRange", { $0.spinRange }, { $0.spinRange = $1 }),
        ("redRange", { $0.redRange }, { $0.redRange = $1 }),
        ("greenRange", { $0.greenRange }, { $0.greenRange = $1 }),
        ("blueRange", { $0.blueRange }, { $0.blueRange = $1 }),
        ("alphaRange", { $0.alphaRange }, { $0.alphaRange = $1 }),
        ("redSpeed", { $0.redSpeed }, { $0.redSpeed = $1 }),
        ("greenSpeed", { $0.greenSpeed }, { $0.greenSpeed = $1 }),
        ("blueSpeed", { $0.blueSpeed }, { $0.blueSpeed = $1 }),
        ("alphaSpeed", { $0.alphaSpeed }, { $0.alphaSpeed = $1 }),
        ("beginTime", { $0.beginTime }, { $0.beginTime = $1 }),
        ("duration", { $0.duration }, { $0.duration = $1 }),
        ("speed", { $0.speed }, { $0.speed = $1 }),
        ("timeOffset", { $0.timeOffset }, { $0.timeOffset = $1 }),
        ("minificationFilterBias", { $0.minificationFilterBias }, { $0.minificationFilterBias = $1 }),
    ]

    /// A copy of the cell's values (sub-cells copied too), so a snapshot can hold presentation values apart
    /// from the model's.
    func copy() -> EmitterCell {
        let c = EmitterCell()
        c.name = name; c.isEnabled = isEnabled
        for p in Self.numberProperties { p.set(c, p.get(self)) }
        c.color = color; c.contents = contents; c.contentsRect = contentsRect; c.contentsScale = contentsScale
        c.minificationFilter = minificationFilter; c.magnificationFilter = magnificationFilter
        c.emitterCells = emitterCells?.map { $0.copy() }
        return c
    }

    /// Adds this cell's animatable values under `prefix` (`emitterCells.<name>.`), and its sub-cells'.
    func addAnimatableValues(prefix: String, to extras: inout [String: AnimationValue]) {
        for p in Self.numberProperties { extras[prefix + p.key] = .number(p.get(self)) }
        extras[prefix + "color"] = .color(color ?? .white)
        extras[prefix + "contentsRect"] = .rect(contentsRect)
        extras[prefix + "contents"] = .contents(contents.map { .image($0) })
        for sub in emitterCells ?? [] {
            guard let n = sub.name, !n.isEmpty else { continue }
            sub.addAnimatableValues(prefix: prefix + "emitterCells." + n + ".", to: &extras)
        }
    }

    /// Takes the animatable values found under `prefix` in `extras` (a copy's: the model is never written).
    func applyAnimatableValues(prefix: String, from extras: [String: AnimationValue]) {
        for p in Self.numberProperties {
            if case .number(let v)? = extras[prefix + p.key] { p.set(self, v) }
        }
        if case .color(let c)? = extras[prefix + "color"] { color = c }
        if case .rect(let r)? = extras[prefix + "contentsRect"] { contentsRect = r }
        if case .contents(let c)? = extras[prefix + "contents"] {
            if case .image(let i)? = c { contents = i } else if c == nil { contents = nil }
        }
        for sub in emitterCells ?? [] {
            guard let n = sub.name, !n.isEmpty else { continue }
            sub.applyAnimatableValues(prefix: prefix + "emitterCells." + n + ".", from: extras)
        }
    }
}
