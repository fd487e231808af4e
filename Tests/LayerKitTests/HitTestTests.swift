import Foundation
import LayerGraphics
import LayerKit
import Testing

// hitTest(_:) (the point in the superlayer's space) and contains(_:) (in the layer's own space).

/// Two overlapping squares on a 200×200 root: `back` at (10,10,50,50), then `front` at (40,40,50,50).
private func overlapping() -> (root: Layer, back: Layer, front: Layer) {
    let root = rootLayer(200, 200)
    let back = sublayer(of: root, frame: Rect(x: 10, y: 10, width: 50, height: 50), name: "back")
    let front = sublayer(of: root, frame: Rect(x: 40, y: 40, width: 50, height: 50), name: "front")
    return (root, back, front)
}

@Test func containsIsInsideTheBounds() {
    let layer = Layer()
    layer.bounds = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(layer.contains(Point(x: 10, y: 20)))
    #expect(layer.contains(Point(x: 39.9, y: 59.9)))
    #expect(!layer.contains(Point(x: 40, y: 30)))
    #expect(!layer.contains(Point(x: 5, y: 30)))
}

@Test func theFrontMostLayerIsHit() {
    let (root, back, front) = overlapping()
    #expect(root.hitTest(Point(x: 45, y: 45)) === front)
    #expect(root.hitTest(Point(x: 20, y: 20)) === back)
    #expect(root.hitTest(Point(x: 150, y: 150)) === root)
    #expect(root.hitTest(Point(x: 250, y: 150)) == nil)
}

@Test func zPositionComesBeforeArrayOrder() {
    let (root, back, _) = overlapping()
    back.zPosition = 1
    #expect(root.hitTest(Point(x: 45, y: 45)) === back)
}

@Test func hiddenLayersAreNotHit() {
    let (root, back, front) = overlapping()
    front.isHidden = true
    #expect(root.hitTest(Point(x: 45, y: 45)) === back)
    root.isHidden = true
    #expect(root.hitTest(Point(x: 45, y: 45)) == nil)
}

@Test func transparentLayersAreStillHit() {
    // As Core Animation: opacity does not matter to hit testing.
    let (root, _, front) = overlapping()
    front.opacity = 0
    #expect(root.hitTest(Point(x: 45, y: 45)) === front)
}

@Test func theDeepestLayerIsHit() {
    let (root, _, front) = overlapping()
    let inner = sublayer(of: front, frame: Rect(x: 20, y: 20, width: 10, height: 10), name: "inner")
    #expect(root.hitTest(Point(x: 65, y: 65)) === inner)
    #expect(root.hitTest(Point(x: 45, y: 45)) === front)
}

@Test func thePointIsInTheSuperlayersSpace() {
    let (root, _, front) = overlapping()
    root.position = Point(x: 1000, y: 1000) // the root's superlayer space is no longer its own
    #expect(root.hitTest(Point(x: 945, y: 945)) === front)
    let inner = sublayer(of: front, frame: Rect(x: 20, y: 20, width: 10, height: 10), name: "inner")
    #expect(front.hitTest(Point(x: 65, y: 65)) === inner, "front's superlayer is the root: root coordinates")
}

@Test func masksToBoundsClipsHitTestingOfSublayers() {
    let root = rootLayer(200, 200)
    let container = sublayer(of: root, frame: Rect(x: 100, y: 100, width: 50, height: 50), name: "container")
    let pokingOut = sublayer(of: container, frame: Rect(x: 40, y: 40, width: 30, height: 30), name: "poking out")
    #expect(root.hitTest(Point(x: 145, y: 145)) === pokingOut)
    #expect(root.hitTest(Point(x: 160, y: 160)) === pokingOut)
    container.masksToBounds = true
    #expect(root.hitTest(Point(x: 145, y: 145)) === pokingOut)
    #expect(root.hitTest(Point(x: 160, y: 160)) === root, "outside the container, its sublayer is clipped away")
}

@Test func aTurnedLayerIsHitWhereItIsDrawn() {
    let root = rootLayer(200, 200)
    // 100×20 turned upright about its centre (100, 100): it covers x 90…110, y 50…150.
    let bar = sublayer(of: root, frame: Rect(x: 50, y: 90, width: 100, height: 20), name: "bar",
                       transform: .makeRotation(.pi / 2, 0, 0, 1))
    #expect(root.hitTest(Point(x: 100, y: 140)) === bar)
    #expect(root.hitTest(Point(x: 140, y: 100)) === root)
}

@Test func aScaledLayerIsHitWhereItIsDrawn() {
    let root = rootLayer(200, 200)
    let grown = sublayer(of: root, frame: Rect(x: 90, y: 90, width: 20, height: 20), name: "grown",
                         transform: .makeScale(3, 1, 1))
    #expect(root.hitTest(Point(x: 125, y: 100)) === grown)
    #expect(root.hitTest(Point(x: 100, y: 115)) === root)
}

@Test func aLayerInPerspectiveIsHitWhereItIsDrawn() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let card = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "card",
                        transform: .makeRotation(.pi / 3, 0, 1, 0))
    // The right edge shows at x = 100 + 25 / (1 + sin 60° / 10) ≈ 123.
    #expect(root.hitTest(Point(x: 122, y: 100)) === card)
    #expect(root.hitTest(Point(x: 124, y: 100)) === root)
    // The left edge comes nearer and so looks wider: x = 100 − 25 / (1 − sin 60° / 10) ≈ 72.6.
    #expect(root.hitTest(Point(x: 73, y: 100)) === card)
    #expect(root.hitTest(Point(x: 72, y: 100)) === root)
}

@Test func aLayerBehindTheEyeIsNotHit() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let behind = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "behind")
    behind.zPosition = 600
    #expect(root.hitTest(Point(x: 100, y: 100)) === root)
}

@Test func aBackFacingSingleSidedLayerIsNotHitNorAnythingOnIt() {
    let root = rootLayer(200, 200)
    let card = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "card",
                        transform: .makeRotation(.pi, 0, 1, 0))
    let onCard = sublayer(of: card, frame: Rect(x: 40, y: 40, width: 20, height: 20), name: "on card")
    #expect(root.hitTest(Point(x: 100, y: 100)) === onCard)
    #expect(root.hitTest(Point(x: 60, y: 60)) === card)
    card.isDoubleSided = false
    #expect(root.hitTest(Point(x: 100, y: 100)) === root)
    #expect(root.hitTest(Point(x: 60, y: 60)) === root)
    card.transform = .makeRotation(.pi / 4, 0, 1, 0) // still facing the viewer
    #expect(root.hitTest(Point(x: 100, y: 100)) === onCard)
}

@Test func aBackFacingSuperlayerTurnsASingleSidedSublayerAway() {
    let root = rootLayer(200, 200)
    let turned = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "turned",
                          transform: .makeRotation(.pi, 1, 0, 0))
    let single = sublayer(of: turned, frame: Rect(x: 40, y: 40, width: 20, height: 20), name: "single")
    single.isDoubleSided = false
    #expect(root.hitTest(Point(x: 100, y: 100)) === turned)
    single.transform = .makeRotation(.pi, 1, 0, 0) // turned back towards the viewer
    #expect(root.hitTest(Point(x: 100, y: 100)) === single)
}

@Test func aFlippedLayersSublayersAreHitWhereTheyShow() {
    let root = rootLayer(200, 200)
    let flipped = sublayer(of: root, frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "flipped")
    flipped.isGeometryFlipped = true
    let child = sublayer(of: flipped, frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "child")
    #expect(root.hitTest(Point(x: 5, y: 95)) === child)
    #expect(root.hitTest(Point(x: 5, y: 5)) === flipped)
}

@Test func aSublayerTransformMovesWhereSublayersAreHit() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makeScale(2, 2, 1)
    let child = sublayer(of: root, frame: Rect(x: 110, y: 110, width: 10, height: 10), name: "child")
    // (110…120) about the anchor 100, doubled: 120…140.
    #expect(root.hitTest(Point(x: 115, y: 115)) === root)
    #expect(root.hitTest(Point(x: 130, y: 130)) === child)
}

/// A layer whose shape is the disc inscribed in its bounds.
private final class DiscLayer: Layer {
    override func contains(_ p: Point) -> Bool {
        let dx = p.x - bounds.midX, dy = p.y - bounds.midY, r = bounds.width / 2
        return dx * dx + dy * dy <= r * r
    }
}

@Test func hitTestingAsksContainsSoSubclassesChooseTheirShape() {
    let root = rootLayer(200, 200)
    let disc = DiscLayer()
    disc.frame = Rect(x: 50, y: 50, width: 100, height: 100)
    root.addSublayer(disc)
    #expect(root.hitTest(Point(x: 100, y: 100)) === disc)
    #expect(root.hitTest(Point(x: 55, y: 55)) === root, "a corner of the bounds is outside the disc")
}
