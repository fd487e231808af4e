import Foundation
import LayerGraphics
import Testing

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) < tolerance }

private func close(_ p: Point, _ q: Point) -> Bool { close(p.x, q.x) && close(p.y, q.y) }

private func close(_ s: AffineTransform2D, _ t: AffineTransform2D) -> Bool {
    close(s.a, t.a) && close(s.b, t.b) && close(s.c, t.c) && close(s.d, t.d) && close(s.tx, t.tx) && close(s.ty, t.ty)
}

// MARK: - Rect basics

@Test func rectEdgesOfAPositiveRect() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.minX == 10 && r.maxX == 40 && r.minY == 20 && r.maxY == 60)
    #expect(r.midX == 25 && r.midY == 40)
    #expect(r.center == Point(x: 25, y: 40))
    #expect(r.width == 30 && r.height == 40)
    #expect(Rect(10, 20, 30, 40) == r)
    #expect(Rect(origin: Point(10, 20), size: Size(30, 40)) == r)
}

@Test func rectEdgesOfANegativeRect() {
    let r = Rect(x: 40, y: 60, width: -30, height: -40)
    #expect(r.minX == 10 && r.maxX == 40 && r.minY == 20 && r.maxY == 60)
    #expect(r.midX == 25 && r.midY == 40)
}

@Test func standardized() {
    #expect(Rect(x: 40, y: 60, width: -30, height: -40).standardized == Rect(x: 10, y: 20, width: 30, height: 40))
    #expect(Rect(x: 1, y: 2, width: 3, height: 4).standardized == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(Rect(x: 5, y: 2, width: -3, height: 4).standardized == Rect(x: 2, y: 2, width: 3, height: 4))
}

@Test func nullAndEmpty() {
    #expect(Rect.null.isNull)
    #expect(Rect.null.isEmpty)
    #expect(!Rect.zero.isNull)
    #expect(Rect.zero.isEmpty)
    #expect(Rect(x: 0, y: 0, width: 5, height: 0).isEmpty)
    #expect(!Rect(x: 0, y: 0, width: 5, height: 1).isEmpty)
    #expect(!Rect(x: -3, y: -3, width: -5, height: -1).isEmpty)
}

// MARK: - Union

@Test func unionIsTheBoundingBox() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 20, y: -5, width: 5, height: 5)
    #expect(a.union(b) == Rect(x: 0, y: -5, width: 25, height: 15))
    #expect(b.union(a) == a.union(b))
    // Negative sizes are standardised.
    #expect(Rect(x: 10, y: 10, width: -10, height: -10).union(b) == Rect(x: 0, y: -5, width: 25, height: 15))
}

@Test func unionWithNullIsTheOther() {
    let a = Rect(x: 3, y: 4, width: 5, height: 6)
    #expect(Rect.null.union(a) == a)
    #expect(a.union(.null) == a)
    #expect(Rect.null.union(.null).isNull)
}

@Test func unionWithAnEmptyRectIncludesItsPoint() {
    // An empty but non-null rect still counts (CGRect's rule): the box grows to the point.
    let point = Rect(x: 100, y: 100, width: 0, height: 0)
    #expect(Rect(x: 0, y: 0, width: 10, height: 10).union(point) == Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(Rect.null.union(point) == point)
}

// MARK: - Intersection

@Test func intersectionIsTheOverlap() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 5, y: -5, width: 10, height: 10)
    #expect(a.intersection(b) == Rect(x: 5, y: 0, width: 5, height: 5))
    #expect(b.intersection(a) == a.intersection(b))
    #expect(a.intersects(b))
    #expect(Rect(x: 10, y: 10, width: -10, height: -10).intersection(b) == Rect(x: 5, y: 0, width: 5, height: 5))
    // Contained: the smaller rect.
    #expect(a.intersection(Rect(x: 2, y: 3, width: 4, height: 5)) == Rect(x: 2, y: 3, width: 4, height: 5))
}

@Test func intersectionOfDisjointRectsIsNull() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let far = Rect(x: 20, y: 20, width: 5, height: 5)
    #expect(a.intersection(far).isNull)
    #expect(!a.intersects(far))
    #expect(a.intersection(Rect(x: 0, y: 11, width: 10, height: 10)).isNull)
}

@Test func intersectionWithNullIsNull() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(a.intersection(.null).isNull)
    #expect(Rect.null.intersection(a).isNull)
    #expect(!a.intersects(.null))
}

@Test func touchingRectsDoNotIntersect() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(!a.intersects(Rect(x: 10, y: 0, width: 10, height: 10)))
}

// MARK: - Inset, offset, integral

@Test func insetBy() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    #expect(r.insetBy(dx: 10, dy: 5) == Rect(x: 10, y: 5, width: 80, height: 40))
    #expect(r.insetBy(dx: -10, dy: -5) == Rect(x: -10, y: -5, width: 120, height: 60))
    #expect(r.insetBy(dx: 50, dy: 25) == Rect(x: 50, y: 25, width: 0, height: 0))
    #expect(Rect(x: 100, y: 50, width: -100, height: -50).insetBy(dx: 10, dy: 5) == Rect(x: 10, y: 5, width: 80, height: 40))
}

@Test func insetByMoreThanHalfIsNull() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    #expect(r.insetBy(dx: 51, dy: 0).isNull)
    #expect(r.insetBy(dx: 0, dy: 26).isNull)
    #expect(Rect.null.insetBy(dx: 1, dy: 1).isNull)
}

@Test func offsetBy() {
    #expect(Rect(x: 1, y: 2, width: 3, height: 4).offsetBy(dx: 10, dy: -20) == Rect(x: 11, y: -18, width: 3, height: 4))
    #expect(Rect.null.offsetBy(dx: 5, dy: 5).isNull)
}

@Test func integralIsTheSmallestIntegerRectAround() {
    #expect(Rect(x: 0.5, y: 1.2, width: 2.0, height: 3.5).integral == Rect(x: 0, y: 1, width: 3, height: 4))
    #expect(Rect(x: -0.5, y: -1.5, width: 1, height: 1).integral == Rect(x: -1, y: -2, width: 2, height: 2))
    #expect(Rect(x: 1, y: 2, width: 3, height: 4).integral == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(Rect(x: 3.5, y: 4.5, width: -2, height: -2).integral == Rect(x: 1, y: 2, width: 3, height: 3))
    #expect(Rect.null.integral.isNull)
}

// MARK: - Contains

@Test func containsPointIncludesMinAndExcludesMax() {
    let r = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(r.contains(Point(x: 0, y: 0)))
    #expect(r.contains(Point(x: 5, y: 9.999)))
    #expect(!r.contains(Point(x: 10, y: 5)))
    #expect(!r.contains(Point(x: 5, y: 10)))
    #expect(!r.contains(Point(x: -0.001, y: 5)))
    #expect(Rect(x: 10, y: 10, width: -10, height: -10).contains(Point(x: 5, y: 5)))
    #expect(!Rect.null.contains(Point(x: 0, y: 0)))
}

@Test func containsRect() {
    let r = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(r.contains(Rect(x: 2, y: 2, width: 3, height: 3)))
    #expect(r.contains(r))
    #expect(!r.contains(Rect(x: 8, y: 8, width: 3, height: 3)))
    #expect(!r.contains(Rect.null))
    #expect(!Rect.null.contains(r))
}

@Test func rectApplyingIsTheBoundingBox() {
    let r = Rect(x: 0, y: 0, width: 20, height: 10)
    let turned = r.applying(AffineTransform2D(rotationAngle: .pi / 2))
    // (x, y) → (−y, x): the box spans x −10…0, y 0…20.
    #expect(close(turned.minX, -10) && close(turned.maxX, 0) && close(turned.minY, 0) && close(turned.maxY, 20))
    let moved = r.applying(AffineTransform2D(translationX: 5, y: -5))
    #expect(moved == Rect(x: 5, y: -5, width: 20, height: 10))
    #expect(Rect.null.applying(AffineTransform2D(scaleX: 2, y: 2)).isNull)
}

// MARK: - AffineTransform2D

@Test func affineIdentity() {
    #expect(AffineTransform2D.identity.isIdentity)
    #expect(!AffineTransform2D(translationX: 1, y: 0).isIdentity)
    #expect(Point(x: 3, y: 4).applying(.identity) == Point(x: 3, y: 4))
}

@Test func affineRotationTurnsClockwiseWithYDown() {
    let quarter = AffineTransform2D(rotationAngle: .pi / 2)
    #expect(close(Point(x: 1, y: 0).applying(quarter), Point(x: 0, y: 1)))
    #expect(close(Point(x: 0, y: 1).applying(quarter), Point(x: -1, y: 0)))
    let angle = 0.3
    #expect(close(Point(x: 1, y: 0).applying(AffineTransform2D(rotationAngle: angle)), Point(x: cos(angle), y: sin(angle))))
}

@Test func affineScaleAndTranslation() {
    #expect(Point(x: 3, y: 4).applying(AffineTransform2D(scaleX: 2, y: -1)) == Point(x: 6, y: -4))
    #expect(Point(x: 3, y: 4).applying(AffineTransform2D(translationX: 10, y: 20)) == Point(x: 13, y: 24))
    let general = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    // x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    #expect(Point(x: 1, y: 1).applying(general) == Point(x: 9, y: 12))
}

@Test func affineConcatenatingIsSelfThenOther() {
    let move = AffineTransform2D(translationX: 10, y: 0)
    let turn = AffineTransform2D(rotationAngle: .pi / 2)
    // Move, then turn: (0, 0) → (10, 0) → (0, 10).
    #expect(close(Point(x: 0, y: 0).applying(move.concatenating(turn)), Point(x: 0, y: 10)))
    // Turn, then move: (0, 0) → (10, 0).
    #expect(close(Point(x: 0, y: 0).applying(turn.concatenating(move)), Point(x: 10, y: 0)))
    // For a general pair, applying the product equals applying one after the other.
    let s = AffineTransform2D(a: 1.5, b: -0.3, c: 0.7, d: 2, tx: 3, ty: -4)
    let t = AffineTransform2D(a: -0.5, b: 1.2, c: 0.4, d: 0.9, tx: -7, ty: 8)
    let p = Point(x: 2.5, y: -1.5)
    #expect(close(p.applying(s.concatenating(t)), p.applying(s).applying(t)))
    #expect(!close(p.applying(s.concatenating(t)), p.applying(t).applying(s)))
}

@Test func affineTranslatedScaledRotatedApplyTheNewOperationFirst() {
    let turn = AffineTransform2D(rotationAngle: .pi / 2)
    #expect(close(Point(x: 0, y: 0).applying(turn.translatedBy(x: 10, y: 0)), Point(x: 0, y: 10)))
    let move = AffineTransform2D(translationX: 10, y: 0)
    #expect(close(Point(x: 1, y: 0).applying(move.scaledBy(x: 2, y: 2)), Point(x: 12, y: 0)))
    #expect(close(Point(x: 1, y: 0).applying(move.rotated(by: .pi / 2)), Point(x: 10, y: 1)))
}

@Test func affineInverted() {
    let s = AffineTransform2D(a: 1.5, b: -0.3, c: 0.7, d: 2, tx: 3, ty: -4)
    let inverse = s.inverted()
    #expect(close(s.concatenating(inverse), .identity))
    #expect(close(inverse.concatenating(s), .identity))
    let p = Point(x: 12, y: -7)
    #expect(close(p.applying(s).applying(inverse), p))
    #expect(close(AffineTransform2D(translationX: 3, y: 4).inverted(), AffineTransform2D(translationX: -3, y: -4)))
}

@Test func affineInvertedOfASingularTransformIsItself() {
    let singular = AffineTransform2D(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6)
    #expect(singular.inverted() == singular)
    let flat = AffineTransform2D(scaleX: 0, y: 3)
    #expect(flat.inverted() == flat)
}

@Test func pointArithmetic() {
    #expect(Point(1, 2) + Point(3, 5) == Point(4, 7))
    #expect(Point(1, 2) - Point(3, 5) == Point(-2, -3))
    #expect(Point(1, -2) * 3 == Point(3, -6))
    #expect(Size(2, 3) == Size(width: 2, height: 3))
}
