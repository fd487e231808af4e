import Foundation
import LayerGraphics
import LayerKit
import Testing

// MARK: - Independent reference maths (so that the tests do not trust the code under test)

/// The sixteen elements, row-major.
private func elements(_ t: Transform3D) -> [Double] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
     t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
}

private func matrix(_ e: [Double]) -> Transform3D {
    Transform3D(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
}

/// Plain row-major 4×4 product `a · b`.
private func product(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
    let x = elements(a), y = elements(b)
    var r = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
        for j in 0..<4 {
            var s = 0.0
            for k in 0..<4 { s += x[i * 4 + k] * y[k * 4 + j] }
            r[i * 4 + j] = s
        }
    }
    return matrix(r)
}

/// The row vector `(x y z 1) · M`.
private func map(_ x: Double, _ y: Double, _ z: Double, _ t: Transform3D) -> (x: Double, y: Double, z: Double, w: Double) {
    let e = elements(t)
    let v = [x, y, z, 1.0]
    var r = [0.0, 0.0, 0.0, 0.0]
    for j in 0..<4 { for k in 0..<4 { r[j] += v[k] * e[k * 4 + j] } }
    return (r[0], r[1], r[2], r[3])
}

private func maxDifference(_ a: Transform3D, _ b: Transform3D) -> Double {
    zip(elements(a), elements(b)).map { abs($0 - $1) }.max()!
}

private func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    maxDifference(a, b) < tolerance
}

private let identityElements: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

/// A general matrix with no zero and no symmetry, so that any transposition or order mistake shows.
private let general = matrix([2, -1, 0.5, 0.01, 0.3, 1.5, -0.7, 0.002, 1.1, 0.4, 0.9, -0.003, 5, -6, 7, 1.2])
private let general2 = matrix([0.7, 0.2, -1.3, 0.004, -0.6, 1.9, 0.25, -0.001, 0.8, -0.35, 1.4, 0.006, -3, 4, 2.5, 0.9])

// MARK: - Makers

@Test func identityIsTheUnitMatrix() {
    #expect(elements(Transform3D.identity) == identityElements)
    #expect(elements(Transform3D()) == identityElements)
}

@Test func makeTranslationPutsTheOffsetInTheFourthRow() {
    let t = Transform3D.makeTranslation(3, -4, 5)
    #expect(elements(t) == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1])
    let p = map(1, 2, 3, t)
    #expect(p.x == 4 && p.y == -2 && p.z == 8 && p.w == 1)
    let h = t.apply(x: 1, y: 2, z: 3)
    #expect(h == SIMD4(4, -2, 8, 1))
}

@Test func makeScaleScalesEachAxis() {
    let t = Transform3D.makeScale(2, -3, 0.5)
    #expect(elements(t) == [2, 0, 0, 0, 0, -3, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1])
    #expect(t.apply(x: 1, y: 1, z: 4) == SIMD4(2, -3, 2, 1))
}

@Test(arguments: [
    (0.7, 1.0, 2.0, 3.0),
    (-1.3, 0.0, 0.0, 5.0),
    (2.9, -4.0, 0.5, 0.0),
    (0.25, 0.0, 1.0, 0.0),
    (1.0, 1.0, 0.0, 0.0),
])
func makeRotationFollowsTheDocumentedFormulaForAnyNormalisedAxis(angle: Double, ax: Double, ay: Double, az: Double) {
    let length = (ax * ax + ay * ay + az * az).squareRoot()
    let x = ax / length, y = ay / length, z = az / length
    let c = cos(angle), s = sin(angle), k = 1 - c
    let expected: [Double] = [
        c + k * x * x, k * x * y + z * s, k * x * z - y * s, 0,
        k * x * y - z * s, c + k * y * y, k * y * z + x * s, 0,
        k * x * z + y * s, k * y * z - x * s, c + k * z * z, 0,
        0, 0, 0, 1,
    ]
    let r = Transform3D.makeRotation(angle, ax, ay, az)
    for (got, want) in zip(elements(r), expected) {
        #expect(abs(got - want) < 1e-12)
    }
    // The axis is normalised: a longer axis in the same direction gives the same matrix.
    #expect(near(Transform3D.makeRotation(angle, ax * 7, ay * 7, az * 7), r, 1e-12))
    // A rotation is orthonormal: R · Rᵀ = I.
    let e = elements(r)
    let transposed = matrix([e[0], e[4], e[8], e[12], e[1], e[5], e[9], e[13], e[2], e[6], e[10], e[14], e[3], e[7], e[11], e[15]])
    #expect(near(product(r, transposed), .identity, 1e-12))
    // The axis itself is a fixed point.
    let p = map(x, y, z, r)
    #expect(abs(p.x - x) < 1e-12 && abs(p.y - y) < 1e-12 && abs(p.z - z) < 1e-12)
}

@Test func makeRotationAboutAZeroAxisIsTheIdentity() {
    #expect(elements(Transform3D.makeRotation(1.2, 0, 0, 0)) == identityElements)
    #expect(Transform3D.makeRotation(-0.4, 0, 0, 0).isIdentity)
}

@Test(arguments: [1e-200, Double.leastNormalMagnitude / 200, 1e200, 5e307]) // the second is subnormal (≈ 1e-310)
func makeRotationAboutAVeryShortOrLongAxisTurnsAsAboutItsDirection(scale: Double) {
    // Squaring such an axis underflows to 0 or overflows to infinity: the rotation was lost (the identity), so
    // `--axis 1e-300,0,0 --rotate 30` drew the layer unturned (issue 15).
    for (x, y, z) in [(1.0, 0.0, 0.0), (1.0, 2.0, 3.0), (0.0, -1.0, 0.5)] {
        #expect(near(Transform3D.makeRotation(0.8, x * scale, y * scale, z * scale), .makeRotation(0.8, x, y, z), 1e-12))
    }
}

@Test(arguments: [Double.nan, .infinity, -.infinity])
func makeRotationAboutANonFiniteAxisIsTheIdentity(component: Double) {
    #expect(Transform3D.makeRotation(0.8, component, 1, 0).isIdentity)
}

@Test func positiveRotationAboutZTurnsClockwiseOnScreen() {
    let angle = 0.4
    let p = map(1, 0, 0, Transform3D.makeRotation(angle, 0, 0, 1))
    #expect(abs(p.x - cos(angle)) < 1e-12)
    #expect(abs(p.y - sin(angle)) < 1e-12)
    #expect(abs(p.z) < 1e-12)
    // A quarter turn takes the right (1, 0) to below (0, 1), with y down: clockwise.
    let q = Transform3D.makeRotation(.pi / 2, 0, 0, 1).apply(x: 1, y: 0)
    #expect(abs(q.x) < 1e-12)
    #expect(abs(q.y - 1) < 1e-12)
    let down = Transform3D.makeRotation(.pi / 2, 0, 0, 1).apply(x: 0, y: 1)
    #expect(abs(down.x + 1) < 1e-12)
    #expect(abs(down.y) < 1e-12)
}

@Test func positiveRotationAboutYMovesTheRightEdgeAway() {
    let angle = 0.6
    let p = Transform3D.makeRotation(angle, 0, 1, 0).apply(x: 1, y: 0, z: 0)
    #expect(abs(p.x - cos(angle)) < 1e-12)
    #expect(abs(p.y) < 1e-12)
    #expect(abs(p.z + sin(angle)) < 1e-12)
    #expect(p.z < 0)
    // And the left edge comes towards the viewer.
    #expect(Transform3D.makeRotation(angle, 0, 1, 0).apply(x: -1, y: 0).z > 0)
}

@Test func positiveRotationAboutXBringsTheBottomEdgeForward() {
    let angle = 0.6
    let p = Transform3D.makeRotation(angle, 1, 0, 0).apply(x: 0, y: 1, z: 0)
    #expect(abs(p.x) < 1e-12)
    #expect(abs(p.y - cos(angle)) < 1e-12)
    #expect(abs(p.z - sin(angle)) < 1e-12)
}

@Test func makePerspectiveSetsM34() {
    let p = Transform3D.makePerspective(distance: 500)
    var expected = identityElements
    expected[11] = -1.0 / 500
    #expect(elements(p) == expected)
    // A point 100 towards the viewer grows by d / (d − z) = 1.25.
    let h = p.apply(x: 40, y: -20, z: 100)
    #expect(abs(h.x / h.w - 50) < 1e-9)
    #expect(abs(h.y / h.w + 25) < 1e-9)
}

@Test(arguments: [0.0, -1.0, -500.0])
func makePerspectiveWithANonPositiveDistanceIsTheIdentity(distance: Double) {
    #expect(elements(Transform3D.makePerspective(distance: distance)) == identityElements)
}

// MARK: - Composition

@Test func concatenatingIsTheRowVectorProductSelfThenOther() {
    let got = general.concatenating(general2)
    #expect(near(got, product(general, general2), 1e-12))
    // Not the other order.
    #expect(maxDifference(got, product(general2, general)) > 0.1)
    // Identity is neutral on both sides.
    #expect(general.concatenating(.identity) == general)
    #expect(Transform3D.identity.concatenating(general) == general)
}

@Test func concatenatingAppliesTheReceiverFirst() {
    let translate = Transform3D.makeTranslation(10, 0, 0)
    let rotate = Transform3D.makeRotation(.pi / 2, 0, 0, 1)
    // Translate, then rotate: the origin goes to (10, 0), then turns to (0, 10).
    let a = translate.concatenating(rotate).apply(x: 0, y: 0)
    #expect(abs(a.x) < 1e-9 && abs(a.y - 10) < 1e-9)
    // Rotate, then translate: the origin stays, then moves to (10, 0).
    let b = rotate.concatenating(translate).apply(x: 0, y: 0)
    #expect(abs(b.x - 10) < 1e-9 && abs(b.y) < 1e-9)
    // And a general point follows the same order.
    let c = translate.concatenating(rotate).apply(x: 1, y: 2)
    #expect(abs(c.x + 2) < 1e-9 && abs(c.y - 11) < 1e-9)
}

@Test func rotatedAppliesTheNewRotationFirst() {
    let t = general
    let got = t.rotated(by: 0.8, x: 1, y: -2, z: 0.5)
    #expect(near(got, product(Transform3D.makeRotation(0.8, 1, -2, 0.5), t), 1e-12))
    #expect(maxDifference(got, product(t, Transform3D.makeRotation(0.8, 1, -2, 0.5))) > 0.01)

    // With a translation: rotate about the origin first, then move.
    let moved = Transform3D.makeTranslation(10, 0, 0).rotated(by: .pi / 2, x: 0, y: 0, z: 1)
    let p = moved.apply(x: 1, y: 0)
    #expect(abs(p.x - 10) < 1e-9 && abs(p.y - 1) < 1e-9)
}

@Test func translatedAppliesTheNewTranslationFirst() {
    let t = general
    #expect(near(t.translatedBy(x: 3, y: -4, z: 5), product(Transform3D.makeTranslation(3, -4, 5), t), 1e-12))
    // Rotate 90° about z, preceded by a move of (10, 0): the origin ends at (0, 10).
    let r = Transform3D.makeRotation(.pi / 2, 0, 0, 1).translatedBy(x: 10, y: 0, z: 0)
    let p = r.apply(x: 0, y: 0)
    #expect(abs(p.x) < 1e-9 && abs(p.y - 10) < 1e-9)
}

@Test func scaledAppliesTheNewScaleFirst() {
    let t = general
    #expect(near(t.scaledBy(x: 2, y: 3, z: -1), product(Transform3D.makeScale(2, 3, -1), t), 1e-12))
    // A move of (10, 0) preceded by a scale of 2: (1, 0) → (2, 0) → (12, 0), not (22, 0).
    let s = Transform3D.makeTranslation(10, 0, 0).scaledBy(x: 2, y: 2, z: 2)
    let p = s.apply(x: 1, y: 0)
    #expect(abs(p.x - 12) < 1e-12 && abs(p.y) < 1e-12)
}

// MARK: - Inverse

@Test func invertedUndoesPerspectiveRotationAndTranslation() throws {
    let m = Transform3D.makeRotation(0.7, 1, 2, 3)
        .concatenating(.makeTranslation(12, -30, 45))
        .concatenating(.makePerspective(distance: 600))
        .concatenating(.makeScale(1.5, 0.8, 2))
    let inverse = try #require(m.inverted())
    #expect(maxDifference(product(m, inverse), .identity) < 1e-9)
    #expect(maxDifference(product(inverse, m), .identity) < 1e-9)
    // The general matrix too (every element non-zero).
    let g = try #require(general.inverted())
    #expect(maxDifference(product(general, g), .identity) < 1e-9)
    #expect(maxDifference(product(g, general), .identity) < 1e-9)
}

@Test func invertedOfATranslationIsTheOppositeTranslation() throws {
    let inverse = try #require(Transform3D.makeTranslation(3, -4, 5).inverted())
    #expect(near(inverse, .makeTranslation(-3, 4, -5), 1e-12))
    let scale = try #require(Transform3D.makeScale(2, 4, 8).inverted())
    #expect(near(scale, .makeScale(0.5, 0.25, 0.125), 1e-12))
}

@Test func invertedOfASingularMatrixIsNil() {
    #expect(Transform3D.makeScale(1, 0, 1).inverted() == nil)
    #expect(Transform3D.makeScale(0, 0, 0).inverted() == nil)
    // Rank 3 with no zero element: the third row is the sum of the first two.
    let singular = matrix([1, 2, 3, 4, 5, 6, 7, 8, 6, 8, 10, 12, 2, 7, 1, 8])
    #expect(singular.inverted() == nil)
    #expect(matrix([Double](repeating: 0, count: 16)).inverted() == nil)
}

// MARK: - Queries

@Test func isIdentityOnlyForTheIdentity() {
    #expect(Transform3D.identity.isIdentity)
    #expect(Transform3D().isIdentity)
    #expect(Transform3D.makeTranslation(0, 0, 0).isIdentity)
    #expect(Transform3D.makeScale(1, 1, 1).isIdentity)
    #expect(!Transform3D.makeTranslation(0, 0, 1e-9).isIdentity)
    #expect(!Transform3D.makePerspective(distance: 1000).isIdentity)
    #expect(!Transform3D.makeRotation(0.1, 0, 0, 1).isIdentity)
    var t = Transform3D.identity
    t.m44 = 2
    #expect(!t.isIdentity)
}

@Test func isAffineOnlyForPlanarTransforms() {
    #expect(Transform3D.identity.isAffine)
    #expect(Transform3D.makeTranslation(5, -6, 0).isAffine)
    #expect(Transform3D.makeRotation(0.3, 0, 0, 1).isAffine)
    #expect(Transform3D.makeScale(2, -3, 1).isAffine)
    #expect(Transform3D(affine: AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)).isAffine)

    #expect(!Transform3D.makeTranslation(0, 0, 1).isAffine)
    #expect(!Transform3D.makeScale(1, 1, 2).isAffine)
    #expect(!Transform3D.makePerspective(distance: 500).isAffine)
    #expect(!Transform3D.makeRotation(0.3, 0, 1, 0).isAffine)
    #expect(!Transform3D.makeRotation(0.3, 1, 0, 0).isAffine)
}

@Test func affineRoundTrip() {
    let a = AffineTransform2D(a: 1.5, b: 2, c: -3, d: 4, tx: 5, ty: -6)
    let t = Transform3D(affine: a)
    #expect(elements(t) == [1.5, 2, 0, 0, -3, 4, 0, 0, 0, 0, 1, 0, 5, -6, 0, 1])
    #expect(t.affineTransform == a)
    // Same image of a point in 2D and 3D.
    let p2 = Point(x: 7, y: -2).applying(a)
    let p3 = t.apply(x: 7, y: -2)
    #expect(abs(p2.x - p3.x) < 1e-12 && abs(p2.y - p3.y) < 1e-12)
    // The 2D part of a 3D matrix drops the z terms.
    let g = general.affineTransform
    #expect(g == AffineTransform2D(a: 2, b: -1, c: 0.3, d: 1.5, tx: 5, ty: -6))
}

@Test func rotationAboutZAgreesWithTheAffineRotation() {
    let angle = 0.9
    let r = Transform3D.makeRotation(angle, 0, 0, 1).affineTransform
    let a = AffineTransform2D(rotationAngle: angle)
    #expect(abs(r.a - a.a) < 1e-12 && abs(r.b - a.b) < 1e-12 && abs(r.c - a.c) < 1e-12 && abs(r.d - a.d) < 1e-12)
    #expect(r.tx == 0 && r.ty == 0)
}

@Test func equalityComparesEveryElement() {
    #expect(Transform3D.makeTranslation(1, 2, 3) == Transform3D.makeTranslation(1, 2, 3))
    #expect(Transform3D.makeTranslation(1, 2, 3) != Transform3D.makeTranslation(1, 2, 4))
    for i in 0..<16 {
        var e = identityElements
        e[i] += 0.5
        #expect(matrix(e) != Transform3D.identity, "element \(i)")
    }
    let set: Set<Transform3D> = [.identity, .makeScale(1, 1, 1), .makeScale(2, 1, 1)]
    #expect(set.count == 2)
}

@Test func isApproximatelyEqualUsesTheTolerance() {
    var t = general
    t.m23 += 1e-11
    #expect(t.isApproximatelyEqual(to: general))
    t.m23 += 1e-6
    #expect(!t.isApproximatelyEqual(to: general))
    #expect(t.isApproximatelyEqual(to: general, tolerance: 1e-5))
}

@Test func rowsRoundTrip() {
    let r = general.rows
    #expect(r.count == 4)
    #expect(r[1] == SIMD4(0.3, 1.5, -0.7, 0.002))
    #expect(r[3] == SIMD4(5, -6, 7, 1.2))
    #expect(Transform3D(rows: r) == general)
}

@Test func applyIsTheHomogeneousRowVectorProduct() {
    let h = general.apply(x: 1.5, y: -2, z: 3)
    let want = map(1.5, -2, 3, general)
    #expect(abs(h.x - want.x) < 1e-12 && abs(h.y - want.y) < 1e-12)
    #expect(abs(h.z - want.z) < 1e-12 && abs(h.w - want.w) < 1e-12)
}

// MARK: - Projection

@Test func projectDividesByW() throws {
    let identity = try #require(Transform3D.identity.project(Point(x: 3, y: -4)))
    #expect(identity == Point(x: 3, y: -4))
    // Pushed 500 away from an eye at 500: half size.
    let far = Transform3D.makeTranslation(0, 0, -500).concatenating(.makePerspective(distance: 500))
    let p = try #require(far.project(Point(x: 100, y: -60)))
    #expect(abs(p.x - 50) < 1e-9)
    #expect(abs(p.y + 30) < 1e-9)
}

@Test func projectReturnsNilBehindTheEye() {
    let perspective = Transform3D.makePerspective(distance: 500)
    // Beyond the eye (w < 0).
    #expect(Transform3D.makeTranslation(0, 0, 600).concatenating(perspective).project(Point(x: 10, y: 10)) == nil)
    // At the eye (w = 0).
    #expect(Transform3D.makeTranslation(0, 0, 500).concatenating(perspective).project(Point(x: 10, y: 10)) == nil)
    // Just in front of it: a point.
    #expect(Transform3D.makeTranslation(0, 0, 400).concatenating(perspective).project(Point(x: 10, y: 10)) != nil)
    // A plane turned about y under perspective: the right edge is far, the left edge behind the eye.
    let turned = Transform3D.makeRotation(.pi / 3, 0, 1, 0).concatenating(perspective)
    #expect(turned.project(Point(x: 200, y: 0)) != nil)
    #expect(turned.project(Point(x: -1000, y: 0)) == nil)
}
