import LayerGraphics

/// A layer whose content is drawn in tiles, on demand, only where it shows, at the level of detail the on-screen
/// scale needs (CATiledLayer; SEMANTICS-LAYERS.md §6).
///
/// The app draws a tile through `drawTile`, a `@Sendable` closure: the compositor calls it (possibly on other
/// threads, several tiles at once) with a context whose user space is layer points, clipped to the tile, and the
/// tile's `TileRequest`. The snapshot carries the closure and the invalidation state, never the layer.
/// `setNeedsDisplay()` makes every tile stale, `setNeedsDisplay(in:)` those meeting a rect; stale tiles are drawn
/// again the next time they are needed. Setting `contents` has no effect on what is shown: the tiles are the content.
open class TiledLayer: Layer {
    /// How long a newly drawn tile fades in, in a window (seconds); exports draw every tile before the frame.
    open class var fadeDuration: Double { 0.25 }

    /// A tile's size in **pixels** (at level 0 with `contentsScale` 1 that is points). Sides that are not finite
    /// are 256; others are clamped to [`minTileSide`, `maxTileSide`].
    public var tileSize = Size(width: 256, height: 256) { didSet { invalidateAll() } }
    /// How many levels of detail exist (each half the resolution of the one before); clamped to [1, `maxLevels`].
    public var levelsOfDetail = 1 { didSet { invalidateAll() } }
    /// How many of `levelsOfDetail` magnify (finer than `contentsScale`); clamped to [0, levelsOfDetail − 1].
    public var levelsOfDetailBias = 0 { didSet { invalidateAll() } }
    /// Draws one tile: the context's user space is layer points, clipped to `request.rect`. nil draws nothing.
    public var drawTile: (@Sendable (DrawingContext, TileRequest) -> Void)? = nil { didSet { invalidateAll() } }

    /// The smallest tile side in pixels a tile size is clamped to.
    public static let minTileSide = 16.0
    /// The largest tile side in pixels a tile size is clamped to.
    public static let maxTileSide = 2048.0
    /// 2^−31 of `contentsScale` is far below a pixel for any layer that can be drawn; more levels mean nothing.
    public static let maxLevels = 32
    /// Partial invalidations kept in the snapshot; beyond this they merge into one invalidation of everything.
    static let maxDirtyRects = 64

    /// Bumped on each invalidation; a tile drawn at generation g is stale when a later one covers it.
    private var generation: UInt64 = 1
    private var wholeInvalidation: UInt64 = 1
    private var dirtyRects: [TiledPayload.DirtyRect] = []

    /// Marks the tiles meeting `rect` (layer points) stale, at every level.
    public func setNeedsDisplay(in rect: Rect) {
        let r = rect.standardized
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { invalidateAll(); return }
        generation += 1
        dirtyRects.append(TiledPayload.DirtyRect(generation: generation, rect: r))
        if dirtyRects.count > Self.maxDirtyRects { invalidateAll() }
    }

    /// Core Animation's spelling, `setNeedsDisplay(_:)` on every layer: here it marks only the tiles meeting `rect`,
    /// as `setNeedsDisplay(in:)` does (no `display()` runs).
    override open func setNeedsDisplay(_ rect: Rect) { setNeedsDisplay(in: rect) }

    /// `setNeedsDisplay()` lands here at the next snapshot: instead of drawing contents, every tile turns stale.
    override open func display() { invalidateAll() }

    private func invalidateAll() {
        generation += 1
        wholeInvalidation = generation
        dirtyRects.removeAll()
    }

    override open func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        TiledPayload(tileSize: tileSize, levelsOfDetail: levelsOfDetail, levelsOfDetailBias: levelsOfDetailBias,
                     contentsScale: contentsScale, generation: generation, wholeInvalidation: wholeInvalidation,
                     dirtyRects: dirtyRects, fadeDuration: Self.fadeDuration, drawTile: drawTile)
    }
}

/// One tile to draw: where it is, in layer points (already clipped to the bounds), and at what detail.
public struct TileRequest: Sendable, Equatable {
    /// The tile ∩ the layer's bounds, in layer points: the context's clip.
    public let rect: Rect
    /// The tile's column in the level's grid (anchored at the bounds' origin).
    public let column: Int
    /// The tile's row in the level's grid.
    public let row: Int
    /// The level: 0 is `contentsScale`, each step up halves the pixels per point, negative levels magnify.
    public let level: Int
    /// Pixels per point of this level (`contentsScale · 2^−level`): the context's current scale.
    public let scale: Double

    /// A request for the tile at `column`, `row` of `level`, covering `rect` at `scale` pixels per point.
    public init(rect: Rect, column: Int, row: Int, level: Int, scale: Double) {
        self.rect = rect
        self.column = column
        self.row = row
        self.level = level
        self.scale = scale
    }
}

/// What a tiled layer's snapshot carries: its tiling, clamped to sane values, the draw closure, and which tiles
/// were invalidated since when (generations), so that the compositor's cache knows what to draw again.
public struct TiledPayload: LayerPayload {
    /// A part of the layer invalidated by `setNeedsDisplay(in:)`, and when.
    public struct DirtyRect: Sendable, Equatable {
        /// The invalidation's generation: tiles drawn before it are stale where they meet `rect`.
        public let generation: UInt64
        /// The invalidated part, in layer points.
        public let rect: Rect
    }
    /// Pixels, each side in [TiledLayer.minTileSide, maxTileSide].
    public let tileSize: Size
    /// The levels that exist before the "≥ 1 pixel" clamp: −bias … levelsOfDetail − 1 − bias.
    public let levels: ClosedRange<Int>
    /// Finite and positive (else 1).
    public let contentsScale: Double
    /// The layer's latest invalidation (tiles remember the generation they were drawn at).
    public let generation: UInt64
    /// Tiles drawn before this generation are all stale.
    public let wholeInvalidation: UInt64
    /// The partial invalidations since the last whole one.
    public let dirtyRects: [DirtyRect]
    /// Seconds a newly drawn tile fades in over in a window (the class's `fadeDuration`).
    public let fadeDuration: Double
    /// The layer's tile drawing.
    public let drawTile: (@Sendable (DrawingContext, TileRequest) -> Void)?

    /// A payload of the given tiling, clamped to sane values.
    public init(tileSize: Size, levelsOfDetail: Int, levelsOfDetailBias: Int, contentsScale: Double, generation: UInt64,
                wholeInvalidation: UInt64, dirtyRects: [DirtyRect], fadeDuration: Double,
                drawTile: (@Sendable (DrawingContext, TileRequest) -> Void)?) {
        func side(_ v: Double) -> Double {
            v.isFinite ? min(max(v, TiledLayer.minTileSide), TiledLayer.maxTileSide).rounded() : 256
        }
        self.tileSize = Size(width: side(tileSize.width), height: side(tileSize.height))
        let count = min(max(levelsOfDetail, 1), TiledLayer.maxLevels)
        let bias = min(max(levelsOfDetailBias, 0), count - 1)
        levels = -bias...(count - 1 - bias)
        self.contentsScale = contentsScale.isFinite && contentsScale > 0 ? min(contentsScale, 64) : 1
        self.generation = generation
        self.wholeInvalidation = wholeInvalidation
        self.dirtyRects = dirtyRects
        self.fadeDuration = fadeDuration.isFinite ? max(fadeDuration, 0) : 0
        self.drawTile = drawTile
    }

    /// Whether a tile over `rect` drawn at generation `drawn` must be drawn again.
    public func isStale(_ rect: Rect, drawnAt drawn: UInt64) -> Bool {
        if drawn < wholeInvalidation { return true }
        return dirtyRects.contains { $0.generation > drawn && $0.rect.intersects(rect) }
    }

    /// Closures cannot be compared: two payloads are equal when their tiling and generation are (the closure's
    /// setter bumps the generation).
    public func isEqual(to other: any LayerPayload) -> Bool {
        guard let o = other as? TiledPayload else { return false }
        return o.tileSize == tileSize && o.levels == levels && o.contentsScale == contentsScale && o.generation == generation
    }
}
