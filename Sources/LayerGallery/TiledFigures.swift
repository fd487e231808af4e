import Foundation
import LayerGraphics
import LayerKit

/// Listing 6.11's picture, made here instead of loaded: a 2048-point square of 8 × 8 tinted squares of 256 points,
/// each marked with its column (dots along the top) and row (dots down the left), under rings centred on the
/// picture, so that a seam or a misplaced tile shows. Drawn in layer points into any clip: a tile draws only its part.
func drawTileCutterPicture(_ c: DrawingContext, _ request: TileRequest) {
    let side = 256.0
    // The squares the clip meets (listing 6.12 takes the tile's index from the clip rect the same way).
    let r = request.rect
    for row in Int(r.minY / side)...Int(min(7, (r.maxY - 1e-9) / side)) {
        for column in Int(r.minX / side)...Int(min(7, (r.maxX - 1e-9) / side)) {
            let x = Double(column) * side, y = Double(row) * side
            c.setFillColor(Color(red: 0.25 + 0.09 * Double(column), green: 0.35 + 0.07 * Double(row), blue: 0.9 - 0.08 * Double(column)))
            c.fill(Rect(x: x, y: y, width: side, height: side))
            c.setStrokeColor(Color(white: 1, alpha: 0.6))
            c.setLineWidth(4)
            c.stroke(Rect(x: x + 2, y: y + 2, width: side - 4, height: side - 4))
            c.setFillColor(Art.ink)
            for k in 0...column { c.fillEllipse(in: Rect(x: x + 24 + Double(k) * 26, y: y + 16, width: 16, height: 16)) }
            for k in 0...row { c.fillEllipse(in: Rect(x: x + 16, y: y + 50 + Double(k) * 24, width: 14, height: 14)) }
        }
    }
    c.setStrokeColor(Color(red: 1, green: 0.85, blue: 0.2))
    c.setLineWidth(24)
    for k in 1...5 {
        let radius = Double(k) * 190
        c.strokeEllipse(in: Rect(x: 1024 - radius, y: 1024 - radius, width: 2 * radius, height: 2 * radius))
    }
}

/// Listing 6.12: a 2048-point tiled layer (tiles of 256 pixels drawn on demand) in a 216-point scroll view, scrolled
/// to `offset`, the whole shown at `zoom` (the scroll view's zoom, a scale of the tiled layer; it picks the level of
/// detail). As in the book, the tiles are TileCutter's files when the media directory has them
/// (`tiles/picture_00_00.png` …, listing 6.11's output); otherwise the picture is drawn.
private func tiledLayerFigure(name: String, title: String, offset: Point, zoom: Double) -> Figure {
    Figure(name: name, title: title, width: 256, height: 256) { media in
        let screen = Layer()
        screen.backgroundColor = Color(white: 0.85)
        let scrollView = ScrollLayer()
        scrollView.frame = Rect(x: 20, y: 20, width: 216, height: 216)
        scrollView.masksToBounds = true
        scrollView.backgroundColor = Color(white: 0.3)
        let tileLayer = TiledLayer()
        tileLayer.anchorPoint = .zero
        tileLayer.position = .zero
        tileLayer.bounds = Rect(x: 0, y: 0, width: 2048, height: 2048)
        tileLayer.transform = Transform3D.makeScale(zoom, zoom, 1)
        tileLayer.levelsOfDetail = 4
        let cut = ((media as NSString).appendingPathComponent("tiles") as NSString).appendingPathComponent("picture")
        tileLayer.drawTile = FileManager.default.fileExists(atPath: TileCutter.fileName(cut, column: 0, row: 0))
            ? TileCutter.drawing(prefix: cut) : drawTileCutterPicture
        scrollView.addSublayer(tileLayer)
        screen.addSublayer(scrollView)
        scrollView.scroll(to: offset)
        return screen
    }
}

/// Figure 6.12 scrolled into the picture: the tiles around (700, 720), at full detail.
let tiledLayerFigureScrolled = tiledLayerFigure(name: "6.12-tiled-layer", title: "Listing 6.12: a TiledLayer in a scroll view, scrolled to (700, 720)",
                                                offset: Point(x: 700, y: 720), zoom: 1)
/// Figure 6.12 zoomed out to a tenth: the whole 2048-point picture from a coarse level of detail.
let tiledLayerFigureZoomedOut = tiledLayerFigure(name: "6.12-tiled-layer-zoomed-out",
                                                 title: "Listing 6.12: the same TiledLayer zoomed out to a tenth, whole",
                                                 offset: Point(x: -4, y: -4), zoom: 0.1)
