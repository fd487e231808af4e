import Foundation
@testable import LayerGallery
import LayerGraphics
import LayerKit
import Testing

// Listing 6.11 (TileCutter) and 6.12's loading of its tiles (SEMANTICS-LAYERS.md §6, "Book examples").

/// A fresh directory under the temporary one, removed by the caller.
private func temporaryDirectory() throws -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("tilecutter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("TileCutter: listing 6.11's tiles and listing 6.12 drawing them")
struct TileCutterTests {
    @Test func anImageIsCutIntoNamedTilesThatKeepItsPixels() throws {
        // 600 × 300 pixels of a pattern no two pixels of a row share: a misplaced tile or pixel shows.
        let image = Image(width: 600, height: 300) { px in
            for y in 0..<300 { for x in 0..<600 { px[y * 600 + x] = 0xFF00_0000 | UInt32(x & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | UInt32((x >> 8) * 60 + (y >> 8) * 120) } }
        }
        let tiles = TileCutter.cut(image)
        #expect(tiles.map { [$0.column, $0.row] } == [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]])
        #expect(tiles.map { [$0.image.width, $0.image.height] } == [[256, 256], [256, 256], [88, 256], [256, 44], [256, 44], [88, 44]])
        for tile in tiles {
            for (x, y) in [(0, 0), (tile.image.width - 1, tile.image.height - 1), (40, 30)] where x < tile.image.width && y < tile.image.height {
                #expect(tile.image.pixel(x: x, y: y) == image.pixel(x: tile.column * 256 + x, y: tile.row * 256 + y))
            }
        }
        #expect(TileCutter.fileName("picture", column: 7, row: 3) == "picture_07_03.png")
        #expect(TileCutter.fileName("p", column: 12, row: 0) == "p_12_00.png")
        // A bad tile size is clamped: 0 is 1 pixel.
        #expect(TileCutter.cut(Image(width: 3, height: 2) { _ in }, tileSize: 0).count == 6)

        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = (dir as NSString).appendingPathComponent("strip.png")
        try image.writePNG(to: input)
        let written = try TileCutter.cut(pngAt: input)
        #expect(written.count == 6)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("strip_") }.sorted()
        #expect(names == ["strip_00_00.png", "strip_00_01.png", "strip_01_00.png", "strip_01_01.png", "strip_02_00.png", "strip_02_01.png"])
        let corner = try Image(contentsOfPNG: (dir as NSString).appendingPathComponent("strip_02_01.png"))
        #expect(corner.width == 88 && corner.height == 44)
        #expect(corner.pixel(x: 87, y: 43) == image.pixel(x: 599, y: 299))
    }

    /// Figure 6.12 from listing 6.11's files: the 2048² picture drawn once, cut into 64 tiles, and the figure given a
    /// media directory holding them draws the same picture it draws without them (the tiles are loaded by index).
    @Test func figure612ShowsTheCutTiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tilesDir = (dir as NSString).appendingPathComponent("tiles")
        try FileManager.default.createDirectory(atPath: tilesDir, withIntermediateDirectories: true)
        let whole = DrawingContext(size: Size(width: 2048, height: 2048), scale: 1)
        drawTileCutterPicture(whole, TileRequest(rect: Rect(x: 0, y: 0, width: 2048, height: 2048), column: 0, row: 0, level: 0, scale: 1))
        let input = (tilesDir as NSString).appendingPathComponent("picture.png")
        try whole.makeImage().writePNG(to: input)
        #expect(try TileCutter.cut(pngAt: input).count == 64)
        for name in ["6.12-tiled-layer", "6.12-tiled-layer-zoomed-out"] {
            let figure = try #require(Gallery.figure(named: name))
            let drawn = try figure.render(mediaDirectory: mediaDirectory)
            let loaded = try figure.render(mediaDirectory: dir)
            var worst = 0, total = 0
            for y in 0..<drawn.height {
                for x in 0..<drawn.width {
                    let a = drawn.pixel(x: x, y: y), b = loaded.pixel(x: x, y: y)
                    let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    worst = max(worst, d)
                    total += d
                }
            }
            let mean = Double(total) / Double(drawn.width * drawn.height)
            if name == "6.12-tiled-layer" {
                // At full detail the tiles are the picture's own pixels.
                #expect(worst <= 2, "\(name): worst channel difference \(worst)")
            } else {
                // Zoomed out, level 3 scales each 256² file down 8 times where the drawing scaled the vector picture:
                // thin lines alias differently (a few pixels far off), the picture is the same.
                #expect(mean <= 4, "\(name): mean channel difference \(mean), worst \(worst)")
            }
        }
    }
}
