import Foundation
@testable import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §6 in a window (`TileDrawing.background`): placeholders, background draws, fade, stand-ins,
// invalidation that keeps the old tile, and the memory bound of a 20,000² layer panned and zoomed.

/// A display clock the test moves by hand, so that fades are exact.
final class ManualClock: Sendable {
    private let time = Guarded(0.0)
    var now: Double { time.withLock { $0 } }
    func set(_ t: Double) { time.withLock { $0 = t } }
    /// The clock as `TileDrawing.background` takes it.
    var read: @Sendable () -> Double { { [self] in now } }
}

/// The keys of the tiles of `level` meeting `rect` (layer points) of a layer of side `side`, tiles of 256 pixels.
private func keys(_ id: UInt64, meeting rect: Rect, level: Int, side: Double) -> Set<TileCache.Key> {
    let tile = 256 * pow(2, Double(level))
    let r = rect.intersection(Rect(x: 0, y: 0, width: side, height: side))
    var out = Set<TileCache.Key>()
    for j in Int((r.minY / tile).rounded(.down))...Int((r.maxY / tile).rounded(.up)) - 1 {
        for i in Int((r.minX / tile).rounded(.down))...Int((r.maxX / tile).rounded(.up)) - 1 {
            out.insert(TileCache.Key(layerID: id, level: level, column: i, row: j))
        }
    }
    return out
}

private func samePixels(_ a: Surface, _ b: Surface) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
    return true
}

@Suite("TiledLayer in a window: background tiles, fade, memory bound")
struct TiledLayerWindowTests {
    @Test func theFirstFrameShowsPlaceholdersAndALaterOneEqualsTheSynchronousRender() {
        let recorder = TileRecorder()
        let clock = ManualClock()
        let root = canvas(512, 512, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 2048, height: 2048), recorder: recorder)
        root.addSublayer(tiled)
        let window = Compositor(threads: 2, tiles: .background(workers: 1, clock: clock.read))
        let first = render(root, compositor: window)
        expectPixel(first, 100, 100, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "no tile yet: the background shows")
        expectPixel(first, 400, 300, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "no tile yet: the background shows")
        #expect(window.isDrawingTiles, "the missing tiles are queued")
        #expect(window.waitForTiles(timeout: 30))
        // One worker draws the visible tiles first, then the one-tile margin (column 2, row 2).
        let drawn = recorder.requests.map { [$0.column, $0.row] }
        #expect(drawn.count == 9)
        #expect(Set(drawn.prefix(4)) == [[0, 0], [1, 0], [0, 1], [1, 1]])
        #expect(Set(drawn) == Set((0...2).flatMap { c in (0...2).map { [c, $0] } }))
        clock.set(1) // past the 0.25 s fade
        let later = render(root, compositor: window)
        #expect(!window.isDrawingTiles)
        let synchronous = render(root, compositor: Compositor(threads: 2))
        #expect(samePixels(later, synchronous), "a complete window frame is the export's frame")
        #expect(recorder.requests.count == 9 + 4, "the synchronous compositor drew its own 4; the window drew nothing more")
    }

    @Test func aNewTileFadesInOverFadeDuration() {
        let clock = ManualClock()
        let root = canvas(256, 256, background: .black)
        let tiled = TiledLayer()
        tiled.frame = Rect(x: 0, y: 0, width: 256, height: 256)
        tiled.drawTile = { context, request in
            context.setFillColor(.red)
            context.fill(request.rect)
        }
        root.addSublayer(tiled)
        let window = Compositor(threads: 1, tiles: .background(workers: 1, clock: clock.read))
        _ = render(root, compositor: window)
        #expect(window.waitForTiles(timeout: 30))
        // The tile arrived at clock 0; TiledLayer.fadeDuration is 0.25 s.
        expectPixel(render(root, compositor: window), 100, 100, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "fade start: 0")
        clock.set(0.125)
        let midpoint = render(root, compositor: window)
        expectPixel(midpoint, 100, 100, PremultipliedColor(r: 128, g: 0, b: 0, a: 255), tolerance: 2, "half way: half red")
        #expect(window.isDrawingTiles, "a fade in progress asks for another frame")
        clock.set(0.25)
        expectPixel(render(root, compositor: window), 100, 100, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "faded in")
        #expect(!window.isDrawingTiles)
    }

    @Test func anInvalidatedTileStaysUntilItsNewVersionReplacesItAtOnce() {
        let clock = ManualClock()
        let colour = Guarded(Color.red)
        let root = canvas(512, 256, background: .black)
        let tiled = TiledLayer()
        tiled.frame = Rect(x: 0, y: 0, width: 512, height: 256)
        tiled.drawTile = { context, request in
            context.setFillColor(colour.withLock { $0 })
            context.fill(request.rect)
        }
        root.addSublayer(tiled)
        let window = Compositor(threads: 1, tiles: .background(workers: 1, clock: clock.read))
        _ = render(root, compositor: window)
        #expect(window.waitForTiles(timeout: 30))
        clock.set(1)
        let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255), green = PremultipliedColor(r: 0, g: 255, b: 0, a: 255)
        expectPixel(render(root, compositor: window), 300, 100, red)
        colour.withLock { $0 = .green }
        tiled.setNeedsDisplay(in: Rect(x: 300, y: 10, width: 5, height: 5))
        let during = render(root, compositor: window)
        expectPixel(during, 300, 100, red, "the stale tile shows until replaced")
        #expect(window.waitForTiles(timeout: 30))
        let after = render(root, compositor: window)
        expectPixel(after, 300, 100, green, "the new version, at once (no fade: the clock has not moved)")
        expectPixel(after, 100, 100, red, "the tile the invalidation missed is kept")
    }

    @Test func aCoarserLevelStandsInWhileTheSharpTilesAreDrawn() {
        let clock = ManualClock()
        let root = canvas(256, 256, background: .black)
        let tiled = TiledLayer()
        tiled.anchorPoint = .zero
        tiled.position = .zero
        tiled.bounds = Rect(x: 0, y: 0, width: 1024, height: 1024)
        tiled.levelsOfDetail = 2
        tiled.transform = Transform3D.makeScale(0.5, 0.5, 1)
        tiled.drawTile = { context, request in
            // Level 1 (coarse) draws blue, level 0 (sharp) red: which level shows is visible.
            context.setFillColor(request.level == 1 ? .blue : .red)
            context.fill(request.rect)
        }
        root.addSublayer(tiled)
        let window = Compositor(threads: 1, tiles: .background(workers: 1, clock: clock.read))
        _ = render(root, compositor: window)
        #expect(window.waitForTiles(timeout: 30))
        clock.set(10)
        expectPixel(render(root, compositor: window), 100, 100, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "level 1 at half size")
        Transaction.withoutActions { tiled.transform = .identity }
        expectPixel(render(root, compositor: window), 100, 100, PremultipliedColor(r: 0, g: 0, b: 255, a: 255),
                    "zoomed in: level 0 is missing, the kept level-1 tile stands in")
        #expect(window.waitForTiles(timeout: 30))
        clock.set(20)
        expectPixel(render(root, compositor: window), 100, 100, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "level 0 in")
    }

    /// A frame that lowers a layer twice (its shadow's shape, then the layer) counts both uses: the tiles of one are
    /// not dropped for the other, so the draws end instead of repeating every frame.
    @Test func aShadowedTiledLayerSettles() {
        let recorder = TileRecorder()
        let clock = ManualClock()
        let root = canvas(512, 512, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 40, y: 40, width: 1500, height: 1500), recorder: recorder)
        tiled.shadowOpacity = 0.8
        tiled.shadowRadius = 6
        tiled.shadowOffset = Size(width: 10, height: 10)
        root.addSublayer(tiled)
        let window = Compositor(threads: 2, tiles: .background(workers: 2, clock: clock.read))
        for t in 0..<3 {
            _ = render(root, compositor: window)
            #expect(window.waitForTiles(timeout: 30))
            clock.set(Double(t + 1))
        }
        let settled = recorder.requests.count
        _ = render(root, compositor: window)
        #expect(window.waitForTiles(timeout: 30))
        #expect(recorder.requests.count == settled, "no tile is drawn again once all are in")
        #expect(!window.isDrawingTiles)
    }

    /// The brief's bound: a 20,000 × 20,000-point layer panned and zoomed in a 512² window draws only tiles of the
    /// visible part plus a one-tile margin, and keeps at most 2N = 98 tiles (N = 49, TileCache+Background.swift).
    @Test func aHugeLayerPannedAndZoomedInAWindowKeepsTheStatedBound() {
        let recorder = TileRecorder()
        let clock = ManualClock()
        let root = canvas(512, 512, background: .black)
        let scroll = ScrollLayer()
        scroll.frame = Rect(x: 0, y: 0, width: 512, height: 512)
        scroll.masksToBounds = true
        root.addSublayer(scroll)
        let side = 20_000.0
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: side, height: side), recorder: recorder)
        tiled.levelsOfDetail = 8
        tiled.anchorPoint = .zero
        tiled.position = .zero
        scroll.addSublayer(tiled)
        let window = Compositor(threads: 2, tiles: .background(workers: 2, clock: clock.read))
        let cache = window.tileCache
        let bound = 98, tileBytes = 256 * 256 * 4
        // (scroll offset, zoom, the level that zoom needs)
        let script: [(Point, Double, Int)] = [
            (Point(x: 0, y: 0), 1, 0), (Point(x: 130, y: 70), 1, 0), (Point(x: 400, y: 260), 1, 0), (Point(x: 9_000, y: 15_000), 1, 0),
            (Point(x: 9_050, y: 15_020), 1, 0), (Point(x: 2_300, y: 3_700), 0.25, 2), (Point(x: 2_400, y: 3_650), 0.25, 2),
            (Point(x: 600, y: 900), 0.06, 4), (Point(x: 19_400, y: 19_400), 1, 0), (Point(x: 7_000, y: 7_000), 0.7, 0),
        ]
        var time = 0.0
        for (offset, zoom, level) in script {
            recorder.reset()
            Transaction.withoutActions {
                tiled.transform = Transform3D.makeScale(zoom, zoom, 1)
                scroll.scroll(to: offset)
            }
            let seen = Rect(x: offset.x / zoom, y: offset.y / zoom, width: 512 / zoom, height: 512 / zoom)
            let tileSide = 256 * pow(2, Double(level))
            let withMargin = keys(tiled.identifier, meeting: seen.insetBy(dx: -tileSide, dy: -tileSide), level: level, side: side)
            for _ in 0..<2 {
                _ = render(root, compositor: window)
                #expect(cache.queuedCount <= 49, "the queue holds at most N jobs, at \(offset)")
                #expect(cache.count <= bound && cache.byteCount <= bound * tileBytes, "at \(offset) × \(zoom)")
                #expect(window.waitForTiles(timeout: 60))
                #expect(cache.count <= bound && cache.byteCount <= bound * tileBytes, "at \(offset) × \(zoom), drawn")
                time += 1
                clock.set(time)
            }
            let drawn = Set(recorder.requests.map { TileCache.Key(layerID: tiled.identifier, level: $0.level, column: $0.column, row: $0.row) })
            #expect(drawn.isSubset(of: withMargin), "only the visible tiles and their margin are drawn, at \(offset) × \(zoom)")
            #expect(withMargin.count <= 49)
            // After a complete frame the layer keeps exactly that frame's tiles and margin, and nothing else.
            _ = render(root, compositor: window)
            #expect(cache.keys == withMargin, "at \(offset) × \(zoom)")
        }
    }
}
