import Foundation
@testable import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §6: which tiles are drawn, at which level, kept how long, and what they show.

/// Every tile request the layer's closure received (the closure runs on worker threads).
final class TileRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [TileRequest] = []
    var requests: [TileRequest] { lock.withLock { all } }
    func record(_ r: TileRequest) { lock.withLock { all.append(r) } }
    func reset() { lock.withLock { all.removeAll() } }
}

/// A tiled layer whose tiles fill their clip with a colour from their column and row, recording each draw.
func recordingTiledLayer(_ frame: Rect, recorder: TileRecorder) -> TiledLayer {
    let layer = TiledLayer()
    layer.frame = frame
    layer.drawTile = { context, request in
        recorder.record(request)
        context.setFillColor((request.column + request.row) % 2 == 0 ? .red : .blue)
        context.fill(request.rect)
    }
    return layer
}

@Suite("TiledLayer: §6's tiles, levels and cache")
struct TiledLayerTests {
    @Test func theLevelIsTheCoarsestAtLeastAsSharpAsTheScreen() {
        let payload = TiledPayload(tileSize: Size(width: 256, height: 256), levelsOfDetail: 4, levelsOfDetailBias: 1,
                                   contentsScale: 1, generation: 1, wholeInvalidation: 1, dirtyRects: [], fadeDuration: 0.25,
                                   drawTile: nil)
        #expect(payload.levels == -1...2)
        let big = Size(width: 4096, height: 4096)
        for (s, level) in [(2.0, -1), (1, 0), (0.5, 1), (0.3, 1), (0.2, 2), (0.1, 2)] {
            #expect(Lowering.tileLevel(contentsScale: 1, screenScale: s, levels: payload.levels, bounds: big) == level, "s = \(s)")
        }
        // The coarsest level keeps at least one pixel each way: a 4-point layer has levels up to 2 only.
        #expect(Lowering.tileLevel(contentsScale: 1, screenScale: 0.001, levels: 0...20, bounds: Size(width: 4, height: 4)) == 2)
    }

    @Test func aViewportOfFourTilesDrawsFourAlignedAndNineWhenOffset() {
        let recorder = TileRecorder()
        let root = canvas(512, 512, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 2048, height: 2048), recorder: recorder)
        root.addSublayer(tiled)
        _ = render(root, compositor: Compositor(threads: 2))
        #expect(recorder.requests.count == 4)
        #expect(recorder.requests.allSatisfy { $0.level == 0 && $0.rect.width == 256 && $0.rect.height == 256 &&
                                              $0.rect.minX.truncatingRemainder(dividingBy: 256) == 0 })

        recorder.reset()
        // Moved without an implicit animation (the layer has been shown), as a scroll view's drag does.
        Transaction.withoutActions { tiled.frame = Rect(x: -100, y: -100, width: 2048, height: 2048) }
        let s = render(root, compositor: Compositor(threads: 2))
        #expect(recorder.requests.count == 9)
        #expect(Set(recorder.requests.map { $0.column }) == [0, 1, 2])
        // Tile (0,0) is red, (1,0) blue: layer x 256 is canvas x 156.
        expectPixel(s, 150, 10, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "tile (0,0)")
        expectPixel(s, 160, 10, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "tile (1,0)")
    }

    @Test func contentsScaleTwoMakesTilesOf128Points() {
        let recorder = TileRecorder()
        let root = canvas(256, 256, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 1000, height: 1000), recorder: recorder)
        tiled.contentsScale = 2
        root.addSublayer(tiled)
        _ = render(root, compositor: Compositor(threads: 1))
        // The screen has 1 pixel per point, contentsScale 2: level 1 would be exact, but one level only exists.
        #expect(recorder.requests.count == 4)
        #expect(recorder.requests.allSatisfy { $0.rect.width == 128 && $0.scale == 2 })
    }

    /// The test of the brief: a 20,000 × 20,000-point layer in a scroll layer, scrolled and zoomed, draws and keeps
    /// only the visible tiles, within a cache of 9 tiles.
    @Test func aHugeLayerScrolledAndZoomedDrawsAndKeepsOnlyVisibleTiles() {
        let recorder = TileRecorder()
        let root = canvas(512, 512, background: .black)
        let scroll = ScrollLayer()
        scroll.frame = Rect(x: 0, y: 0, width: 512, height: 512)
        scroll.masksToBounds = true
        root.addSublayer(scroll)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 20_000, height: 20_000), recorder: recorder)
        tiled.levelsOfDetail = 8
        scroll.addSublayer(tiled)
        let cache = TileCache(tileLimit: 9, byteLimit: 9 * 256 * 256 * 4)
        func frame() {
            let snap = root.snapshot()
            let lowering = Lowering(viewport: PixelRect(x0: 0, y0: 0, x1: 512, y1: 512), executor: Executor(threads: 2),
                                    shadowCache: ShadowCache(), tileCache: cache)
            _ = lowering.lower(snap, world: snap.localTransform, planes: [], clips: [])
        }
        /// The tiles of `level` (tile side 256·2^level points) meeting the 512-pixel viewport at content offset `o`.
        func visible(_ o: Point, level: Int, zoom: Double) -> Set<TileCache.Key> {
            let side = 256 * pow(2, Double(level)), extent = 512 / zoom
            var keys = Set<TileCache.Key>()
            for j in Int((o.y / side).rounded(.down))...Int(((o.y + extent) / side).rounded(.up)) - 1 {
                for i in Int((o.x / side).rounded(.down))...Int(((o.x + extent) / side).rounded(.up)) - 1 {
                    keys.insert(TileCache.Key(layerID: tiled.identifier, level: level, column: i, row: j))
                }
            }
            return keys
        }
        var drawn = Set<TileCache.Key>()
        for offset in [Point(x: 100, y: 100), Point(x: 300, y: 120), Point(x: 9_000, y: 15_000), Point(x: 9_100, y: 15_010)] {
            recorder.reset()
            Transaction.withoutActions { scroll.scroll(to: offset) }
            frame()
            let want = visible(offset, level: 0, zoom: 1)
            let newly = Set(recorder.requests.map { TileCache.Key(layerID: tiled.identifier, level: $0.level, column: $0.column, row: $0.row) })
            #expect(want.count == 9)
            #expect(newly == want.subtracting(drawn), "only the visible tiles not kept already are drawn, at \(offset)")
            #expect(cache.keys == want, "the cache keeps the visible tiles only, at \(offset)")
            #expect(cache.count <= 9 && cache.byteCount <= 9 * 256 * 256 * 4)
            drawn = cache.keys
        }
        // Zoomed out to a quarter: level 2, tiles of 1024 points, 3 × 3 of them at an unaligned offset.
        recorder.reset()
        Transaction.withoutActions {
            tiled.anchorPoint = Point(x: 0, y: 0)
            tiled.position = Point(x: 0, y: 0)
            tiled.transform = Transform3D.makeScale(0.25, 0.25, 1)
            scroll.scroll(to: Point(x: 500, y: 700))
        }
        frame()
        let want = visible(Point(x: 2000, y: 2800), level: 2, zoom: 0.25)
        #expect(want.count == 9)
        #expect(recorder.requests.allSatisfy { $0.level == 2 && $0.rect.width == 1024 && $0.scale == 0.25 })
        #expect(cache.keys == want)
        #expect(cache.count <= 9 && cache.byteCount <= 9 * 256 * 256 * 4)
    }

    @Test func invalidationRedrawsOnlyTheTilesItMeets() {
        let recorder = TileRecorder()
        let root = canvas(512, 512, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 512, height: 512), recorder: recorder)
        root.addSublayer(tiled)
        let compositor = Compositor(threads: 2)
        _ = render(root, compositor: compositor)
        #expect(recorder.requests.count == 4)
        recorder.reset()
        _ = render(root, compositor: compositor)
        #expect(recorder.requests.isEmpty, "kept tiles are not drawn again")
        tiled.setNeedsDisplay(in: Rect(x: 300, y: 10, width: 5, height: 5))
        _ = render(root, compositor: compositor)
        #expect(recorder.requests.map { [$0.column, $0.row] } == [[1, 0]])
        recorder.reset()
        tiled.setNeedsDisplay()
        _ = render(root, compositor: compositor)
        #expect(recorder.requests.count == 4)
    }

    @Test func aDrawPaintingOutsideItsTileIsClipped() {
        let root = canvas(200, 200, background: .black)
        let tiled = TiledLayer()
        tiled.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        tiled.tileSize = Size(width: 64, height: 64)
        tiled.drawTile = { context, request in
            // Paints far beyond its tile and the bounds, in the colour of its column.
            context.setFillColor(request.column == 0 ? .red : .green)
            context.fill(Rect(x: -10_000, y: -10_000, width: 20_000, height: 20_000))
        }
        root.addSublayer(tiled)
        let s = render(root, compositor: Compositor(threads: 1))
        expectPixel(s, 20, 20, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "outside the layer")
        expectPixel(s, 60, 100, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "column 0")
        expectPixel(s, 50 + 70, 100, PremultipliedColor(r: 0, g: 255, b: 0, a: 255), "column 1 keeps its own colour")
        expectPixel(s, 160, 100, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "right of the bounds")
    }

    @Test func hostileTilingIsClamped() {
        func payload(_ layer: TiledLayer) -> TiledPayload { layer.snapshot().payload as! TiledPayload }
        let layer = TiledLayer()
        layer.tileSize = Size(width: 0, height: .nan)
        layer.levelsOfDetail = 1_000_000_000
        layer.levelsOfDetailBias = -5
        #expect(payload(layer).tileSize == Size(width: TiledLayer.minTileSide, height: 256))
        #expect(payload(layer).levels == 0...(TiledLayer.maxLevels - 1))
        layer.levelsOfDetailBias = .max
        #expect(payload(layer).levels == -(TiledLayer.maxLevels - 1)...0)
        // Tiny tiles over a huge layer with absurd levels: drawn, and bounded per frame.
        let recorder = TileRecorder()
        let root = canvas(256, 256, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 1e7, height: 1e7), recorder: recorder)
        tiled.tileSize = Size(width: 0, height: 0)
        tiled.levelsOfDetail = 1_000_000_000
        tiled.levelsOfDetailBias = 40
        root.addSublayer(tiled)
        _ = render(root, compositor: Compositor(threads: 2))
        #expect(recorder.requests.count > 0 && recorder.requests.count <= Lowering.maxTilesPerFrame)
    }

    @Test func twoExportsAreByteIdentical() {
        func frame() -> Surface {
            let root = canvas(300, 200, background: .black)
            let tiled = TiledLayer()
            tiled.frame = Rect(x: -37, y: -11, width: 900, height: 700)
            tiled.tileSize = Size(width: 64, height: 64)
            tiled.transform = Transform3D.makeRotation(0.3, 0, 0, 1)
            tiled.drawTile = { context, _ in
                context.setFillColor(Color(red: 1, green: 0.5, blue: 0))
                context.fillEllipse(in: Rect(x: 100, y: 80, width: 500, height: 400))
            }
            root.addSublayer(tiled)
            return render(root, compositor: Compositor(threads: 2))
        }
        let a = frame(), b = frame()
        var same = true
        for y in 0..<200 { for x in 0..<300 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { same = false } }
        #expect(same)
        #expect(a.pixel(x: 150, y: 100) != PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "the ellipse shows")
    }

    /// §6's "no seams": a white layer drawn as 100 tiles, turned and scaled to 0.7, is white inside; only its outline
    /// has partly covered pixels (tiles drawn as separate antialiased quads would leave grey lines at every edge).
    @Test func tilesTurnedAndScaledShowNoSeams() {
        let root = canvas(512, 512, background: .black)
        let tiled = TiledLayer()
        tiled.bounds = Rect(x: 0, y: 0, width: 600, height: 600)
        tiled.position = Point(x: 256, y: 256)
        tiled.tileSize = Size(width: 64, height: 64)
        tiled.transform = Transform3D.makeRotation(0.3, 0, 0, 1).concatenating(Transform3D.makeScale(0.7, 0.7, 1))
        tiled.drawTile = { context, request in
            context.setFillColor(.white)
            context.fill(request.rect)
        }
        root.addSublayer(tiled)
        let s = render(root, compositor: Compositor(threads: 2))
        var partial = 0, white = 0
        for y in 0..<512 {
            for x in 0..<512 {
                let p = s.pixel(x: x, y: y)
                if p == PremultipliedColor(r: 255, g: 255, b: 255, a: 255) { white += 1 }
                else if p != PremultipliedColor(r: 0, g: 0, b: 0, a: 255) { partial += 1 }
            }
        }
        #expect(white > 150_000, "the layer shows (\(white) white pixels)")
        // The outline is at most 4 × 420 pixels long; 18 seams would add about 7,500 more.
        #expect(partial < 2_500, "\(partial) partly covered pixels")
    }

    @Test func contentsSetDirectlyMakeItAPlainLayer() {
        let recorder = TileRecorder()
        let root = canvas(64, 64, background: .black)
        let tiled = recordingTiledLayer(Rect(x: 0, y: 0, width: 64, height: 64), recorder: recorder)
        tiled.contents = .image(Image(width: 4, height: 4) { px in for i in 0..<16 { px[i] = Color.green.premultiplied.bgra } })
        root.addSublayer(tiled)
        let s = render(root, compositor: Compositor(threads: 1))
        #expect(recorder.requests.isEmpty)
        expectPixel(s, 10, 10, PremultipliedColor(r: 0, g: 255, b: 0, a: 255), "the contents, not a tile")
    }
}
