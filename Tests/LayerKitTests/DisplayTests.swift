import LayerGraphics
import LayerKit
import Testing

// setNeedsDisplay / displayIfNeeded / display() / draw(in:), the delegate, contentsScale and
// needsDisplayOnBoundsChange.

/// Fills the left half of the layer red and counts its draws.
private final class HalfRedDelegate: LayerDelegate {
    var draws = 0
    var willDraws = 0
    func draw(_ layer: Layer, in context: DrawingContext) {
        draws += 1
        context.setFillColor(.red)
        let b = layer.bounds
        context.fill(Rect(x: b.minX, y: b.minY, width: b.width / 2, height: b.height))
    }
    func layerWillDraw(_ layer: Layer) { willDraws += 1 }
}

private func image(of layer: Layer) -> Image? {
    if case .image(let image)? = layer.contents { return image }
    return nil
}

private let opaqueRed = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)

@Test func aNewLayerDoesNotNeedDisplay() {
    let layer = Layer()
    #expect(!layer.needsDisplay())
    layer.displayIfNeeded()
    #expect(layer.contents == nil)
}

@Test func theDelegateDrawsTheContents() throws {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 8, height: 4)
    let delegate = HalfRedDelegate()
    layer.delegate = delegate
    layer.setNeedsDisplay()
    #expect(layer.needsDisplay())
    layer.displayIfNeeded()
    #expect(!layer.needsDisplay())
    #expect(delegate.draws == 1 && delegate.willDraws == 1)
    let drawn = try #require(image(of: layer))
    #expect(drawn.width == 8 && drawn.height == 4)
    #expect(drawn.pixel(x: 0, y: 0) == opaqueRed)
    #expect(drawn.pixel(x: 3, y: 3) == opaqueRed)
    #expect(drawn.pixel(x: 4, y: 0) == .clear)
    #expect(drawn.pixel(x: 7, y: 3) == .clear)
    layer.displayIfNeeded()
    #expect(delegate.draws == 1, "drawn once until marked again")
}

@Test func contentsScaleScalesTheBackingStore() throws {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 8, height: 4)
    layer.contentsScale = 2
    let delegate = HalfRedDelegate()
    layer.delegate = delegate
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let drawn = try #require(image(of: layer))
    #expect(drawn.width == 16 && drawn.height == 8)
    #expect(drawn.pixel(x: 7, y: 7) == opaqueRed)
    #expect(drawn.pixel(x: 8, y: 0) == .clear)
}

@Test func drawingHappensInTheBoundsSpace() throws {
    let layer = Layer()
    layer.bounds = Rect(x: 100, y: 50, width: 8, height: 4)
    let delegate = HalfRedDelegate() // the layer holds it weakly
    layer.delegate = delegate
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let drawn = try #require(image(of: layer))
    #expect(drawn.pixel(x: 0, y: 0) == opaqueRed)
    #expect(drawn.pixel(x: 4, y: 0) == .clear)
    #expect(delegate.draws == 1)
}

/// Sets the contents itself: draw(in:) must not run.
private final class DisplayingDelegate: LayerDelegate {
    let picture = Image(width: 2, height: 2, color: .blue)
    var drawn = false
    func display(_ layer: Layer) { layer.contents = .image(picture) }
    func draw(_ layer: Layer, in context: DrawingContext) { drawn = true }
}

@Test func aDelegateThatDisplaysTakesOver() {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 8, height: 4)
    let delegate = DisplayingDelegate()
    layer.delegate = delegate
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    #expect(image(of: layer) === delegate.picture)
    #expect(!delegate.drawn)
}

/// Draws a green frame around itself without a delegate.
private final class FramedLayer: Layer {
    override func draw(in context: DrawingContext) {
        context.setStrokeColor(.green)
        context.setLineWidth(2)
        context.stroke(bounds.insetBy(dx: 1, dy: 1))
    }
}

@Test func aSubclassDrawsByOverridingDrawIn() throws {
    let layer = FramedLayer()
    layer.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let drawn = try #require(image(of: layer))
    #expect(drawn.pixel(x: 0, y: 5) == PremultipliedColor(r: 0, g: 255, b: 0, a: 255))
    #expect(drawn.pixel(x: 5, y: 5) == .clear)
}

@Test func emptyBoundsLeaveNoContents() {
    let layer = Layer()
    layer.contents = .image(Image(width: 1, height: 1, color: .red))
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    #expect(layer.contents == nil)
}

@Test func aBoundsChangeRedrawsOnlyWhenAskedTo() {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 8, height: 4)
    layer.bounds.size = Size(width: 10, height: 4)
    #expect(!layer.needsDisplay())
    layer.needsDisplayOnBoundsChange = true
    layer.bounds.size = Size(width: 12, height: 4)
    #expect(layer.needsDisplay())
    layer.displayIfNeeded()
    layer.bounds.origin = Point(x: 1, y: 1)
    #expect(layer.needsDisplay(), "the drawing is relative to the bounds' origin too")
    layer.displayIfNeeded()
    layer.position = Point(x: 50, y: 50)
    #expect(!layer.needsDisplay())
}

@Test func aSnapshotDisplaysWhatNeedsItAfterLayout() throws {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    let child = Layer()
    child.needsDisplayOnBoundsChange = true
    let delegate = HalfRedDelegate()
    child.delegate = delegate
    root.addSublayer(child)
    let masked = Layer()
    masked.bounds = Rect(x: 0, y: 0, width: 4, height: 4)
    masked.delegate = delegate
    masked.setNeedsDisplay()
    root.mask = masked
    // Layout gives the child its size, which asks for display: the snapshot must show the drawing at that size.
    final class Sizer: LayoutManager {
        func layoutSublayers(of layer: Layer) { layer.sublayers?.first?.frame = Rect(x: 0, y: 0, width: 6, height: 2) }
    }
    root.layoutManager = Sizer()
    let snapshot = root.snapshot()
    #expect(delegate.draws == 2)
    guard case .image(let drawn)? = snapshot.sublayers[0].contents else { Issue.record("no contents"); return }
    #expect(drawn.width == 6 && drawn.height == 2)
    #expect(snapshot.mask?.contents != nil)
    _ = root.snapshot()
    #expect(delegate.draws == 2, "a second snapshot draws nothing again")
}

/// Writes a word in black, as large as the layer allows.
private final class TextDelegate: LayerDelegate {
    func draw(_ layer: Layer, in context: DrawingContext) {
        context.drawText("Hi", at: Point(x: 2, y: 2), font: "Sans Bold 14", color: .black)
    }
}

@Test func textDrawsInTheRegionAskedFor() throws {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 40, height: 24)
    layer.contentsScale = 2
    let delegate = TextDelegate()
    layer.delegate = delegate
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let drawn = try #require(image(of: layer))
    var inked = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min, count: 0)
    for y in 0..<drawn.height {
        for x in 0..<drawn.width where drawn.pixel(x: x, y: y).a > 128 {
            inked = (min(inked.minX, x), min(inked.minY, y), max(inked.maxX, x), max(inked.maxY, y), inked.count + 1)
        }
    }
    #expect(inked.count > 40, "the text left ink")
    // At 2× the text box starts at pixel (4, 4); two 14-point letters fit well inside 40 points.
    #expect(inked.minX >= 4 && inked.minY >= 4)
    #expect(inked.maxX < 60 && inked.maxY < 44)
}
