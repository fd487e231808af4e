// Listing 6.12 in a window, at the scale issue 18 asks for: a 20,000 × 20,000-point drawn tiled layer in a scroll
// layer. Drag with the left mouse button to pan, turn the wheel to zoom (levels of detail 1 … 1/64). Tiles are drawn
// on worker threads and fade in (the window's compositor draws them in the background); only the visible tiles
// and a one-tile margin are drawn or kept (TileCache+Background.swift states the bound).
//
//     TiledViewer [--size WxH] [--tiles PREFIX] [--auto-pan] [--seconds N]
//     TiledViewer --bench SECONDS [--size WxH]
//
// --tiles PREFIX shows TileCutter's output (PREFIX_COL_ROW.png, 256-pixel tiles) instead of the drawn picture, the
// layer then the cut image's size (from the tiles found). --auto-pan pans by itself for 3 s, then zooms out (for a
// screenshot under Xvfb);
// --seconds quits after N seconds. --bench pans the picture headless in a window-like loop (a background-tile
// compositor, no waiting for tiles) after the first tiles are drawn, and prints frames per second.
import CSDL2
import Foundation
import LayerCompositor
import LayerDisplay
import LayerGallery
import LayerGraphics
import LayerKit
import LayerMedia

/// The 20,000² picture: cells of 500 points tinted by position over a grid of 100-point lines, each cell with a ring
/// and its coordinates. Thread-safe (it only draws into the tile's own context), as §6 asks.
@Sendable func drawHugePicture(_ c: DrawingContext, _ request: TileRequest) {
    let r = request.rect, cell = 500.0
    let c0 = Int((r.minX / cell).rounded(.down)), c1 = Int(((r.maxX / cell).rounded(.up))) - 1
    let r0 = Int((r.minY / cell).rounded(.down)), r1 = Int(((r.maxY / cell).rounded(.up))) - 1
    guard c0 <= c1, r0 <= r1 else { return }
    let cells = (r0...r1).flatMap { row in (c0...c1).map { (x: Double($0) * cell, y: Double(row) * cell) } }
    for (x, y) in cells {
        c.setFillColor(Color(red: 0.2 + 0.6 * x / 20_000, green: 0.25 + 0.5 * y / 20_000, blue: 0.85 - 0.6 * x / 20_000))
        c.fill(Rect(x: x, y: y, width: cell, height: cell))
    }
    c.setFillColor(Color(white: 0, alpha: 0.3))
    var gx = (r.minX / 100).rounded(.down) * 100
    while gx <= r.maxX { c.fill(Rect(x: gx - 1, y: r.minY, width: 2, height: r.height)); gx += 100 }
    var gy = (r.minY / 100).rounded(.down) * 100
    while gy <= r.maxY { c.fill(Rect(x: r.minX, y: gy - 1, width: r.width, height: 2)); gy += 100 }
    c.setStrokeColor(Color(white: 1, alpha: 0.8))
    c.setLineWidth(6)
    for (x, y) in cells {
        c.strokeEllipse(in: Rect(x: x + 50, y: y + 50, width: 400, height: 400))
        // Labels only where they can be read (a coarse level draws the cells without them).
        if request.scale >= 0.25 {
            c.drawText("\(Int(x)), \(Int(y))", at: Point(x: x + 130, y: y + 220), font: "Sans Bold 40", color: .white)
        }
    }
}

/// The cut image's size in points, from the tiles found at `prefix` (columns along row 0, rows along column 0).
func cutImageSize(prefix: String) -> Size? {
    var width = 0.0, height = 0.0, n = 0
    while let image = try? Image(contentsOfPNG: TileCutter.fileName(prefix, column: n, row: 0)) { width += Double(image.width); n += 1 }
    n = 0
    while let image = try? Image(contentsOfPNG: TileCutter.fileName(prefix, column: 0, row: n)) { height += Double(image.height); n += 1 }
    return width > 0 && height > 0 ? Size(width: width, height: height) : nil
}

var size = (width: 960, height: 540)
var tilesPrefix: String?
var autoPan = false
var seconds: Double?
var benchSeconds: Double?
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value() -> String {
    guard let v = arguments.popFirst() else { FileHandle.standardError.write(Data("TiledViewer: a flag lacks its value\n".utf8)); exit(2) }
    return v
}
while let a = arguments.popFirst() {
    switch a {
    case "--size":
        let parts = value().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...8192).contains(parts[0]), (16...8192).contains(parts[1]) else {
            FileHandle.standardError.write(Data("TiledViewer: --size WxH, 16…8192 each\n".utf8)); exit(2)
        }
        size = (parts[0], parts[1])
    case "--tiles": tilesPrefix = value()
    case "--auto-pan": autoPan = true
    case "--seconds": seconds = Double(value()).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    case "--bench": benchSeconds = Double(value()).flatMap { $0.isFinite && $0 > 0 ? min($0, 3600) : nil } ?? 5
    default: FileHandle.standardError.write(Data("usage: TiledViewer [--size WxH] [--tiles PREFIX] [--auto-pan] [--seconds N] | --bench SECONDS\n".utf8)); exit(2)
    }
}

let root = Layer()
root.backgroundColor = Color(white: 0.15)
let scroll = ScrollLayer()
scroll.masksToBounds = true
let tiled = TiledLayer()
tiled.anchorPoint = .zero
tiled.position = .zero
if let tilesPrefix {
    guard let cut = cutImageSize(prefix: tilesPrefix) else {
        FileHandle.standardError.write(Data("TiledViewer: no tile \(TileCutter.fileName(tilesPrefix, column: 0, row: 0))\n".utf8)); exit(1)
    }
    tiled.bounds = Rect(x: 0, y: 0, width: cut.width, height: cut.height)
    tiled.levelsOfDetail = 4
    tiled.drawTile = TileCutter.drawing(prefix: tilesPrefix)
} else {
    tiled.bounds = Rect(x: 0, y: 0, width: 20_000, height: 20_000)
    tiled.levelsOfDetail = 7 // down to 1/64: the whole picture in a window of 300 pixels
    tiled.drawTile = drawHugePicture
}
scroll.addSublayer(tiled)
root.addSublayer(scroll)
var offset = Point(x: 9_000, y: 9_000)
var zoom = 1.0
@MainActor func layout(_ width: Int, _ height: Int) {
    root.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    scroll.frame = root.bounds
}
/// Pans and zooms at once, without implicit animations (a drag follows the mouse).
@MainActor func show() {
    let extent = tiled.bounds.size
    offset = Point(x: min(max(offset.x, -200), extent.width * zoom - 200), y: min(max(offset.y, -200), extent.height * zoom - 200))
    Transaction.withoutActions {
        tiled.transform = Transform3D.makeScale(zoom, zoom, 1)
        scroll.scroll(to: offset)
    }
}
if tilesPrefix != nil { offset = .zero }
Transaction.withoutActions { layout(size.width, size.height) }
show()

if let benchSeconds {
    // A window-like loop: a background-tile compositor, one frame after another, never waiting for tiles.
    let compositor = Compositor(tiles: .background())
    let surface = Surface(width: size.width, height: size.height)
    compositor.render(root.snapshot(), into: surface)
    compositor.waitForTiles(timeout: 120)
    let began = Date()
    var frames = 0
    while Date().timeIntervalSince(began) < benchSeconds {
        offset.x += 4; offset.y += 2 // 240 × 120 points a second at 60 frames/s
        show()
        compositor.render(root.snapshot(), into: surface)
        frames += 1
    }
    let elapsed = Date().timeIntervalSince(began)
    print(String(format: "tiled pan %dx%d: %d frames in %.2f s, %.1f frames/s", size.width, size.height, frames, elapsed, Double(frames) / elapsed))
    exit(0)
}

var options = PlaybackSession.Options(title: "TiledViewer — drag to pan, wheel to zoom", range: PlaybackRange(start: 0, end: .infinity, loops: false),
                                      frameRate: nil)
options.showsOSD = false
let session = try PlaybackSession(root: root, size: size, player: nil, audioPath: nil, options: options) { w, h in layout(w, h) }
session.onTick = { state in
    if let seconds, state.wallSeconds >= seconds { var quit = SDL_Event(); quit.type = SDL_QUIT.rawValue; SDL_PushEvent(&quit) }
    var moved = false
    if autoPan {
        // Pans for three seconds, then zooms out by half a second, about the window's middle, to a sixteenth.
        let t = state.wallSeconds, mid = Point(x: Double(size.width) / 2, y: Double(size.height) / 2)
        zoom = max(pow(0.5, max(0, t - 3)), 1.0 / 16)
        let centre = Point(x: 9_000 + 400 * min(t, 3) + mid.x, y: 9_000 + 150 * min(t, 3) + mid.y)
        offset = Point(x: centre.x * zoom - mid.x, y: centre.y * zoom - mid.y)
        moved = true
    }
    // The session reads keys; mouse motion and the wheel are the viewer's, taken before it reads the rest.
    var e = SDL_Event()
    while SDL_PeepEvents(&e, 1, SDL_GETEVENT, SDL_MOUSEMOTION.rawValue, SDL_MOUSEMOTION.rawValue) > 0 {
        if e.motion.state & 1 != 0 /* SDL_BUTTON_LMASK */ {
            offset.x -= Double(e.motion.xrel)
            offset.y -= Double(e.motion.yrel)
            moved = true
        }
    }
    while SDL_PeepEvents(&e, 1, SDL_GETEVENT, SDL_MOUSEWHEEL.rawValue, SDL_MOUSEWHEEL.rawValue) > 0 {
        let old = zoom
        zoom = min(max(zoom * pow(1.25, Double(e.wheel.y)), 1.0 / 64), 4)
        // Zoom about the middle of the window.
        let mid = Point(x: Double(size.width) / 2, y: Double(size.height) / 2)
        offset = Point(x: (offset.x + mid.x) * zoom / old - mid.x, y: (offset.y + mid.y) * zoom / old - mid.y)
        moved = true
    }
    if moved { show(); session.requestFrame() }
}
_ = session.run()
