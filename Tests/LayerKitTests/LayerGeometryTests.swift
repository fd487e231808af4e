import Foundation
import LayerGraphics
import LayerKit
import Testing

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) < tolerance }

private func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
    close(a.origin.x, b.origin.x, tolerance) && close(a.origin.y, b.origin.y, tolerance)
        && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
}

private func elements(_ t: Transform3D) -> [Double] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
     t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
}

private func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(elements(a), elements(b)).allSatisfy { abs($0 - $1) < tolerance }
}

/// The worked example of SEMANTICS.md.
private func exampleLayer() -> Layer {
    let layer = Layer()
    layer.position = Point(x: 100, y: 100)
    layer.bounds = Rect(x: 0, y: 0, width: 120, height: 80)
    layer.anchorPoint = Point(x: 0.5, y: 0.5)
    return layer
}

// MARK: - frame

@Test func defaultGeometry() {
    let layer = Layer()
    #expect(layer.bounds == .zero)
    #expect(layer.position == .zero)
    #expect(layer.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(layer.anchorPointZ == 0 && layer.zPosition == 0)
    #expect(layer.transform.isIdentity && layer.sublayerTransform.isIdentity)
    #expect(layer.frame == .zero)
}

@Test func frameOfTheWorkedExample() {
    #expect(exampleLayer().frame == Rect(x: 40, y: 60, width: 120, height: 80))
}

@Test func frameDoesNotDependOnBoundsOrigin() {
    let layer = exampleLayer()
    layer.bounds = Rect(x: 30, y: -45, width: 120, height: 80)
    #expect(layer.frame == Rect(x: 40, y: 60, width: 120, height: 80))
}

@Test func frameFollowsTheAnchorPoint() {
    let layer = exampleLayer()
    layer.anchorPoint = Point(x: 0, y: 0)
    #expect(layer.frame == Rect(x: 100, y: 100, width: 120, height: 80))
    layer.anchorPoint = Point(x: 1, y: 0.25)
    #expect(layer.frame == Rect(x: -20, y: 80, width: 120, height: 80))
}

@Test func settingFrameWithAnchorZeroSetsPosition() {
    let layer = Layer()
    layer.anchorPoint = Point(x: 0, y: 0)
    layer.frame = Rect(x: 40, y: 60, width: 120, height: 80)
    #expect(layer.position == Point(x: 40, y: 60))
    #expect(layer.bounds == Rect(x: 0, y: 0, width: 120, height: 80))
    #expect(layer.frame == Rect(x: 40, y: 60, width: 120, height: 80))
}

@Test func settingFrameWithCentredAnchorGivesTheExamplePosition() {
    let layer = Layer()
    layer.frame = Rect(x: 40, y: 60, width: 120, height: 80)
    #expect(layer.position == Point(x: 100, y: 100))
    #expect(layer.bounds.size == Size(width: 120, height: 80))
    #expect(layer.frame == Rect(x: 40, y: 60, width: 120, height: 80))
}

@Test func settingFrameKeepsBoundsOrigin() {
    let layer = Layer()
    layer.bounds = Rect(x: 7, y: -9, width: 10, height: 10)
    layer.anchorPoint = Point(x: 0, y: 0)
    layer.frame = Rect(x: 40, y: 60, width: 120, height: 80)
    #expect(layer.bounds == Rect(x: 7, y: -9, width: 120, height: 80))
    #expect(layer.position == Point(x: 40, y: 60))
    #expect(layer.frame == Rect(x: 40, y: 60, width: 120, height: 80))
}

@Test func settingANegativeFrameStandardisesIt() {
    let layer = Layer()
    layer.anchorPoint = Point(x: 0, y: 0)
    layer.frame = Rect(x: 160, y: 140, width: -120, height: -80)
    #expect(layer.bounds.size == Size(width: 120, height: 80))
    #expect(layer.position == Point(x: 40, y: 60))
}

@Test func frameIsTheBoundingBoxUnderARotation() {
    let layer = exampleLayer()
    layer.transform = .makeRotation(.pi / 2, 0, 0, 1)
    // 120×80 turned a quarter about its centre (100, 100): 80×120 about the same centre.
    #expect(close(layer.frame, Rect(x: 60, y: 40, width: 80, height: 120)))
    // The frame is derived: bounds and position are untouched.
    #expect(layer.bounds == Rect(x: 0, y: 0, width: 120, height: 80))
    #expect(layer.position == Point(x: 100, y: 100))
}

@Test func frameUnderA45DegreeRotationIsTheBoundingBox() {
    let layer = exampleLayer()
    layer.transform = .makeRotation(.pi / 4, 0, 0, 1)
    let side = 200 / 2.0.squareRoot() // (120 + 80) / √2
    #expect(close(layer.frame, Rect(x: 100 - side / 2, y: 100 - side / 2, width: side, height: side)))
}

@Test func frameUnderARotationTurnsAboutTheAnchor() {
    let layer = exampleLayer()
    layer.anchorPoint = Point(x: 0, y: 0)
    layer.transform = .makeRotation(.pi / 2, 0, 0, 1)
    // Clockwise about the top-left corner at (100, 100): the layer now hangs to the left, below.
    #expect(close(layer.frame, Rect(x: 20, y: 100, width: 80, height: 120)))
}

@Test func frameUnderAScale() {
    let layer = exampleLayer()
    layer.transform = .makeScale(2, 0.5, 1)
    #expect(close(layer.frame, Rect(x: -20, y: 80, width: 240, height: 40)))
}

// MARK: - Snapshot matrices

@Test func localTransformMapsTheBoundsCornerToTheFrameOrigin() {
    let layer = exampleLayer()
    let local = layer.snapshot().localTransform
    let corner = local.apply(x: 0, y: 0)
    #expect(close(corner.x, layer.frame.origin.x) && close(corner.y, layer.frame.origin.y))
    #expect(close(corner.x, 40) && close(corner.y, 60) && corner.w == 1)
    let far = local.apply(x: 120, y: 80)
    #expect(close(far.x, 160) && close(far.y, 140))
}

@Test func localTransformHonoursBoundsOrigin() {
    let layer = exampleLayer()
    layer.bounds = Rect(x: 10, y: 20, width: 120, height: 80)
    let snapshot = layer.snapshot()
    #expect(snapshot.anchorInBounds == Point(x: 70, y: 60))
    let corner = snapshot.localTransform.apply(x: 10, y: 20)
    #expect(close(corner.x, 40) && close(corner.y, 60))
    // The anchor lands on position.
    let anchor = snapshot.localTransform.apply(x: 70, y: 60)
    #expect(close(anchor.x, 100) && close(anchor.y, 100))
}

@Test func localTransformIsTheDocumentedProduct() {
    let layer = exampleLayer()
    layer.bounds = Rect(x: 5, y: -7, width: 120, height: 80)
    layer.anchorPoint = Point(x: 0.25, y: 0.75)
    layer.anchorPointZ = 12
    layer.zPosition = -30
    let transform = Transform3D.makeRotation(0.6, 1, 2, 3).concatenating(.makePerspective(distance: 700))
    layer.transform = transform
    let a = Point(x: 5 + 0.25 * 120, y: -7 + 0.75 * 80)
    let expected = Transform3D.makeTranslation(-a.x, -a.y, -12).concatenating(transform).concatenating(.makeTranslation(100, 100, -30))
    #expect(near(layer.snapshot().localTransform, expected))
    // The anchor (at its z) goes to (position, zPosition).
    let h = layer.snapshot().localTransform.apply(x: a.x, y: a.y, z: 12)
    #expect(close(h.x / h.w, 100) && close(h.y / h.w, 100) && close(h.z / h.w, -30))
}

@Test func localTransformAgreesWithFrameUnderARotation() {
    let layer = exampleLayer()
    layer.transform = .makeRotation(0.5, 0, 0, 1)
    let local = layer.snapshot().localTransform
    var box = Rect.null
    for (x, y) in [(0.0, 0.0), (120.0, 0.0), (0.0, 80.0), (120.0, 80.0)] {
        let p = local.apply(x: x, y: y)
        box = box.union(Rect(x: p.x, y: p.y, width: 0, height: 0))
    }
    #expect(close(box, layer.frame))
}

@Test func sublayerMatrixIsIdentityForAnIdentitySublayerTransform() {
    let layer = exampleLayer()
    layer.bounds = Rect(x: 13, y: 17, width: 120, height: 80)
    #expect(layer.snapshot().sublayerMatrix.isIdentity)
}

@Test func sublayerMatrixTurnsAboutTheAnchor() {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
    layer.position = Point(x: 300, y: 300)
    let angle = 0.5
    layer.sublayerTransform = .makeRotation(angle, 0, 0, 1)
    let m = layer.snapshot().sublayerMatrix
    #expect(!m.isIdentity)
    // The anchor (100, 50) is a fixed point.
    let anchor = m.apply(x: 100, y: 50)
    #expect(close(anchor.x, 100) && close(anchor.y, 50) && close(anchor.w, 1))
    // A point 100 to the right of the anchor turns about it.
    let p = m.apply(x: 200, y: 50)
    #expect(close(p.x, 100 + 100 * cos(angle)) && close(p.y, 50 + 100 * sin(angle)))
    // The origin is not fixed.
    let o = m.apply(x: 0, y: 0)
    #expect(!(close(o.x, 0) && close(o.y, 0)))
}

@Test func sublayerMatrixUsesAnchorPointAndBoundsOrigin() {
    let layer = Layer()
    layer.bounds = Rect(x: 10, y: 20, width: 200, height: 100)
    layer.anchorPoint = Point(x: 0, y: 1)
    layer.sublayerTransform = Transform3D.makeScale(2, 3, 1).concatenating(.makePerspective(distance: 400))
    let m = layer.snapshot().sublayerMatrix
    // The anchor in bounds space is (10, 120): fixed.
    let a = m.apply(x: 10, y: 120)
    #expect(close(a.x / a.w, 10) && close(a.y / a.w, 120))
    // A point 5 right and 4 up of it scales about it.
    let p = m.apply(x: 15, y: 116)
    #expect(close(p.x / p.w, 20) && close(p.y / p.w, 108))
    // Same as the documented product.
    let expected = Transform3D.makeTranslation(-10, -120, 0).concatenating(layer.sublayerTransform).concatenating(.makeTranslation(10, 120, 0))
    #expect(near(m, expected))
}

// MARK: - Drawing order

@Test func sublayersInDrawingOrderSortsByZPositionStably() {
    let parent = Layer()
    let zs: [Double] = [1, 0, 1, -1, 0, 2, 0, -1, 1, 0]
    for (i, z) in zs.enumerated() {
        let child = Layer()
        child.name = "\(i)"
        child.zPosition = z
        parent.addSublayer(child)
    }
    let order = parent.snapshot().sublayersInDrawingOrder.compactMap(\.name)
    #expect(order == ["3", "7", "1", "4", "6", "9", "0", "2", "8", "5"])
    // The snapshot's own sublayers stay in array order.
    #expect(parent.snapshot().sublayers.compactMap(\.name) == (0..<10).map(String.init))
}

@Test func sublayersInDrawingOrderKeepsArrayOrderForManyTies() {
    let parent = Layer()
    for i in 0..<200 {
        let child = Layer()
        child.name = "\(i)"
        child.zPosition = i % 7 == 0 ? -1 : 0
        parent.addSublayer(child)
    }
    let order = parent.snapshot().sublayersInDrawingOrder.compactMap { Int($0.name ?? "") }
    let expected = (0..<200).filter { $0 % 7 == 0 } + (0..<200).filter { $0 % 7 != 0 }
    #expect(order == expected)
}

@Test func affineTransformAccessorsOfLayer() {
    let layer = Layer()
    let t = AffineTransform2D(a: 1, b: 0.5, c: -0.5, d: 1, tx: 3, ty: 4)
    layer.setAffineTransform(t)
    #expect(layer.transform == Transform3D(affine: t))
    #expect(layer.affineTransform() == t)
}
