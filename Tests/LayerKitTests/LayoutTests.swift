import LayerGraphics
import LayerKit
import Testing

// setNeedsLayout / layoutIfNeeded / layoutSublayers, the layout manager and the delegate's hook.

/// Counts its layouts into a shared log, and can place its sublayers when laid out.
private final class LoggingLayer: Layer {
    var log: Log
    var placeSublayers: ((LoggingLayer) -> Void)?
    init(_ name: String, log: Log) {
        self.log = log
        super.init()
        self.name = name
    }
    override func layoutSublayers() {
        log.entries.append(name!)
        placeSublayers?(self)
        super.layoutSublayers()
    }
}

private final class Log { var entries: [String] = [] }

@Test func aNewLayerDoesNotNeedLayout() {
    #expect(!Layer().needsLayout())
}

@Test func severalMarksLayOutOnce() {
    let log = Log()
    let layer = LoggingLayer("layer", log: log)
    layer.setNeedsLayout()
    layer.setNeedsLayout()
    #expect(layer.needsLayout())
    layer.layoutIfNeeded()
    #expect(log.entries == ["layer"])
    #expect(!layer.needsLayout())
    layer.layoutIfNeeded()
    #expect(log.entries == ["layer"], "nothing pending, nothing done")
}

@Test func layoutGoesTopDownAndReachesWhatTheParentResized() {
    let log = Log()
    let parent = LoggingLayer("parent", log: log), child = LoggingLayer("child", log: log)
    let grandchild = LoggingLayer("grandchild", log: log)
    parent.addSublayer(child)
    child.addSublayer(grandchild)
    parent.layoutIfNeeded()
    log.entries = []
    // The parent sizes the child while it lays out; the child's new size asks for its own layout, in the same pass.
    parent.placeSublayers = { $0.sublayers?.first?.bounds.size = Size(width: 50, height: 50) }
    parent.setNeedsLayout()
    parent.layoutIfNeeded()
    #expect(log.entries == ["parent", "child"])
    #expect(!child.needsLayout())
}

@Test func onlyMarkedLayersLayOut() {
    let log = Log()
    let parent = LoggingLayer("parent", log: log), child = LoggingLayer("child", log: log)
    parent.addSublayer(child)
    parent.layoutIfNeeded()
    log.entries = []
    child.setNeedsLayout()
    parent.layoutIfNeeded()
    #expect(log.entries == ["child"])
}

@Test func changingBoundsOrSublayersAsksForLayout() {
    let parent = Layer(), child = Layer()
    parent.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(parent.needsLayout())
    parent.layoutIfNeeded()
    parent.bounds.origin = Point(x: 3, y: 0)
    #expect(parent.needsLayout(), "a scrolled bounds origin asks for layout, as in Core Animation")
    parent.layoutIfNeeded()
    parent.addSublayer(child)
    #expect(parent.needsLayout())
    parent.layoutIfNeeded()
    child.removeFromSuperlayer()
    #expect(parent.needsLayout())
    parent.layoutIfNeeded()
    parent.bounds = Rect(x: 3, y: 0, width: 10, height: 10)
    #expect(!parent.needsLayout(), "the same bounds again is no change")
    parent.position = Point(x: 100, y: 100)
    #expect(!parent.needsLayout(), "moving a layer does not change its layout")
}

/// Stacks sublayers top to bottom, each as wide as the layer and 10 high.
private final class StackLayout: LayoutManager {
    var layouts = 0
    var invalidations = 0
    func layoutSublayers(of layer: Layer) {
        layouts += 1
        for (i, sublayer) in (layer.sublayers ?? []).enumerated() {
            sublayer.frame = Rect(x: 0, y: Double(i) * 10, width: layer.bounds.width, height: 10)
        }
    }
    func invalidateLayout(of layer: Layer) { invalidations += 1 }
}

/// A layout manager that only lays out: its preferred size is the protocol's default.
private final class MinimalLayout: LayoutManager {
    func layoutSublayers(of layer: Layer) {}
}

@Test func aLayoutManagerPlacesTheSublayers() {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 80, height: 100)
    let a = Layer(), b = Layer()
    layer.addSublayer(a)
    layer.addSublayer(b)
    let stack = StackLayout()
    layer.layoutManager = stack
    #expect(layer.needsLayout())
    layer.layoutIfNeeded()
    #expect(stack.layouts == 1)
    #expect(a.frame == Rect(x: 0, y: 0, width: 80, height: 10))
    #expect(b.frame == Rect(x: 0, y: 10, width: 80, height: 10))
    layer.setNeedsLayout()
    #expect(stack.invalidations >= 1)
}

/// A layout manager that prefers a fixed size.
private final class FixedSizeLayout: LayoutManager {
    func layoutSublayers(of layer: Layer) {}
    func preferredSize(of layer: Layer) -> Size? { Size(width: 42, height: 7) }
}

@Test func thePreferredFrameSizeAsksTheLayoutManager() {
    let layer = Layer()
    layer.frame = Rect(x: 0, y: 0, width: 30, height: 20)
    #expect(layer.preferredFrameSize() == Size(width: 30, height: 20))
    layer.layoutManager = MinimalLayout()
    #expect(layer.preferredFrameSize() == Size(width: 30, height: 20))
    layer.layoutManager = FixedSizeLayout()
    #expect(layer.preferredFrameSize() == Size(width: 42, height: 7))
}

/// A delegate that records the layouts it is asked for.
private final class LayoutDelegate: LayerDelegate {
    var laidOut: [String] = []
    func layoutSublayers(of layer: Layer) { laidOut.append(layer.name ?? "?") }
}

@Test func theDelegateLaysOutAfterTheLayoutManager() {
    let layer = Layer()
    layer.name = "layer"
    layer.bounds = Rect(x: 0, y: 0, width: 80, height: 100)
    let sublayer = Layer()
    layer.addSublayer(sublayer)
    let stack = StackLayout(), delegate = LayoutDelegate()
    layer.layoutManager = stack
    layer.delegate = delegate
    layer.layoutIfNeeded()
    #expect(stack.layouts == 1 && delegate.laidOut == ["layer"])
}

@Test func aSnapshotLaysTheTreeOutFirst() {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 80, height: 100)
    let sublayer = Layer()
    layer.addSublayer(sublayer)
    layer.layoutManager = StackLayout()
    let snapshot = layer.snapshot()
    #expect(!layer.needsLayout())
    #expect(snapshot.sublayers[0].bounds.size == Size(width: 80, height: 10))
}
