import Foundation
@testable import LayerGraphics
import Testing

// Path's CGPath/UIBezierPath additions (SEMANTICS-LAYERS.md, "Path API the port needs"), against values worked by
// hand: arcs in UIBezierPath's sense (y down, clockwise = increasing angle), quadratic curves, lengths, trimming
// and containment.

private func near(_ a: Point?, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// The point at parameter `t` of the path's `n`-th element, a cubic starting where the element before ended.
private func pointOnCurve(_ path: Path, element n: Int, at t: Double) -> Point? {
    var start: Point?
    for (i, e) in path.elements.enumerated() {
        switch e {
        case .move(let p), .line(let p): start = p
        case .curve(let c1, let c2, let p):
            if i == n, let s = start { return PathSegment(start: s, end: p, kind: .curve(c1, c2)).point(at: t) }
            start = p
        case .close: break
        }
    }
    return nil
}

@Suite("Path geometry")
struct PathGeometryTests {
    @Test func quadraticCurvesAreTheCubicsTheyEqual() {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addQuadCurve(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
        // A quadratic's midpoint: ¼·p0 + ½·c + ¼·p2 = (50, 50).
        #expect(near(pointOnCurve(p, element: 1, at: 0.5), Point(x: 50, y: 50)))
        #expect(near(pointOnCurve(p, element: 1, at: 0.25), Point(x: 25, y: 37.5)))
        #expect(p.currentPoint == Point(x: 100, y: 0))
    }

    @Test func arcsTurnClockwiseOnScreenThroughIncreasingAngles() {
        var quarter = Path()
        quarter.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(quarter.elements.first == .move(Point(x: 10, y: 0)), "an empty path moves to the arc's start")
        #expect(near(quarter.currentPoint, Point(x: 0, y: 10)), "y down: a quarter clockwise ends below the centre")
        #expect(near(pointOnCurve(quarter, element: 1, at: 0.5), Point(x: 10 / 2.0.squareRoot(), y: 10 / 2.0.squareRoot()), 0.01))
        #expect(abs(quarter.length - 5 * .pi) < 0.01)

        var other = Path()
        other.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(abs(other.length - 15 * .pi) < 0.02, "the other way round: three quarters")
        #expect(near(pointOnCurve(other, element: 1, at: 1), Point(x: 0, y: -10), 1e-9), "first through the top")
    }

    @Test func arcToRoundsTheCornerBetweenTwoLines() {
        // (0,0) → (100,0) → (100,100) rounded by 20: the arc runs from (80,0) to (100,20) about (80,20).
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addArc(tangent1End: Point(x: 100, y: 0), tangent2End: Point(x: 100, y: 100), radius: 20)
        guard case .line(let corner) = p.elements[1] else { Issue.record("a line first: \(p.elements)"); return }
        #expect(near(corner, Point(x: 80, y: 0), 1e-9))
        #expect(near(p.currentPoint, Point(x: 100, y: 20), 1e-9))
        #expect(abs(p.length - (80 + .pi * 20 / 2)) < 0.01, "\(p.length)")
        // The arc's midpoint lies on the circle about (80, 20).
        let middle = p.trimmed(from: 0, to: (80 + .pi * 5) / p.length).currentPoint
        #expect(near(middle, Point(x: 80 + 20 * cos(-.pi / 4), y: 20 + 20 * sin(-.pi / 4)), 0.05), "\(String(describing: middle))")
        // Turning the other way (down then left) sweeps anticlockwise on screen.
        var q = Path()
        q.move(to: Point(x: 0, y: 0))
        q.addArc(tangent1End: Point(x: 0, y: 100), tangent2End: Point(x: -100, y: 100), radius: 10)
        #expect(near(q.currentPoint, Point(x: -10, y: 100), 1e-9))
        // Degenerate cases: collinear points and a zero radius draw a line to the corner; no current point moves there.
        var r = Path()
        r.move(to: Point(x: 0, y: 0))
        r.addArc(tangent1End: Point(x: 50, y: 0), tangent2End: Point(x: 100, y: 0), radius: 10)
        r.addArc(tangent1End: Point(x: 50, y: 50), tangent2End: Point(x: 0, y: 50), radius: 0)
        #expect(r.elements == [.move(Point(x: 0, y: 0)), .line(Point(x: 50, y: 0)), .line(Point(x: 50, y: 50))])
        var s = Path()
        s.addArc(tangent1End: Point(x: 5, y: 6), tangent2End: Point(x: 9, y: 9), radius: 3)
        #expect(s.elements == [.move(Point(x: 5, y: 6))])
        s.addArc(tangent1End: Point(x: .nan, y: 0), tangent2End: Point(x: 1, y: 1), radius: 3)
        #expect(s.elements.count == 1)
    }

    @Test func relativeArcsTurnByTheirDelta() {
        var p = Path()
        p.addRelativeArc(center: Point(x: 0, y: 0), radius: 10, startAngle: 0, delta: .pi / 2)
        #expect(near(p.currentPoint, Point(x: 0, y: 10), 1e-9)) // clockwise on screen: +x towards +y
        var q = Path()
        q.addRelativeArc(center: Point(x: 0, y: 0), radius: 10, startAngle: 0, delta: -.pi / 2)
        #expect(near(q.currentPoint, Point(x: 0, y: -10), 1e-9))
        #expect(abs(q.length - 5 * .pi) < 0.01)
    }

    @Test func theStickFiguresHeadIsAFullCircleJoinedToNothing() {
        // Listing 6.1: move (175, 100), then a full circle about (150, 100) of radius 25 starting at 0.
        var p = Path()
        p.move(to: Point(x: 175, y: 100))
        p.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(p.elements.count == 5, "a move and four quarter cubics, no joining line: \(p.elements)")
        #expect(abs(p.length - 50 * .pi) < 0.05)
        var joined = Path()
        joined.move(to: Point(x: 0, y: 0))
        joined.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: .pi, clockwise: true)
        #expect(joined.elements[1] == .line(Point(x: 175, y: 100)), "a line to the arc's start")
    }

    @Test func lengthsCountLinesClosesAndCurves() {
        #expect(Path(rect: Rect(x: 0, y: 0, width: 10, height: 20)).length == 60)
        var open = Path()
        open.move(to: .zero); open.addLine(to: Point(x: 3, y: 4)); open.move(to: Point(x: 100, y: 100))
        open.addLine(to: Point(x: 100, y: 110))
        #expect(open.length == 15, "moves add nothing")
        #expect(abs(Path(ellipseIn: Rect(x: 0, y: 0, width: 20, height: 20)).length - 20 * .pi) < 0.05)
    }

    @Test func trimmingCutsAtFractionsOfTheLength() {
        let square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        let half = square.trimmed(from: 0, to: 0.5)
        #expect(abs(half.length - 20) < 1e-9)
        #expect(half.elements.first == .move(Point(x: 0, y: 0)) && half.currentPoint == Point(x: 10, y: 10))
        var line = Path()
        line.move(to: .zero); line.addLine(to: Point(x: 100, y: 0))
        #expect(line.trimmed(from: 0.25, to: 0.75).elements == [.move(Point(x: 25, y: 0)), .line(Point(x: 75, y: 0))])
        #expect(line.trimmed(from: 0.6, to: 0.4).isEmpty)
        #expect(line.trimmed(from: -1, to: .nan).isEmpty && line.trimmed(from: 0, to: 1) == line)
        let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 40))
        let part = circle.trimmed(from: 0.1, to: 0.6)
        #expect(abs(part.length - 0.5 * circle.length) < 0.05, "a curve cut where its length falls")
    }

    @Test func containmentFollowsTheFillRule() {
        let ellipse = Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(ellipse.contains(Point(x: 50, y: 25)))
        #expect(!ellipse.contains(Point(x: 3, y: 3)), "a corner of the box is outside the ellipse")
        var frame = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
        frame.addRect(Rect(x: 25, y: 25, width: 50, height: 50)) // same direction: nonzero fills the hole
        #expect(frame.contains(Point(x: 50, y: 50), using: .nonZero))
        #expect(!frame.contains(Point(x: 50, y: 50), using: .evenOdd))
        #expect(frame.contains(Point(x: 10, y: 50), using: .evenOdd))
        #expect(!frame.contains(Point(x: 150, y: 50)))
    }
}
