@testable import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// Rendering over what a surface still shows (`render(_:into:over:)`, the exporter's frames): only what this frame
// or the last one on the surface drew above the canvas is refilled. Every frame must equal a fresh render.

/// The clipped video card of OcclusionTests (canvas, shadow, perspective, clip, border, video) on a canvas made
/// wider, plus a half-transparent badge to its right (a group: its sublayer is composited at the group's opacity),
/// on rows the card's spans do not cover.
private func movingScene() -> (root: Layer, container: Layer, badge: Layer) {
    let root = clippedVideoScene(markedOpaque: true)
    root.bounds = Rect(x: 0, y: 0, width: 180, height: 100)
    root.position = Point(x: 90, y: 50)
    let container = root.sublayers![0]
    let badge = makeLayer(Rect(x: 130, y: 4, width: 24, height: 10), background: .blue)
    badge.opacity = 0.5
    badge.addSublayer(makeLayer(Rect(x: 4, y: 2, width: 10, height: 6), background: .green))
    root.addSublayer(badge)
    return (root, container, badge)
}

/// Renders `frames` scene states into two surfaces in turn (as the exporter does), each over what it last
/// showed, and returns the frames that differ from a fresh render, with their worst channel difference.
private func framesDifferingFromFreshRenders(_ root: Layer, frames: Int, compositor: Compositor,
                                              change: (Int) -> Void) -> [String] {
    let w = Int(root.bounds.width), h = Int(root.bounds.height)
    let pool = [Surface(width: w, height: h), Surface(width: w, height: h)]
    var shows: [Backdrop?] = [nil, nil]
    var differing: [String] = []
    for i in 0..<frames {
        change(i)
        let snapshot = root.snapshot()
        shows[i % 2] = compositor.render(snapshot, into: pool[i % 2], over: shows[i % 2])
        let fresh = compositor.render(snapshot, width: w, height: h)
        let (worst, count) = difference(pool[i % 2], fresh)
        if count > 0 { differing.append("frame \(i): \(count) pixels, worst \(worst)") }
    }
    return differing
}

@Test(arguments: [1, 2])
func framesDrawnOverTheLastOneOnTheSurfaceEqualFreshRenders(threads: Int) {
    // The card turns and moves (frame 5 jumps it across, leaving its old place and shadow to be refilled), the
    // badge slides; from frame 8 the canvas is another colour (everything is refilled once).
    let (root, container, badge) = movingScene()
    let start = container.position
    let differing = framesDifferingFromFreshRenders(root, frames: 12, compositor: Compositor(threads: threads)) { i in
        container.transform = Transform3D.makeRotation(Double(i) * 0.2, 0, 1, 0).concatenating(.makePerspective(distance: 300))
        container.position = Point(x: start.x + (i >= 5 ? -25 : Double(i)), y: start.y + Double(i % 3))
        badge.position.x += 3
        if i == 8 { root.backgroundColor = .black }
    }
    #expect(differing.isEmpty, "\(differing)")
}

@Test func theBackdropHoldsOnlyTheRowsAndColumnsDrawnAboveTheCanvas() {
    // A 20 × 10 layer at (30, 40) on a 100 × 80 canvas: rows far from it are canvas alone, and its rows' stretch
    // is the layer with at most the polygon's antialiasing margin (a stretch spanning the row would pass the
    // equality test above while saving nothing).
    let root = canvas(100, 80, background: .white)
    root.addSublayer(makeLayer(Rect(x: 30, y: 40, width: 20, height: 10), background: .red))
    let surface = Surface(width: 100, height: 80)
    let shows = Compositor().render(root.snapshot(), into: surface, over: nil)
    guard let shows else { Issue.record("an opaque canvas colour gives a backdrop"); return }
    #expect(shows.color == PremultipliedColor(bgra: 0xffff_ffff).bgra)
    for y in [0, 20, 36, 55, 79] { #expect(shows.span(row: y) == nil, "row \(y): \(String(describing: shows.span(row: y)))") }
    let middle = shows.span(row: 45)
    #expect(middle != nil && middle!.start >= 27 && middle!.start <= 30 && middle!.end >= 50 && middle!.end <= 53,
            "row 45: \(String(describing: middle))")
}

@Test func aCanvasThatIsNotOneOpaqueColourIsRenderedWhole() {
    // Half-transparent, absent or drawn with contents: no backdrop, and the pixels of a fresh render.
    for background in [Color(red: 1, green: 0, blue: 0, alpha: 0.5), nil] {
        let root = canvas(40, 30, background: background)
        root.addSublayer(makeLayer(Rect(x: 5, y: 5, width: 10, height: 10), background: .red))
        let surface = Surface(width: 40, height: 30)
        surface.clear(to: .green)   // what an earlier frame left: must not show through
        #expect(Compositor().render(root.snapshot(), into: surface, over: nil) == nil)
        #expect(difference(surface, render(root)).differing == 0)
    }
    let root = canvas(40, 30, background: .white)
    root.contents = .image(testImage(width: 8, height: 6))
    #expect(Compositor().render(root.snapshot(), into: Surface(width: 40, height: 30), over: nil) == nil)
}
