import Foundation
@testable import LayerGraphics
import Testing

// Path completion for shape layers (SEMANTICS-LAYERS.md §1, "Path API the port needs"): per-corner rounded rects,
// bounding boxes with and without control points, transforms, and SVG path data in and out — against hand values.

private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
private func near(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
    near(a.minX, b.minX, tolerance) && near(a.minY, b.minY, tolerance) && near(a.maxX, b.maxX, tolerance) && near(a.maxY, b.maxY, tolerance)
}

@Suite("Path shapes and SVG")
struct PathShapesTests {
    @Test func threeRoundedCornersLeaveTheTopLeftSquare() {
        // The book's rect: (50, 50, 100, 100), radii 20, all corners but the top-left.
        let p = Path(roundedRect: Rect(x: 50, y: 50, width: 100, height: 100),
                     byRoundingCorners: [.topRight, .bottomRight, .bottomLeft], cornerRadii: Size(width: 20, height: 20))
        #expect(p.contains(Point(x: 50.5, y: 50.5)), "the square corner is filled to its tip")
        #expect(!p.contains(Point(x: 149.5, y: 50.5)), "the top-right corner is cut away")
        #expect(!p.contains(Point(x: 149.5, y: 149.5)) && !p.contains(Point(x: 50.5, y: 149.5)))
        #expect(p.contains(Point(x: 140, y: 60)), "inside the arc: (140, 60) is 10√2 from the centre (130, 70)")
        #expect(p.elements.first == .move(Point(x: 50, y: 50)))
        // 4 edges + 3 arcs + close; length = 4·100 − 3·2·20 + 3·(π/2)·20.
        #expect(p.elements.count == 1 + 4 + 3 + 1)
        let expected: Double = 280 + 30 * Double.pi
        #expect(near(p.length, expected, 0.1))
        #expect(near(p.boundingBoxOfPath, Rect(x: 50, y: 50, width: 100, height: 100)))
    }

    @Test func radiiAreClampedToHalfTheSidesAndMayBeElliptical() {
        let r = Rect(x: 0, y: 0, width: 100, height: 40)
        let p = Path(roundedRect: r, byRoundingCorners: .allCorners, cornerRadii: Size(width: 1000, height: 1000))
        // Radii 50 × 20: the top edge is a single point, the arcs reach the middle of each side.
        #expect(p.elements.first == .move(Point(x: 50, y: 0)))
        #expect(p.contains(Point(x: 50, y: 20)) && !p.contains(Point(x: 2, y: 2)))
        #expect(near(p.boundingBoxOfPath, r))
        // An elliptical corner: (10, 5) radii reach 10 along x and 5 along y.
        let e = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), byRoundingCorners: .topLeft, cornerRadii: Size(width: 10, height: 5))
        #expect(e.elements.first == .move(Point(x: 10, y: 0)))
        #expect(e.elements.contains(.line(Point(x: 0, y: 5))))
        // Hostile radii: NaN and negative are 0, a plain rectangle.
        let plain = Path(roundedRect: r, byRoundingCorners: .allCorners, cornerRadii: Size(width: .nan, height: -3))
        #expect(plain == Path(rect: r))
        // Four corners: 4-fold symmetric, as `cornerRadius` draws.
        let four = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), byRoundingCorners: .allCorners, cornerRadii: Size(width: 20, height: 20))
        for (x, y) in [(3.0, 3.0), (6.0, 6.0), (10.0, 2.0)] {
            let inside = four.contains(Point(x: x, y: y))
            #expect(four.contains(Point(x: 100 - x, y: y)) == inside && four.contains(Point(x: x, y: 100 - y)) == inside
                    && four.contains(Point(x: 100 - x, y: 100 - y)) == inside)
        }
    }

    @Test func boundingBoxesWithAndWithoutControlPoints() {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addCurve(to: Point(x: 100, y: 0), control1: Point(x: 0, y: 100), control2: Point(x: 100, y: 100))
        #expect(p.boundingBox == Rect(x: 0, y: 0, width: 100, height: 100), "control points included")
        // y(t) = 300·t(1 − t) peaks at t = ½: 75.
        #expect(near(p.boundingBoxOfPath, Rect(x: 0, y: 0, width: 100, height: 75)))
        // A circle's tight box is the circle's; its control points lie on the same box for a 4-cubic circle.
        let circle = Path(ellipseIn: Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(near(circle.boundingBoxOfPath, Rect(x: 10, y: 20, width: 30, height: 40), 1e-9))
        #expect(Path().boundingBoxOfPath.isNull && Path().boundingBox.isNull)
        // A cubic overshooting sideways: x(t) = 3·t(1−t)²·(−30) + 3·t²(1−t)·130 + t³·100 has its extrema inside (0, 1).
        var s = Path()
        s.move(to: Point(x: 0, y: 0))
        s.addCurve(to: Point(x: 100, y: 0), control1: Point(x: -30, y: 0), control2: Point(x: 130, y: 0))
        let box = s.boundingBoxOfPath
        #expect(box.minX < -3 && box.maxX > 103 && box.minX > -30 && box.maxX < 130, "\(box)")
    }

    @Test func applyingATransformMovesEveryPoint() {
        let p = Path(rect: Rect(x: 0, y: 0, width: 10, height: 20)).applying(AffineTransform2D(translationX: 5, y: 7))
        #expect(p.boundingBox == Rect(x: 5, y: 7, width: 10, height: 20))
        let s = Path(rect: Rect(x: 1, y: 1, width: 2, height: 2)).applying(AffineTransform2D(scaleX: 3, y: 0.5))
        #expect(s.boundingBox == Rect(x: 3, y: 0.5, width: 6, height: 1))
    }

    @Test func svgPathDataOfEveryCommand() throws {
        let p = try Path(svgPathData: "M10 20 L30 40 H50 V60 h10 v-10 l-5-5 Z")
        #expect(p.elements == [.move(Point(x: 10, y: 20)), .line(Point(x: 30, y: 40)), .line(Point(x: 50, y: 40)), .line(Point(x: 50, y: 60)),
                               .line(Point(x: 60, y: 60)), .line(Point(x: 60, y: 50)), .line(Point(x: 55, y: 45)), .close])
        // Implicit repeats: after M pairs are lines; relative m; numbers run together; exponents.
        let q = try Path(svgPathData: "m1,2 3,4-1.5.5e1 1E+1-2.5e-1z")
        #expect(q.elements == [.move(Point(x: 1, y: 2)), .line(Point(x: 4, y: 6)), .line(Point(x: 2.5, y: 11)), .line(Point(x: 12.5, y: 10.75)), .close])
        // C, S reflects the last control; c relative.
        let c = try Path(svgPathData: "M0 0 C10 0 20 10 20 20 S30 40 40 40 c1 1 2 2 3 3")
        #expect(c.elements[1] == .curve(Point(x: 10, y: 0), Point(x: 20, y: 10), Point(x: 20, y: 20)))
        #expect(c.elements[2] == .curve(Point(x: 20, y: 30), Point(x: 30, y: 40), Point(x: 40, y: 40)))
        #expect(c.elements[3] == .curve(Point(x: 41, y: 41), Point(x: 42, y: 42), Point(x: 43, y: 43)))
        // S without a cubic before: the first control is the current point.
        let s = try Path(svgPathData: "M0 0 L10 0 S20 10 30 0")
        #expect(s.elements[2] == .curve(Point(x: 10, y: 0), Point(x: 20, y: 10), Point(x: 30, y: 0)))
        // Q as its cubic (controls at ⅔ towards the control point); T reflects it.
        let t = try Path(svgPathData: "M0 0 Q30 30 60 0 T120 0")
        #expect(t.elements[1] == .curve(Point(x: 20, y: 20), Point(x: 40, y: 20), Point(x: 60, y: 0)))
        #expect(t.elements[2] == .curve(Point(x: 80, y: -20), Point(x: 100, y: -20), Point(x: 120, y: 0)))
        let tq = try Path(svgPathData: "m0 0 q30 30 60 0 t60 0")
        #expect(tq == t)
    }

    @Test func svgArcsAreEllipseParts() throws {
        // A half circle of radius 50 from (0, 50) to (100, 50), sweep 1 (clockwise on screen: through the top, y < 50).
        let a = try Path(svgPathData: "M0 50 A50 50 0 0 1 100 50")
        #expect(a.currentPoint == Point(x: 100, y: 50))
        #expect(near(a.length, .pi * 50, 0.05))
        #expect(near(a.boundingBoxOfPath.minY, 0, 1e-6) && near(a.boundingBoxOfPath.maxY, 50, 1e-9))
        // Sweep 0 goes through the bottom.
        let b = try Path(svgPathData: "M0 50 A50 50 0 0 0 100 50")
        #expect(near(b.boundingBoxOfPath.maxY, 100, 1e-6))
        // Radii too small are scaled up (a half circle again); a zero radius is a line; flags may run together.
        let c = try Path(svgPathData: "M0 50 a1 1 0 0 1 100 0")
        #expect(near(c.length, .pi * 50, 0.05))
        #expect(try Path(svgPathData: "M0 0 A0 5 0 0 1 10 10").elements == [.move(.zero), .line(Point(x: 10, y: 10))])
        let d = try Path(svgPathData: "M0 50a50,50,0,1,1,100,0")
        #expect(d == a || near(d.length, .pi * 50, 0.05))
        // The large arc of a circle through two points 60 apart, radius 50: more than half the circumference.
        let large = try Path(svgPathData: "M20 50 A50 50 0 1 0 80 50")
        let small = try Path(svgPathData: "M20 50 A50 50 0 0 0 80 50")
        #expect(near(large.length + small.length, 2 * .pi * 50, 0.1) && large.length > small.length)
    }

    @Test func malformedSVGThrowsWithWhere() throws {
        for bad in ["L10 10", "M10", "M10 10 L", "M10 10 X5 5", "M1e 2", "M0 0 A10 10 0 2 0 5 5", "M 1e999 0"] {
            #expect(throws: SVGPathError.self, "\(bad)") { try Path(svgPathData: bad) }
        }
        do {
            _ = try Path(svgPathData: "M0 0 K1 1")
            Issue.record("no error")
        } catch let e as SVGPathError {
            #expect(e.offset == 5)
        } catch { Issue.record("\(error)") }
        #expect(try Path(svgPathData: "  ").isEmpty)
    }

    @Test func svgPathDataRoundTrips() throws {
        var p = Path()
        p.move(to: Point(x: 175, y: 100))
        p.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        p.move(to: Point(x: 0.1, y: -2.5e-7))
        p.addLine(to: Point(x: 1e20, y: 3))
        p.closeSubpath()
        #expect(try Path(svgPathData: p.svgPathData) == p)
        #expect(Path(rect: Rect(x: 0, y: 0, width: 10, height: 5)).svgPathData == "M0 0 L10 0 L10 5 L0 5 Z")
    }
}
