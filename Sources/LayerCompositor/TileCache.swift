import Foundation
import LayerGraphics
import LayerKit

/// Tiled layers' drawn tiles (SEMANTICS-LAYERS.md §6, "Invalidation and memory"), keyed by layer, level, column and
/// row, kept across frames by a compositor. Bounded by `tileLimit` tiles and `byteLimit` bytes (defaults: 1024 tiles,
/// 256 MiB — 1024 tiles of 256² pixels); beyond either the least recently used tiles go, except those the frame being
/// lowered needs. A tile is drawn again when stale (invalidated after it was drawn) or when the layer's tiling
/// (tile size, scale, bounds size) changed, which drops all its tiles. Safe to use from several renders at once.
final class TileCache: @unchecked Sendable {
    struct Key: Hashable {
        let layerID: UInt64
        let level: Int
        let column: Int
        let row: Int
    }
    /// What all of a layer's tiles depend on: a change drops them all.
    struct Tiling: Equatable {
        let tileSize: Size
        let contentsScale: Double
        let boundsSize: Size
    }
    struct Tile {
        let key: Key
        /// The tile ∩ bounds in layer points: what was drawn (the clip).
        let rect: Rect
        /// The whole grid cell in layer points: what the image covers, `tileSize` pixels, so that the tiles of a
        /// level butt pixel to pixel (outside `rect` it is transparent).
        let cell: Rect
        let scale: Double
        let image: Image
    }
    struct Entry {
        let tile: Tile
        let generation: UInt64
        var lastUse: UInt64
        /// In a window, when a tile that had no older version arrived (display clock), and how long it fades in.
        var fadeStart: Double? = nil
        var fadeDuration = 0.0
        /// In a window, the last frame (`TileCache.frame`) that used the tile or asked for it: what `endFrame` keeps.
        var frameUsed: UInt64 = 0
        var bytes: Int { tile.image.width * tile.image.height * 4 }
        /// How opaque the tile shows at `now`: 0 → 1 linearly over the fade, 1 without one.
        func opacity(at now: Double) -> Double {
            guard let fadeStart, fadeDuration > 0 else { return 1 }
            let t = (now - fadeStart) / fadeDuration
            return t.isFinite ? min(max(t, 0), 1) : 1
        }
    }

    let tileLimit: Int
    let byteLimit: Int
    /// How tiles are drawn: before the frame (exports, stills) or on worker threads (a window).
    let drawing: TileDrawing
    let lock = NSLock()
    var entries: [Key: Entry] = [:]
    var tilings: [UInt64: Tiling] = [:]
    var clock: UInt64 = 0
    var bytes = 0
    var drawCount = 0
    /// Window mode: the tiles waiting for a worker, most needed first; the keys being drawn; busy workers.
    var queue: [TileJob] = []
    var inFlight: Set<Key> = []
    var running = 0
    /// Window mode: the number of the frame being lowered (`endFrame` moves it on).
    var frame: UInt64 = 1

    init(tileLimit: Int = 1024, byteLimit: Int = 256 << 20, drawing: TileDrawing = .synchronous) {
        self.tileLimit = max(1, tileLimit)
        self.byteLimit = max(1, byteLimit)
        self.drawing = drawing
    }

    /// Tiles drawn so far (what the tests count: only missing or stale visible tiles are drawn).
    var draws: Int { lock.withLock { drawCount } }
    /// Tiles kept now, and their bytes.
    var count: Int { lock.withLock { entries.count } }
    var byteCount: Int { lock.withLock { bytes } }
    /// The keys kept now.
    var keys: Set<Key> { lock.withLock { Set(entries.keys) } }

    /// The images of `requests` (all of one layer, one frame), drawing in parallel those missing or stale, then
    /// evicting least recently used tiles beyond the bounds — never one of these.
    func tiles(layerID: UInt64, payload: TiledPayload, tiling: Tiling, requests: [TileRequest], executor: Executor) -> [Tile] {
        var result = [Tile?](repeating: nil, count: requests.count)
        var missing: [Int] = []
        lock.withLock {
            if tilings[layerID] != tiling {
                for (k, e) in entries where k.layerID == layerID { bytes -= e.bytes; entries[k] = nil }
                tilings[layerID] = tiling
            }
            clock += 1
            for (i, r) in requests.enumerated() {
                let key = Key(layerID: layerID, level: r.level, column: r.column, row: r.row)
                if var e = entries[key], !payload.isStale(e.tile.rect, drawnAt: e.generation) {
                    e.lastUse = clock
                    entries[key] = e
                    result[i] = e.tile
                } else {
                    missing.append(i)
                }
            }
        }
        if !missing.isEmpty {
            // App code draws the tiles on the worker threads (§6: the drawing must be thread-safe).
            let drawn = UnsafeMutableBufferPointer<Tile?>.allocate(capacity: missing.count)
            drawn.initialize(repeating: nil)
            defer { drawn.deinitialize(); drawn.deallocate() }
            let out = SendableTileBuffer(drawn)
            let missingIndices = missing
            parallelRows(missing.count, threads: executor.threads) { n in
                let r = requests[missingIndices[n]]
                let cell = Rect(x: Double(r.column) * payload.tileSize.width / r.scale, y: Double(r.row) * payload.tileSize.height / r.scale,
                                width: payload.tileSize.width / r.scale, height: payload.tileSize.height / r.scale)
                out.buffer[n] = Tile(key: Key(layerID: layerID, level: r.level, column: r.column, row: r.row),
                                     rect: r.rect, cell: cell, scale: r.scale, image: Self.draw(r, cell: cell, with: payload.drawTile))
            }
            lock.withLock {
                clock += 1
                for (n, i) in missing.enumerated() {
                    let tile = drawn[n]!
                    if let old = entries[tile.key] { bytes -= old.bytes }
                    let e = Entry(tile: tile, generation: payload.generation, lastUse: clock)
                    entries[tile.key] = e
                    bytes += e.bytes
                    drawCount += 1
                    result[i] = tile
                }
            }
        }
        lock.withLock { evict(keeping: clock) }
        return result.map { $0! }
    }

    /// Drops least recently used tiles until within the bounds; tiles used at `keeping` (this frame's) stay.
    func evict(keeping: UInt64) {
        guard entries.count > tileLimit || bytes > byteLimit else { return }
        let order = entries.values.filter { $0.lastUse < keeping }.sorted { $0.lastUse < $1.lastUse }
        for e in order {
            guard entries.count > tileLimit || bytes > byteLimit else { break }
            entries[e.tile.key] = nil
            bytes -= e.bytes
        }
    }

    /// One tile's pixels: a context of the grid cell at the level's scale, in layer points, clipped to the tile
    /// (cell ∩ bounds), so whatever the closure paints outside it is cut.
    static func draw(_ r: TileRequest, cell: Rect, with drawTile: (@Sendable (DrawingContext, TileRequest) -> Void)?) -> Image {
        let context = DrawingContext(size: cell.size, scale: r.scale)
        context.translateBy(x: -cell.minX, y: -cell.minY)
        context.clip(to: r.rect)
        drawTile?(context, r)
        return context.makeImage()
    }
}

/// The drawn tiles' slots, written by one worker each (distinct indices).
private struct SendableTileBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<TileCache.Tile?>
    init(_ buffer: UnsafeMutableBufferPointer<TileCache.Tile?>) { self.buffer = buffer }
}
