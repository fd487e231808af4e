import Foundation
import LayerGraphics
import LayerKit

/// Window mode (`TileDrawing.background`, SEMANTICS-LAYERS.md §6): a frame never waits for app drawing. It shows the
/// tiles that are ready, stand-ins from other levels where they are not, and queues the missing or stale ones for
/// worker threads, most needed first.
///
/// Memory bound. At the end of each frame (`endFrame`, which `Compositor.render` calls) the cache keeps only what
/// that frame used or asked for: for each tiled layer, the tiles of the frame's level meeting the visible part plus a
/// one-tile margin, and stand-ins (at most one per visible tile); tiles of layers the frame did not draw go. A level is
/// the coarsest at least as sharp as the screen, so a tile of T pixels shows between T/2 and T pixels wide, and a
/// W × H viewport meets at most (⌈2W/T⌉ + 1) × (⌈2H/T⌉ + 1) of them, (⌈2W/T⌉ + 3) × (⌈2H/T⌉ + 3) = N with the
/// margin: at most 2N tiles of T² · 4 bytes per layer after a frame and until the next one (512² pixels, T = 256:
/// N = 49, 98 tiles, 24.5 MiB), whatever the layer's size (a 20,000² layer too); while a frame is being made, the
/// tiles arriving for it come on top, and one tile per worker is being drawn. The queue holds at most N jobs per
/// layer. A layer with too few levels for its zoom is also held to `Lowering.maxTilesPerFrame` and the cache's
/// limits.
extension TileCache {
    /// What a window frame shows of one layer.
    struct BackgroundFrame {
        /// The visible tiles that are ready, with their fade-in opacity (1: fully in).
        var shown: [(tile: Tile, opacity: Double)] = []
        /// Other levels' tiles standing in, beneath, for missing or fading tiles, each over the area it covers for them.
        var standIns: [(tile: Tile, area: Rect)] = []
        /// Every visible tile is ready and fully faded in: the frame equals the synchronous one.
        var isComplete = true
    }

    /// Window mode's lookup for one layer and frame: `visible` are the tiles the frame shows, `margin` those
    /// around it to prefetch, each most needed first.
    func backgroundTiles(layerID: UInt64, payload: TiledPayload, tiling: Tiling, visible: [TileRequest], margin: [TileRequest],
                         levels: ClosedRange<Int>) -> BackgroundFrame {
        guard case .background(let workers, let displayClock) = drawing else { return BackgroundFrame() }
        let now = displayClock()
        var out = BackgroundFrame()
        lock.withLock {
            if tilings[layerID] != tiling {
                for (k, e) in entries where k.layerID == layerID { bytes -= e.bytes; entries[k] = nil }
                tilings[layerID] = tiling
            }
            clock += 1
            var wanted: [TileJob] = []
            var standInBudget = visible.count
            for (n, r) in (visible + margin).enumerated() {
                let key = Key(layerID: layerID, level: r.level, column: r.column, row: r.row)
                let job = TileJob(key: key, request: r, payload: payload, tiling: tiling, frame: frame)
                guard var e = entries[key] else {
                    wanted.append(job)
                    if n < visible.count { out.isComplete = false; addStandIns(for: r, layerID: layerID, levels: levels, budget: &standInBudget, into: &out) }
                    continue
                }
                e.lastUse = clock
                e.frameUsed = frame
                entries[key] = e
                // A stale tile stays on screen until its new version arrives (§6: updates are asynchronous).
                if payload.isStale(e.tile.rect, drawnAt: e.generation) { wanted.append(job) }
                guard n < visible.count else { continue }
                let opacity = e.opacity(at: now)
                if opacity < 1 {
                    out.isComplete = false
                    addStandIns(for: r, layerID: layerID, levels: levels, budget: &standInBudget, into: &out)
                }
                if opacity > 0 { out.shown.append((e.tile, opacity)) }
            }
            // This layer's queued tiles give way to this frame's (a pan leaves the old ones unneeded); a tile being
            // drawn is not asked for twice.
            queue.removeAll { $0.key.layerID == layerID }
            queue += wanted.filter { !inFlight.contains($0.key) }
            evict(keeping: clock)
            while running < max(1, workers) && running < queue.count {
                running += 1
                DispatchQueue.global(qos: .userInitiated).async { self.drainQueue() }
            }
        }
        return out
    }

    /// Stand-ins for the missing or fading tile `r` (§6: the nearest cached level covering the area, coarser first,
    /// then finer), marked used so they stay while they stand in. Called with the lock held.
    private func addStandIns(for r: TileRequest, layerID: UInt64, levels: ClosedRange<Int>, budget: inout Int, into out: inout BackgroundFrame) {
        guard budget > 0 else { return }
        var level = r.level + 1, factor = 2.0
        while level <= max(levels.upperBound, r.level + 1) && factor <= 1_048_576 {
            let key = Key(layerID: layerID, level: level, column: Int((Double(r.column) / factor).rounded(.down)),
                          row: Int((Double(r.row) / factor).rounded(.down)))
            if let e = entries[key], e.opacity(at: .infinity) == 1 {
                entries[key]?.lastUse = clock
                entries[key]?.frameUsed = frame
                let area = r.rect.intersection(e.tile.rect)
                if !area.isNull, area.width > 0, area.height > 0 { out.standIns.append((e.tile, area)); budget -= 1 }
                return
            }
            level += 1
            factor *= 2
        }
        guard r.level - 1 >= levels.lowerBound else { return }
        for dj in 0...1 {
            for di in 0...1 {
                let key = Key(layerID: layerID, level: r.level - 1, column: 2 * r.column + di, row: 2 * r.row + dj)
                guard budget > 0, let e = entries[key] else { continue }
                entries[key]?.lastUse = clock
                entries[key]?.frameUsed = frame
                let area = r.rect.intersection(e.tile.rect)
                if !area.isNull, area.width > 0, area.height > 0 { out.standIns.append((e.tile, area)); budget -= 1 }
            }
        }
    }

    /// A worker: draws queued tiles, most needed first, until the queue is empty.
    private func drainQueue() {
        while let job = lock.withLock({ () -> TileJob? in
            guard !queue.isEmpty else { running -= 1; return nil }
            let job = queue.removeFirst()
            inFlight.insert(job.key)
            return job
        }) {
            let r = job.request, size = job.payload.tileSize
            let cell = Rect(x: Double(r.column) * size.width / r.scale, y: Double(r.row) * size.height / r.scale,
                            width: size.width / r.scale, height: size.height / r.scale)
            // App code, on this worker thread (§6: the drawing must be thread-safe).
            let tile = Tile(key: job.key, rect: r.rect, cell: cell, scale: r.scale, image: Self.draw(r, cell: cell, with: job.payload.drawTile))
            deliver(tile, job)
        }
    }

    /// A drawn tile into the cache, unless the layer's tiling changed or a newer version arrived meanwhile. A tile
    /// where none was fades in; a new version of a tile replaces it at once (§6).
    private func deliver(_ tile: Tile, _ job: TileJob) {
        guard case .background(_, let displayClock) = drawing else { return }
        let now = displayClock()
        lock.withLock {
            inFlight.remove(job.key)
            guard tilings[job.key.layerID] == job.tiling else { return }
            let old = entries[job.key]
            if let old, old.generation >= job.payload.generation { return }
            if let old { bytes -= old.bytes }
            var e = Entry(tile: tile, generation: job.payload.generation, lastUse: clock, frameUsed: max(job.frame, old?.frameUsed ?? 0))
            if old == nil {
                e.fadeStart = now
                e.fadeDuration = job.payload.fadeDuration
            }
            entries[job.key] = e
            bytes += e.bytes
            drawCount += 1
            evict(keeping: clock)
        }
    }

    /// Ends a window frame: the bound above, only what this frame used or asked for stays (every lowering of the
    /// frame — shadows, rasterized groups — counted). Nothing happens in synchronous mode.
    func endFrame() {
        guard case .background = drawing else { return }
        lock.withLock {
            for (k, e) in entries where e.frameUsed != frame { bytes -= e.bytes; entries[k] = nil }
            frame += 1
        }
    }

    /// Whether the host should render another frame: tiles are queued or being drawn, or one is fading in.
    var isBusy: Bool {
        guard case .background(_, let displayClock) = drawing else { return false }
        let now = displayClock()
        return lock.withLock { !queue.isEmpty || running > 0 || entries.values.contains { $0.opacity(at: now) < 1 } }
    }

    /// Tiles waiting for a worker now (the queue's bound is tested).
    var queuedCount: Int { lock.withLock { queue.count } }

    /// Waits until no tile is queued or being drawn (fades aside), up to `timeout` seconds; whether it got there.
    func waitUntilDrawn(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout.isFinite ? timeout : 0))
        while lock.withLock({ !queue.isEmpty || running > 0 }) {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
