import LayerGraphics
import LayerKit

/// A tiled layer in a window (`TileDrawing.background`, SEMANTICS-LAYERS.md §6): what is ready shows, stand-ins from
/// other levels beneath what is not, and the missing tiles are queued — visible ones first, nearest the middle of
/// the view first, then a one-tile margin around it. Once every visible tile is in, the ops are the synchronous ones.
extension Lowering {
    func backgroundTiledOps(_ layer: LayerSnapshot, payload: TiledPayload, grid: TileGrid, visible: Rect, requests: [TileRequest],
                            tiling: TileCache.Tiling, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape]) -> [DrawOp] {
        let b = layer.bounds.standardized
        let middle = Point(x: visible.midX, y: visible.midY)
        func distance(_ r: TileRequest) -> Double {
            let dx = r.rect.midX - middle.x, dy = r.rect.midY - middle.y
            return dx * dx + dy * dy
        }
        let around = Rect(x: visible.minX - grid.width, y: visible.minY - grid.height,
                          width: visible.width + 2 * grid.width, height: visible.height + 2 * grid.height)
        let shown = Set(requests.map { [$0.column, $0.row] })
        let margin = grid.requests(over: around, bounds: b).filter { !shown.contains([$0.column, $0.row]) }
        let frame = tileCache.backgroundTiles(layerID: layer.layerID, payload: payload, tiling: tiling,
                                              visible: requests.sorted { distance($0) < distance($1) },
                                              margin: margin.sorted { distance($0) < distance($1) }, levels: payload.levels)
        let shape = roundedShape(of: layer)
        if frame.isComplete {
            // The synchronous path's ops exactly: one mosaic when it can be made, else a quad per tile.
            let tiles = frame.shown.map { $0.tile }
            if let mosaic = Self.mosaic(of: tiles, tileSize: payload.tileSize) {
                return ops(for: mosaic.image, covering: mosaic.cell, scale: tiles[0].scale, area: mosaic.cell.intersection(b), layer,
                           shape: shape, h: h, planes: planes, toLocal: toLocal, clips: clips)
            }
        }
        var out: [DrawOp] = []
        for (tile, area) in frame.standIns {
            out += ops(for: tile.image, covering: tile.cell, scale: tile.scale, area: area, layer, shape: shape,
                       h: h, planes: planes, toLocal: toLocal, clips: clips)
        }
        for (tile, opacity) in frame.shown {
            out += ops(for: tile.image, covering: tile.cell, scale: tile.scale, area: tile.rect, layer, shape: shape,
                       h: h, planes: planes, toLocal: toLocal, clips: clips, opacity: Float(opacity))
        }
        return out
    }
}
