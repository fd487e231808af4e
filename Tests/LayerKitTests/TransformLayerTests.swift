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

/// Inside a TransformLayer the frontmost plane is hit, by depth where the line of sight meets it, not by tree
/// order: the compositor sorts these planes by depth, so hit testing must agree with what is seen.
@Test(arguments: [false, true])
func transformLayerHitsTheNearestPlane(turned: Bool) {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
    root.position = Point(x: 100, y: 100)
    root.sublayerTransform = .makePerspective(distance: 500)
    let t = TransformLayer()
    t.frame = Rect(x: 50, y: 50, width: 100, height: 100)
    // Half a turn about y brings the back plane to the front.
    if turned { t.transform = .makeRotation(.pi, 0, 1, 0) }
    let front = Layer(), back = Layer()
    front.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    back.frame = front.frame
    front.zPosition = 20
    back.zPosition = -20
    t.addSublayer(front)
    t.addSublayer(back) // last in tree order: a flattened hit test would pick it
    root.addSublayer(t)
    #expect(root.hitTest(Point(x: 100, y: 100)) === (turned ? back : front))
    // Nested transform layers extend the same space.
    let outer = TransformLayer()
    outer.frame = root.bounds
    t.removeFromSuperlayer()
    outer.addSublayer(t) // the outer layer fills the root: t keeps its position
    root.addSublayer(outer)
    #expect(root.hitTest(Point(x: 100, y: 100)) === (turned ? back : front))
}
