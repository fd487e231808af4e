import Foundation
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §5: scroll(to:), scroll(toRect:), scrollMode, and the Layer-side scroll(_:),
// scrollRectToVisible(_:) and visibleRect. (Pixels: LayerCompositorTests/ScrollLayerRenderTests.swift.)

/// A 100×80 scroll layer at (10,10) on a 300×300 root, holding a 400×400 content layer at its origin.
private func scrollScene() -> (root: Layer, scroll: ScrollLayer, content: Layer) {
    let root = rootLayer(300, 300)
    let scroll = ScrollLayer()
    scroll.frame = Rect(x: 10, y: 10, width: 100, height: 80)
    root.addSublayer(scroll)
    let content = sublayer(of: scroll, frame: Rect(x: 0, y: 0, width: 400, height: 400), name: "content")
    return (root, scroll, content)
}

@Suite("ScrollLayer")
struct ScrollLayerTests {
    @Test func defaultsAreBothAxesAndClipping() {
        let s = ScrollLayer()
        #expect(s.scrollMode == .both)
        #expect(s.masksToBounds, "ours: on by default, as OpenCoreAnimation")
    }

    @Test func scrollToMovesTheBoundsOriginAlongAllowedAxesOnly() {
        let (_, scroll, _) = scrollScene()
        scroll.scroll(to: Point(x: 30, y: 40))
        #expect(scroll.bounds.origin == Point(x: 30, y: 40))
        #expect(scroll.bounds.size == Size(width: 100, height: 80), "only the origin moves")
        scroll.scrollMode = .vertically
        scroll.scroll(to: Point(x: 5, y: 6))
        #expect(scroll.bounds.origin == Point(x: 30, y: 6), ".vertically ignores x")
        scroll.scrollMode = .horizontally
        scroll.scroll(to: Point(x: 7, y: 8))
        #expect(scroll.bounds.origin == Point(x: 7, y: 6), ".horizontally ignores y")
        scroll.scrollMode = .none
        scroll.scroll(to: Point(x: 1, y: 1))
        #expect(scroll.bounds.origin == Point(x: 7, y: 6), ".none changes nothing")
        scroll.scrollMode = .both
        scroll.scroll(to: Point(x: -1e6, y: 1e6))
        #expect(scroll.bounds.origin == Point(x: -1e6, y: 1e6), "no clamping: content can scroll away")
        scroll.scroll(to: Point(x: .nan, y: 3))
        #expect(scroll.bounds.origin == Point(x: -1e6, y: 3), "a NaN coordinate is refused on its axis only")
    }

    @Test func scrollToRectMovesTheLeast() {
        let (_, scroll, _) = scrollScene()
        scroll.scroll(toRect: Rect(x: 10, y: 10, width: 20, height: 20))
        #expect(scroll.bounds.origin == .zero, "already visible: no change")
        scroll.scroll(toRect: Rect(x: 150, y: 100, width: 20, height: 20))
        #expect(scroll.bounds.origin == Point(x: 70, y: 40), "past the far edge: its far side at the far edge")
        scroll.scroll(toRect: Rect(x: 20, y: 10, width: 10, height: 10))
        #expect(scroll.bounds.origin == Point(x: 20, y: 10), "before the near edge: its near side at the near edge")
        scroll.scroll(toRect: Rect(x: 200, y: 300, width: 500, height: 10))
        #expect(scroll.bounds.origin == Point(x: 200, y: 230), "longer than the view: its start")
        scroll.scroll(toRect: Rect(x: .infinity, y: 0, width: 1, height: 1))
        #expect(scroll.bounds.origin == Point(x: 200, y: 230), "a non-finite rect is refused")
    }

    @Test func aScrolledOriginMovesSublayersForHitTestsAndConversions() {
        let (root, scroll, content) = scrollScene()
        let dot = sublayer(of: content, frame: Rect(x: 130, y: 140, width: 10, height: 10), name: "dot")
        #expect(root.hitTest(Point(x: 45, y: 55)) === content, "before scrolling, the content is under (45, 55)")
        scroll.scroll(to: Point(x: 100, y: 100))
        // The dot at content (130,140) now shows at scroll (30,40) → root (40,50).
        #expect(root.hitTest(Point(x: 45, y: 55)) === dot)
        #expect(content.convert(Point(x: 30, y: 40), to: root) == Point(x: -60, y: -50))
        #expect(content.convert(Point(x: 130, y: 140), to: root) == Point(x: 40, y: 50))
    }

    @Test func scrollRectToVisibleFromANestedSublayerScrollsTheNearestAncestor() {
        let (root, outer, content) = scrollScene()
        let inner = ScrollLayer()
        inner.frame = Rect(x: 50, y: 50, width: 40, height: 40)
        content.addSublayer(inner)
        let leaf = sublayer(of: inner, frame: Rect(x: 0, y: 0, width: 200, height: 200), name: "leaf")
        leaf.scrollRectToVisible(Rect(x: 60, y: 10, width: 10, height: 10))
        #expect(inner.bounds.origin == Point(x: 30, y: 0), "the inner scroll layer moves by the least amount")
        #expect(outer.bounds.origin == .zero, "the outer one is not touched")
        content.scrollRectToVisible(Rect(x: 200, y: 0, width: 20, height: 20))
        #expect(outer.bounds.origin == Point(x: 120, y: 0))
        leaf.scroll(Point(x: 5, y: 7))
        #expect(inner.bounds.origin == Point(x: 5, y: 7), "scroll(_:) puts the point at the ancestor's origin")
        root.scrollRectToVisible(Rect(x: 0, y: 0, width: 10, height: 10))
        root.scroll(Point(x: 9, y: 9))
        #expect(root.bounds.origin == .zero, "no scroll layer above: nothing")
        #expect(outer.bounds.origin == Point(x: 120, y: 0), "a scroll layer does not scroll itself")
    }

    @Test func visibleRectIsTheScrollLayersWindowInTheLayersSpace() {
        let (root, scroll, content) = scrollScene()
        #expect(content.visibleRect == Rect(x: 0, y: 0, width: 100, height: 80))
        scroll.scroll(to: Point(x: 30, y: 20))
        #expect(content.visibleRect == Rect(x: 30, y: 20, width: 100, height: 80))
        scroll.scroll(to: Point(x: 350, y: -50))
        #expect(content.visibleRect == Rect(x: 350, y: 0, width: 50, height: 30), "cut by the layer's own bounds")
        #expect(root.visibleRect == root.bounds, "no scroll layer above: the bounds")
        scroll.scroll(to: Point(x: 1000, y: 0))
        #expect(content.visibleRect.width == 0, "scrolled away: nothing visible")
    }
}

@Suite("ReplicatorLayer properties")
struct ReplicatorPropertyTests {
    @Test func defaultsFollowTheHeader() {
        let r = ReplicatorLayer()
        #expect(r.instanceCount == 1 && r.instanceDelay == 0 && r.instanceTransform == .identity)
        #expect(r.instanceColor == nil && r.preservesDepth == false)
        #expect(r.instanceRedOffset == 0 && r.instanceGreenOffset == 0 && r.instanceBlueOffset == 0 && r.instanceAlphaOffset == 0)
    }

    @Test func everyInstancePropertyReachesThePayload() throws {
        let root = rootLayer(100, 100)
        let r = ReplicatorLayer()
        root.addSublayer(r)
        r.instanceCount = 4
        r.instanceDelay = 0.25
        r.instanceTransform = .makeTranslation(3, 4, 0)
        r.instanceColor = Color(red: 0.5, green: 0.6, blue: 0.7, alpha: 0.8)
        r.instanceRedOffset = 0.1
        r.instanceGreenOffset = -0.1
        r.instanceBlueOffset = 0.2
        r.instanceAlphaOffset = -0.3
        r.preservesDepth = true
        let p = try #require(root.snapshot().sublayers[0].payload as? ReplicatorPayload)
        #expect(p.instanceCount == 4 && p.instanceDelay == 0.25 && p.instanceTransform == .makeTranslation(3, 4, 0))
        #expect(p.preservesDepth && root.snapshot().sublayers[0].preserves3D)
        let c = p.color(ofInstance: 2)
        #expect(abs(c.red - 0.7) < 1e-9 && abs(c.green - 0.4) < 1e-9 && abs(c.blue - 1) < 1e-9 && abs(c.alpha - 0.2) < 1e-9,
                "C_k = clamp(colour + k·offsets): \(c)")
        #expect(p.color(ofInstance: 3).alpha == 0, "clamped at 0")
    }

    @Test func instanceCountAnimatesAsTheFloorAndTheOthersInterpolate() throws {
        let root = rootLayer(100, 100)
        let r = ReplicatorLayer()
        root.addSublayer(r)
        for (key, from, to) in [("instanceCount", 0.0, 10.0), ("instanceRedOffset", 0.0, -1.0), ("instanceDelay", 0.0, 2.0)] {
            let a = BasicAnimation(keyPath: key)
            a.fromValue = from
            a.toValue = to
            a.duration = 1
            r.add(a, forKey: key)
        }
        let c = BasicAnimation(keyPath: "instanceColor")
        c.fromValue = Color.white
        c.toValue = Color.black
        c.duration = 1
        r.add(c, forKey: "instanceColor")
        let t = BasicAnimation(keyPath: "instanceTransform")
        t.fromValue = Transform3D.identity
        t.toValue = Transform3D.makeTranslation(10, 0, 0)
        t.duration = 1
        r.add(t, forKey: "instanceTransform")
        _ = root.snapshot(at: 0) // the animations begin here
        let p = try #require(root.snapshot(at: 0.47).sublayers[0].payload as? ReplicatorPayload)
        #expect(p.instanceCount == 4, "floor(4.7)")
        #expect(abs(p.offsets.red + 0.47) < 1e-6 && abs(p.instanceDelay - 0.94) < 1e-6)
        #expect(abs(p.instanceColor.red - 0.53) < 0.01)
        #expect(abs(p.instanceTransform.m41 - 4.7) < 1e-6)
        #expect(r.instanceCount == 1, "the model is untouched")
    }

    @Test func hitTestingSeesInstanceZeroOnly() {
        let root = rootLayer(100, 100)
        let r = ReplicatorLayer()
        r.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        r.instanceCount = 3
        r.instanceTransform = .makeTranslation(30, 0, 0)
        root.addSublayer(r)
        let square = sublayer(of: r, frame: Rect(x: 0, y: 0, width: 20, height: 20), name: "square")
        #expect(root.hitTest(Point(x: 10, y: 10)) === square, "instance 0 is the layer")
        #expect(root.hitTest(Point(x: 40, y: 10)) === r, "instance 1 is only drawn: the replicator's own bounds are hit")
        #expect(square.convert(Point(x: 0, y: 0), to: root) == Point(x: 0, y: 0))
    }
}
