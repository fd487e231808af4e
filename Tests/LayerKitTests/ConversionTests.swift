import Foundation
import LayerGraphics
import LayerKit
import Testing

// convert(_:from:) / convert(_:to:): known values worked by hand, then round trips through every kind of
// transform the compositor draws.

// MARK: - Known values

@Test func convertingThroughAPlainOffset() {
    let root = rootLayer(200, 200)
    let child = sublayer(of: root, frame: Rect(x: 50, y: 40, width: 100, height: 80), name: "child")
    let other = sublayer(of: root, frame: Rect(x: 0, y: 0, width: 50, height: 50), name: "other")
    #expect(child.convert(Point(x: 10, y: 10), to: root) == Point(x: 60, y: 50))
    #expect(child.convert(Point(x: 60, y: 50), from: root) == Point(x: 10, y: 10))
    #expect(child.convert(Point(x: 10, y: 10), to: other) == Point(x: 60, y: 50))
    #expect(other.convert(Point(x: 60, y: 50), to: child) == Point(x: 10, y: 10))
}

@Test func aNilLayerMeansTheRoot() {
    let root = rootLayer(200, 200)
    let parent = sublayer(of: root, frame: Rect(x: 20, y: 30, width: 100, height: 100), name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 5, y: 5, width: 10, height: 10), name: "child")
    #expect(child.convert(Point(x: 1, y: 2), to: nil) == Point(x: 26, y: 37))
    #expect(child.convert(Point(x: 26, y: 37), from: nil) == Point(x: 1, y: 2))
    #expect(child.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil) == Rect(x: 25, y: 35, width: 10, height: 10))
}

@Test func convertingToItselfChangesNothing() {
    let layer = Layer()
    layer.transform = .makeRotation(0.3, 1, 1, 0)
    #expect(layer.convert(Point(x: 3, y: 4), to: layer) == Point(x: 3, y: 4))
    #expect(layer.convert(Point(x: 3, y: 4), from: layer) == Point(x: 3, y: 4))
}

@Test func boundsOriginShiftsTheLayersSpace() {
    let root = rootLayer(200, 200)
    let child = sublayer(of: root, frame: Rect(x: 50, y: 40, width: 100, height: 80), name: "child")
    child.bounds.origin = Point(x: 20, y: 30)
    // The frame stays; the bounds' top-left corner is now named (20, 30).
    #expect(child.convert(Point(x: 20, y: 30), to: root) == Point(x: 50, y: 40))
    #expect(child.convert(Point(x: 0, y: 0), to: root) == Point(x: 30, y: 10))
}

@Test func aQuarterTurnAboutZTurnsClockwise() {
    let root = rootLayer(200, 200)
    let child = sublayer(of: root, frame: Rect(x: 50, y: 75, width: 100, height: 50), name: "child",
                         transform: .makeRotation(.pi / 2, 0, 0, 1))
    // The top-left corner is (-50, -25) from the anchor at (100, 100); clockwise a quarter: (25, -50).
    #expect(isNear(child.convert(Point(x: 0, y: 0), to: root), Point(x: 125, y: 50)))
    #expect(isNear(child.convert(Point(x: 100, y: 50), to: root), Point(x: 75, y: 150)))
    #expect(isNear(child.convert(Point(x: 125, y: 50), from: root), Point(x: 0, y: 0)))
}

@Test func aScaleAboutATopLeftAnchor() {
    let root = rootLayer(200, 200)
    let child = Layer()
    child.anchorPoint = Point(x: 0, y: 0)
    child.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
    child.position = Point(x: 30, y: 20)
    child.transform = .makeScale(2, 3, 1)
    root.addSublayer(child)
    #expect(isNear(child.convert(Point(x: 10, y: 5), to: root), Point(x: 50, y: 35)))
    #expect(isNear(child.convert(Point(x: 50, y: 35), from: root), Point(x: 10, y: 5)))
}

@Test func theSuperlayersSublayerTransformActsAboutItsAnchor() {
    let parent = rootLayer(100, 100, name: "parent")
    parent.sublayerTransform = .makeScale(2, 2, 1)
    let child = sublayer(of: parent, frame: Rect(x: 60, y: 60, width: 10, height: 10), name: "child")
    // (60, 60) is (10, 10) from the parent's anchor (50, 50): twice that from it is (70, 70).
    #expect(isNear(child.convert(Point(x: 0, y: 0), to: parent), Point(x: 70, y: 70)))
    #expect(isNear(child.convert(Point(x: 70, y: 70), from: parent), Point(x: 0, y: 0)))
}

@Test func perspectiveBringsTheFarEdgeTowardsTheCentre() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let card = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "card",
                        transform: .makeRotation(.pi / 3, 0, 1, 0))
    // The right edge's middle is 50 from the anchor; turned 60° about y it sits at x = 50·cos, z = −50·sin,
    // and the perspective divides by w = 1 + 50·sin/500.
    let w = 1 + 50 * sin(Double.pi / 3) / 500
    let expected = Point(x: 100 + 50 * cos(Double.pi / 3) / w, y: 100)
    #expect(isNear(card.convert(Point(x: 100, y: 50), to: root), expected))
    #expect(isNear(card.convert(expected, from: root), Point(x: 100, y: 50), 1e-9))
}

@Test func aRectConvertsToTheBoundingBoxOfItsCorners() {
    let root = rootLayer(200, 200)
    let child = sublayer(of: root, frame: Rect(x: 50, y: 75, width: 100, height: 50), name: "child",
                         transform: .makeRotation(.pi / 2, 0, 0, 1))
    #expect(isNear(child.convert(child.bounds, to: root), Rect(x: 75, y: 50, width: 50, height: 100)))
    child.transform = .makeRotation(.pi / 4, 0, 0, 1)
    // With a 2D transform and no sublayer transform, the bounds in the superlayer are the frame.
    #expect(isNear(child.convert(child.bounds, to: root), child.frame))
}

@Test func aFlippedLayerPutsItsSublayersUpsideDown() {
    let root = rootLayer(200, 200)
    let flipped = sublayer(of: root, frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "flipped")
    flipped.isGeometryFlipped = true
    let child = sublayer(of: flipped, frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "child")
    // y ↦ 100 − y: the child's top-left corner is at the flipped layer's bottom-left.
    #expect(isNear(child.convert(Point(x: 0, y: 0), to: flipped), Point(x: 0, y: 100)))
    #expect(isNear(child.convert(Point(x: 0, y: 10), to: flipped), Point(x: 0, y: 90)))
    #expect(isNear(child.convert(child.bounds, to: flipped), Rect(x: 0, y: 90, width: 10, height: 10)))
    // Only the sublayers flip: the flipped layer itself is where it was.
    #expect(isNear(flipped.convert(Point(x: 0, y: 0), to: root), Point(x: 0, y: 0)))
}

@Test func aFlipMirrorsAboutTheMiddleOfTheBounds() {
    let flipped = rootLayer(100, 60, name: "flipped")
    flipped.bounds.origin = Point(x: 0, y: 20)
    flipped.isGeometryFlipped = true
    let child = sublayer(of: flipped, frame: Rect(x: 0, y: 20, width: 10, height: 10), name: "child")
    // The bounds span y 20…80: y ↦ 100 − y, so the child's top edge, at 20, shows at 80.
    #expect(isNear(child.convert(Point(x: 0, y: 0), to: flipped), Point(x: 0, y: 80)))
}

// MARK: - No image

@Test func aPointBehindTheEyeHasNoImage() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let behind = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "behind")
    behind.zPosition = 600 // past the eye at z = 500
    #expect(behind.convert(Point(x: 10, y: 10), to: root) == nil)
    #expect(behind.convert(Point(x: 100, y: 100), from: root) == nil)
}

@Test func aLineOfSightPastTheHorizonHasNoImage() {
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let floor = sublayer(of: root, frame: Rect(x: 0, y: 0, width: 200, height: 200), name: "floor",
                         transform: .makeRotation(80 * .pi / 180, 0, 1, 0))
    // The plane's far half vanishes at x = 100 + 500·cot 80° ≈ 188: right of that, lines of sight meet it behind the eye.
    #expect(floor.convert(Point(x: 150, y: 100), from: root) != nil)
    #expect(floor.convert(Point(x: 250, y: 100), from: root) == nil)
}

@Test func aPlaneSeenEdgeOnHasNoImage() {
    let root = rootLayer(200, 200)
    let edgeOn = sublayer(of: root, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "edge-on",
                          transform: .makeRotation(.pi / 2, 0, 1, 0))
    #expect(edgeOn.convert(Point(x: 100, y: 100), from: root) == nil)
    #expect(edgeOn.convert(Rect(x: 90, y: 90, width: 20, height: 20), from: root) == nil)
}

@Test func layersOfDifferentTreesDoNotConvert() {
    let a = rootLayer(100, 100, name: "a"), b = rootLayer(100, 100, name: "b")
    #expect(a.convert(Point(x: 1, y: 1), to: b) == nil)
    #expect(a.convert(Rect(x: 0, y: 0, width: 1, height: 1), from: b) == nil)
}

@Test func aPerspectiveAboveTheCommonAncestorDoesNotMatter() {
    // Seen from the root, `holder` is behind the eye; between two of its sublayers the conversion is still plain.
    let root = rootLayer(200, 200)
    root.sublayerTransform = .makePerspective(distance: 500)
    let holder = sublayer(of: root, frame: Rect(x: 0, y: 0, width: 200, height: 200), name: "holder")
    holder.zPosition = 800
    let a = sublayer(of: holder, frame: Rect(x: 10, y: 10, width: 20, height: 20), name: "a")
    let b = sublayer(of: holder, frame: Rect(x: 50, y: 70, width: 20, height: 20), name: "b")
    #expect(a.convert(Point(x: 0, y: 0), to: root) == nil)
    #expect(a.convert(Point(x: 0, y: 0), to: b) == Point(x: -40, y: -60))
}

// MARK: - Round trips

/// A tree with every kind of geometry: 2D and 3D turns, scales, anchors, bounds origins, anchorPointZ,
/// zPosition, sublayer transforms with perspective, and a flipped layer with a turned sublayer transform.
private func everyKindOfGeometry() -> [Layer] {
    let root = rootLayer(400, 300)
    let turned = Layer()
    turned.name = "turned"
    turned.anchorPoint = Point(x: 0.25, y: 0.75)
    turned.frame = Rect(x: 40, y: 30, width: 120, height: 80)
    turned.transform = .makeRotation(0.5, 0, 0, 1)
    root.addSublayer(turned)
    let scaled = sublayer(of: turned, frame: Rect(x: 10, y: 10, width: 50, height: 40), name: "scaled",
                          transform: .makeScale(1.5, 0.75, 1))
    scaled.bounds.origin = Point(x: 5, y: -3)

    let stage = sublayer(of: root, frame: Rect(x: 180, y: 40, width: 200, height: 200), name: "stage")
    stage.sublayerTransform = .makePerspective(distance: 600)
    let tiltedY = sublayer(of: stage, frame: Rect(x: 40, y: 40, width: 120, height: 120), name: "tilted about y",
                           transform: .makeRotation(0.6, 0, 1, 0))
    let tiltedX = sublayer(of: tiltedY, frame: Rect(x: 20, y: 20, width: 60, height: 60), name: "tilted about x",
                           transform: Transform3D.makeRotation(-0.4, 1, 0, 0).concatenating(.makePerspective(distance: 900)))
    tiltedX.zPosition = 30
    tiltedX.anchorPointZ = -12
    let flipped = sublayer(of: stage, frame: Rect(x: 20, y: 120, width: 150, height: 70), name: "flipped")
    flipped.isGeometryFlipped = true
    flipped.sublayerTransform = .makeRotation(0.3, 0, 0, 1)
    let inFlipped = Layer()
    inFlipped.name = "in flipped"
    inFlipped.anchorPoint = Point(x: 0, y: 0)
    inFlipped.frame = Rect(x: 10, y: 5, width: 40, height: 30)
    inFlipped.transform = .makeRotation(0.2, 1, 1, 0)
    flipped.addSublayer(inFlipped)

    let swung = sublayer(of: root, frame: Rect(x: 60, y: 180, width: 100, height: 80), name: "swung",
                         transform: .makeRotation(0.7, 0.3, 1, 0.2))
    swung.anchorPointZ = 15
    return [root, turned, scaled, stage, tiltedY, tiltedX, flipped, inFlipped, swung]
}

@Test func pointsGoThereAndBackBetweenEveryPairOfLayers() {
    let layers = everyKindOfGeometry()
    for a in layers {
        for b in layers {
            let r = a.bounds
            for u in [0.0, 0.3, 0.5, 1.0] {
                for v in [0.0, 0.6, 1.0] {
                    let p = Point(x: r.minX + u * r.width, y: r.minY + v * r.height)
                    let there = a.convert(p, to: b)
                    #expect(there != nil, "\(a.name!) → \(b.name!) at \(p)")
                    guard let there else { continue }
                    #expect(isNear(b.convert(p, from: a), there, 1e-9), "to and from name one conversion")
                    #expect(isNear(a.convert(there, from: b), p, 1e-6), "\(a.name!) → \(b.name!) → back at \(p): \(there)")
                }
            }
        }
    }
}

@Test func rectsGoThereAndBackWithinTheirBoundingBoxes() {
    let layers = everyKindOfGeometry()
    for a in layers {
        for b in layers {
            let there = a.convert(a.bounds, to: b)
            #expect(there != nil)
            guard let there, let back = a.convert(there, from: b) else { continue }
            // A box of a turned shape, turned back, holds the shape: the original bounds lie inside.
            let grown = back.insetBy(dx: -1e-6, dy: -1e-6)
            #expect(grown.contains(a.bounds), "\(a.name!) → \(b.name!): \(a.bounds) came back as \(back)")
        }
    }
}

@Test func convertingUpAgreesWithTheSnapshotsMatrices() {
    // The model's conversion and the snapshot the compositor lowers use one chain: check them against each other.
    let layers = everyKindOfGeometry()
    let tiltedX = layers[5], tiltedY = layers[4], stage = layers[3]
    let snapshot = stage.snapshot()
    let y = snapshot.sublayers[0], x = y.sublayers[0]
    let chain = x.localTransform.concatenating(y.sublayerMatrix).concatenating(.flattening)
        .concatenating(y.localTransform).concatenating(snapshot.sublayerMatrix)
    let p = Point(x: 13, y: 41)
    #expect(isNear(tiltedX.convert(p, to: stage), chain.project(p)!, 1e-9))
    #expect(tiltedX.superlayer === tiltedY)
}
