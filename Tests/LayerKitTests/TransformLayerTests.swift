import LayerGraphics
import LayerKit
import Testing

@Test func transformLayerSnapshotPreserves3D() {
    let t = TransformLayer()
    let child = Layer()
    t.addSublayer(child)
    let s = t.snapshot()
    #expect(s.preserves3D)
    #expect(!s.sublayers[0].preserves3D, "a plain layer flattens its sublayers")
}

@Test func transformLayerIsNeverHitItself() {
    // Only its sublayers are hit (Core Animation never hit-tests the transform layer's own plane),
    // and its masksToBounds clips nothing.
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
    root.position = Point(x: 100, y: 100)
    let t = TransformLayer()
    t.frame = Rect(x: 50, y: 50, width: 100, height: 100)
    t.masksToBounds = true
    let child = Layer()
    child.frame = Rect(x: -20, y: 10, width: 40, height: 40)
    t.addSublayer(child)
    root.addSublayer(t)
    #expect(root.hitTest(Point(x: 60, y: 70)) === child)
    #expect(root.hitTest(Point(x: 40, y: 70)) === child, "outside the transform layer's bounds, still hit")
    #expect(root.hitTest(Point(x: 120, y: 120)) === root, "inside its bounds, away from the child: not the transform layer")
}
