import LayerGraphics

/// One live particle at the snapshot's time, in the emitter layer's space (SEMANTICS-LAYERS.md §7 "At age a").
public struct EmitterParticle: Sendable, Equatable {
    /// The centre, in the layer's space (z orders `.backToFront`; it places the particle only with `preservesDepth`).
    public var x, y, z: Double
    /// The turn in radians (clockwise on screen) and the size factor of the cell's image (layer's `scale` included).
    public var angle: Double
    /// The size factor of the cell's image (the layer's `scale` included).
    public var scale: Double
    /// The tint, straight components within 0…1: the image's premultiplied pixels are multiplied by (r·a, g·a, b·a, a).
    public var color: Color
    /// Which of the payload's `cells` drew it, its birth index in that cell, and its age in seconds.
    public var cell: Int
    /// Its birth index in that cell.
    public var index: Int
    /// Its age in seconds.
    public var age: Double
}

/// How one cell's particles look: its image and how it is sampled.
public struct EmitterCellLook: Sendable, Equatable {
    /// The cell's image; nil draws nothing.
    public let contents: Image?
    /// The part of the image drawn, in unit coordinates.
    public let contentsRect: Rect
    /// Image pixels per point (positive and finite).
    public let contentsScale: Double
    /// The filter used when the image is drawn smaller than its pixels.
    public let minificationFilter: ContentsFilter
    /// The filter used when the image is drawn bigger than its pixels.
    public let magnificationFilter: ContentsFilter
    /// Shifts the level of detail that trilinear minification picks.
    public let minificationFilterBias: Double

    public static func == (a: Self, b: Self) -> Bool {
        a.contents === b.contents && a.contentsRect == b.contentsRect && a.contentsScale == b.contentsScale
            && a.minificationFilter == b.minificationFilter && a.magnificationFilter == b.magnificationFilter
            && a.minificationFilterBias == b.minificationFilterBias
    }
}

/// An emitter layer's particles at the snapshot's time, in painting order, and the looks of its cells.
public struct EmitterPayload: LayerPayload, Equatable {
    /// Painting order (`renderMode`'s): the first is painted first.
    public let particles: [EmitterParticle]
    /// The looks of the layer's cells, indexed by `EmitterParticle.cell`.
    public let cells: [EmitterCellLook]
    /// Whether particles are added (`.additive`) rather than painted over each other.
    public let isAdditive: Bool
    /// `EmitterLayer.preservesDepth`: each particle sits at its z in the layer's 3D space (before the superlayer
    /// flattens it), and the particles are painted back to front by depth (additive ones in any order).
    public internal(set) var preservesDepth = false
    /// Whether births were skipped because `EmitterLayer.maximumParticleCount` (or the per-snapshot budget of
    /// candidate births, four times as many) was reached.
    public let isCapped: Bool
}
