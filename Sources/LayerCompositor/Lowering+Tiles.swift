import Foundation
import LayerGraphics
import LayerKit

/// A tiled layer's tiles (SEMANTICS-LAYERS.md §6): the level the on-screen scale needs, the tiles of that level
/// meeting the visible part of the bounds, drawn (when missing or stale) before the frame is composited — the
/// deterministic behaviour of §0.7 — and placed as contents are, one bilinear image per tile, above the background.
extension Lowering {
    /// The most tiles one layer draws in a frame: beyond this the level goes coarser than `levelsOfDetail` allows
    /// (a layer zoomed far out, with too few levels, would otherwise draw thousands of tiles).
    static let maxTilesPerFrame = 1024

    /// The draws of `layer`'s visible tiles, when it is a tiled layer showing any.
    func tiledOps(_ layer: LayerSnapshot, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape]) -> [DrawOp] {
        // Contents set directly make it a plain layer (§6, from the header): they show, no tile is drawn.
        guard let payload = layer.payload as? TiledPayload, payload.drawTile != nil, layer.contents == nil else { return [] }
        let b = layer.bounds.standardized
        guard b.width > 0, b.height > 0, b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite,
              let visible = visibleRect(of: b, h: h, planes: planes, toLocal: toLocal, clips: clips) else { return [] }
        var level = Self.tileLevel(contentsScale: payload.contentsScale, screenScale: Self.screenScale(over: visible, h: h),
                                   levels: payload.levels, bounds: b.size)
        let cap = min(Self.maxTilesPerFrame, tileCache.tileLimit)
        var grid = TileGrid(payload: payload, level: level)
        while grid.count(over: visible) > Double(cap) && level < 62 {
            level += 1
            grid = TileGrid(payload: payload, level: level)
        }
        let requests = grid.requests(over: visible, bounds: b)
        if requests.isEmpty { return [] }
        let tiling = TileCache.Tiling(tileSize: payload.tileSize, contentsScale: payload.contentsScale, boundsSize: b.size)
        if case .background = tileCache.drawing {
            return backgroundTiledOps(layer, payload: payload, grid: grid, visible: visible, requests: requests, tiling: tiling,
                                      h: h, planes: planes, toLocal: toLocal, clips: clips)
        }
        let tiles = tileCache.tiles(layerID: layer.layerID, payload: payload, tiling: tiling, requests: requests, executor: executor)
        let shape = roundedShape(of: layer)
        // One image of the frame's tiles when it is not too large: bilinear sampling then reads the true neighbour
        // across a tile edge and no antialiased edge falls between two tiles, so nothing seams (§6, "no seam").
        if let mosaic = Self.mosaic(of: tiles, tileSize: payload.tileSize) {
            return ops(for: mosaic.image, covering: mosaic.cell, scale: tiles[0].scale, area: mosaic.cell.intersection(b), layer, shape: shape,
                       h: h, planes: planes, toLocal: toLocal, clips: clips)
        }
        return tiles.flatMap { tile in
            ops(for: tile.image, covering: tile.cell, scale: tile.scale, area: tile.rect, layer, shape: shape,
                h: h, planes: planes, toLocal: toLocal, clips: clips)
        }
    }

    /// The most pixels a frame's mosaic of tiles has (64 MB); beyond it each tile is drawn on its own.
    static let maxMosaicPixels = 4096 * 4096

    /// `image`, which covers `cell` (layer points) at `scale` pixels per point, drawn over `area` as contents are.
    /// `opacity` < 1: a tile fading in, in a window.
    func ops(for image: Image, covering cell: Rect, scale: Double, area: Rect, _ layer: LayerSnapshot, shape: RoundedRect,
             h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape], opacity: Float = 1) -> [DrawOp] {
        guard !area.isNull, area.width > 0, area.height > 0, let placement = place(area, h, planes, toLocal, clips) else { return [] }
        let draw = ContentsDraw(sampler: SamplerChoice(.image(image), nearest: false), rect: plainShape(area),
                                map: ContentsMap(rect: cell, source: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                                                 center: Rect(x: 0, y: 0, width: 1, height: 1), contentsScale: scale),
                                clippedToShape: layer.masksToBounds, isOpaque: false, owner: image)
        return [.body(BodyDraw(placement: placement, shape: shape, background: nil, contents: draw, border: nil, opacity: opacity))]
    }

    /// The tiles (a full block of columns × rows of one level, each `tileSize` pixels) copied into one image, with
    /// the layer-space rect it covers; nil when there is one tile only or the image would be too large.
    static func mosaic(of tiles: [TileCache.Tile], tileSize: Size) -> (image: Image, cell: Rect)? {
        guard tiles.count > 1 else { return nil }
        let tw = Int(tileSize.width), th = Int(tileSize.height)
        let c0 = tiles.map(\.key.column).min()!, c1 = tiles.map(\.key.column).max()!
        let r0 = tiles.map(\.key.row).min()!, r1 = tiles.map(\.key.row).max()!
        let width = (c1 - c0 + 1) * tw, height = (r1 - r0 + 1) * th
        guard tiles.allSatisfy({ $0.image.width == tw && $0.image.height == th }),
              (c1 - c0 + 1) * (r1 - r0 + 1) == tiles.count, width * height <= maxMosaicPixels else { return nil }
        let image = Image(width: width, height: height) { out in
            for tile in tiles {
                let x0 = (tile.key.column - c0) * tw, y0 = (tile.key.row - r0) * th
                tile.image.withUnsafePixels { src in
                    for y in 0..<th {
                        UnsafeMutableRawPointer(out.baseAddress! + (y0 + y) * width + x0)
                            .copyMemory(from: src.baseAddress! + y * tw, byteCount: tw * 4)
                    }
                }
            }
        }
        let first = tiles.first { $0.key.column == c0 && $0.key.row == r0 }?.cell ?? tiles[0].cell
        return (image, Rect(x: first.minX, y: first.minY, width: first.width * Double(c1 - c0 + 1), height: first.height * Double(r1 - r0 + 1)))
    }

    /// §6's level: with s the screen's pixels per point, the coarsest level at least as sharp as the screen,
    /// ⌊log₂(contentsScale / s)⌋, clamped to `levels` and to levels whose image of `bounds` has ≥ 1 pixel each way.
    static func tileLevel(contentsScale: Double, screenScale s: Double, levels: ClosedRange<Int>, bounds: Size) -> Int {
        var hi = levels.upperBound
        let side = min(bounds.width, bounds.height) * contentsScale
        if side.isFinite, side >= 1 { hi = min(hi, max(levels.lowerBound, Int(log2(side).rounded(.down)))) }
        else { hi = levels.lowerBound }
        guard s.isFinite, s > 0 else { return hi }
        let wanted = log2(contentsScale / s).rounded(.down)
        guard wanted.isFinite else { return wanted > 0 ? hi : levels.lowerBound }
        return Int(min(max(wanted, Double(levels.lowerBound)), Double(hi)))
    }

    /// The largest on-screen length of a one-point step along x or y at the corners of `rect` (layer space) through
    /// `h` (corners behind the eye do not count; none in front: 0).
    static func screenScale(over rect: Rect, h: Homography) -> Double {
        var longest = 0.0
        for (u, v) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            let p = h.apply(u, v)
            guard p.w > 1e-9 else { continue }
            let w2 = p.w * p.w
            // The Jacobian of (X/W, Y/W): its columns are the images of a step along u and along v.
            let xu = (h.m11 * p.w - p.x * h.m13) / w2, yu = (h.m12 * p.w - p.y * h.m13) / w2
            let xv = (h.m21 * p.w - p.x * h.m23) / w2, yv = (h.m22 * p.w - p.y * h.m23) / w2
            let step = max((xu * xu + yu * yu).squareRoot(), (xv * xv + yv * yv).squareRoot())
            if step.isFinite { longest = max(longest, step) }
        }
        return longest
    }

    /// The part of `bounds` that can reach the target (viewport and clips), as a box in layer space; nil: none.
    /// Under a perspective that puts a corner of the visible pixels behind the eye, the whole bounds count.
    func visibleRect(of bounds: Rect, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape]) -> Rect? {
        guard let placement = place(bounds, h, planes, toLocal, clips), let back = h.inverted() else { return nil }
        let px = placement.bounds
        var box = Rect.null
        for (x, y) in [(px.x0, px.y0), (px.x1, px.y0), (px.x0, px.y1), (px.x1, px.y1)] {
            let p = back.apply(Double(x), Double(y))
            guard p.w > 1e-12, (p.x / p.w).isFinite, (p.y / p.w).isFinite else { return bounds }
            box = box.union(Rect(x: p.x / p.w, y: p.y / p.w, width: 0, height: 0))
        }
        let r = box.intersection(bounds)
        return r.isNull || r.width <= 0 || r.height <= 0 ? nil : r
    }
}

/// The tiles of one level: tile (i, j) covers [i·w, (i+1)·w) × [j·h, (j+1)·h) in layer points, anchored at (0, 0).
struct TileGrid {
    let level: Int
    /// Pixels per point at this level.
    let scale: Double
    /// A tile's size in points.
    let width: Double
    let height: Double

    init(payload: TiledPayload, level: Int) {
        self.level = level
        scale = payload.contentsScale * pow(2, -Double(level))
        width = payload.tileSize.width / scale
        height = payload.tileSize.height / scale
    }

    /// Columns and rows meeting `rect` (half-open, so a rect ending on a tile edge does not take the next tile).
    func span(_ rect: Rect) -> (columns: (Double, Double), rows: (Double, Double)) {
        let c0 = (rect.minX / width).rounded(.down), c1 = (rect.maxX / width).rounded(.up) - 1
        let r0 = (rect.minY / height).rounded(.down), r1 = (rect.maxY / height).rounded(.up) - 1
        return ((c0, max(c0, c1)), (r0, max(r0, r1)))
    }

    /// How many tiles meet `rect` (a Double: it may be astronomically many before the level is raised).
    func count(over rect: Rect) -> Double {
        let s = span(rect)
        let n = (s.columns.1 - s.columns.0 + 1) * (s.rows.1 - s.rows.0 + 1)
        return n.isFinite ? n : .infinity
    }

    /// The requests of the tiles meeting `visible`, each clipped to `bounds`; empty when the indices are absurd.
    func requests(over visible: Rect, bounds: Rect) -> [TileRequest] {
        let s = span(visible)
        let limit = Double(Int32.max)
        guard scale.isFinite, scale > 0, [s.columns.0, s.columns.1, s.rows.0, s.rows.1].allSatisfy({ abs($0) < limit }) else { return [] }
        var out: [TileRequest] = []
        for j in Int(s.rows.0)...Int(s.rows.1) {
            for i in Int(s.columns.0)...Int(s.columns.1) {
                let tile = Rect(x: Double(i) * width, y: Double(j) * height, width: width, height: height).intersection(bounds)
                guard !tile.isNull, tile.width > 0, tile.height > 0 else { continue }
                out.append(TileRequest(rect: tile, column: i, row: j, level: level, scale: scale))
            }
        }
        return out
    }
}
