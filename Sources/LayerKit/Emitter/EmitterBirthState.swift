import LayerGraphics

/// The values a particle takes at its birth (SEMANTICS-LAYERS.md §7 "At birth"): the emitter layer's and its cells'
/// presentation values at one time. Particles keep the state they were born with, so a later change of the layer's
/// `birthRate`, `lifetime`, `velocity`… leaves the living particles as they are.
///
/// `@unchecked Sendable`: `cells` are private copies made for this state and never changed after it is made.
struct EmitterBirthState: @unchecked Sendable {
    var settings: EmitterSettings
    var cells: [EmitterCell]

    /// Births per second on each cell's clock: cell × layer birth rate, within 0…`ParticleSystem.maximumBirthRate`
    /// (NaN and infinities are 0).
    var rates: [Double] {
        let layerRate = settings.birthRate.isFinite ? settings.birthRate : 0
        return cells.map { c in
            let r = (c.birthRate.isFinite ? c.birthRate : 0) * layerRate
            return r > 0 ? min(r, ParticleSystem.maximumBirthRate) : 0
        }
    }

    /// Whether both states give every particle the same values (numbers compared bit for bit, images by identity).
    func hasSameValues(as other: EmitterBirthState) -> Bool {
        settings == other.settings && cells.count == other.cells.count
            && zip(cells, other.cells).allSatisfy { $0.hasSameValues(as: $1) }
    }
}

extension EmitterSettings: Equatable {
    static func == (a: Self, b: Self) -> Bool {
        let n: [(Self) -> Double] = [\.birthRate, \.lifetime, \.velocity, \.scale, \.spin, \.zPosition, \.depth,
                                     \.position.x, \.position.y, \.size.width, \.size.height]
        return n.allSatisfy { $0(a).bitPattern == $0(b).bitPattern } && a.shape == b.shape && a.mode == b.mode
            && a.renderMode == b.renderMode && a.seed == b.seed
    }
}

extension EmitterCell {
    /// Whether the two cells have the same values (numbers bit for bit, so NaN equals NaN), sub-cells included.
    func hasSameValues(as o: EmitterCell) -> Bool {
        guard name == o.name, isEnabled == o.isEnabled, color == o.color, contents === o.contents,
              contentsRect == o.contentsRect, contentsScale.bitPattern == o.contentsScale.bitPattern,
              minificationFilter == o.minificationFilter, magnificationFilter == o.magnificationFilter,
              Self.numberProperties.allSatisfy({ $0.get(self).bitPattern == $0.get(o).bitPattern }) else { return false }
        let mine = emitterCells ?? [], theirs = o.emitterCells ?? []
        return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.hasSameValues(as: $1) }
    }
}

extension EmitterLayer {
    /// The emitter's own key paths that animations change (the cells' are under `emitterCells.`).
    static let emitterKeys: Set<String> = ["birthRate", "lifetime", "velocity", "scale", "spin", "emitterPosition",
                                           "emitterZPosition", "emitterSize", "emitterDepth"]

    /// The birth values the model holds now (no animation applied).
    func modelBirthState() -> EmitterBirthState {
        EmitterBirthState(settings: EmitterSettings(layer: self), cells: (emitterCells ?? []).map { $0.copy() })
    }

    /// The birth values at `time` on the layer's clock: the model with the attached animations applied.
    func birthState(at time: Double) -> EmitterBirthState {
        birthState(presentation: presentation(at: time))
    }

    /// The birth values of a presentation: its animated values where it has them, else the model's.
    func birthState(presentation: LayerPresentation) -> EmitterBirthState {
        let x = presentation.extras
        func number(_ key: String, _ model: Double) -> Double { if case .number(let v)? = x[key] { v } else { model } }
        var settings = EmitterSettings(layer: self)
        settings.birthRate = number("birthRate", birthRate)
        settings.lifetime = number("lifetime", lifetime)
        settings.velocity = number("velocity", velocity)
        settings.scale = number("scale", scale)
        settings.spin = number("spin", spin)
        settings.zPosition = number("emitterZPosition", emitterZPosition)
        settings.depth = number("emitterDepth", emitterDepth)
        if case .point(let p)? = x["emitterPosition"] { settings.position = p }
        if case .size(let s)? = x["emitterSize"] { settings.size = s }
        let cells = (emitterCells ?? []).map { cell -> EmitterCell in
            let c = cell.copy()
            if let n = c.name, !n.isEmpty { c.applyAnimatableValues(prefix: "emitterCells." + n + ".", from: x) }
            return c
        }
        return EmitterBirthState(settings: settings, cells: cells)
    }

    /// The attached animations that change birth values, with the span of layer time over which they vary: before
    /// `beginTime` and after the active span an animation holds one value (its fill or none), so only the span needs
    /// sampling.
    func birthAnimations() -> [(animation: Animation, begin: Double, end: Double)] {
        func touches(_ a: Animation) -> Bool {
            if let p = a as? PropertyAnimation {
                let head = p.keyPath.split(separator: ".", maxSplits: 1).first.map(String.init) ?? p.keyPath
                return head == "emitterCells" || Self.emitterKeys.contains(head)
            }
            if let g = a as? AnimationGroup { return (g.animations ?? []).contains(where: touches) }
            return false
        }
        return animationEntries.compactMap { entry in
            let a = entry.animation
            guard touches(a) else { return nil }
            let b = a.timing.beginTime, d = a.timing.activeDuration
            guard b.isFinite, d > 0 else { return nil }
            return (a, b, b + d)
        }
    }
}
