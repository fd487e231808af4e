import Foundation
import LayerGraphics
import Testing

// Apple's continuous corner (`CornerCurve.continuous`, issue 26 item 5) against the published reconstruction of
// UIKit's path: the corner begins 1.528665 radii from the corner on each edge, and passes through
// (0.631494, 0.074911) radii, the near-circular middle arc's ends.

/// The point at parameter `t` of the cubic from `p0` with controls `c1`, `c2` to `p3`.
private func cubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ t: Double) -> Point {
    let u = 1 - t
    return Point(x: u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x,
                 y: u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y)
}

/// The (start, element) pairs of a path's curves, in order.
private func curves(of path: Path) -> [(Point, Point, Point, Point)] {
    var current = Point(x: 0, y: 0), out: [(Point, Point, Point, Point)] = []
    for e in path.elements {
        switch e {
        case .move(let p), .line(let p): current = p
        case .curve(let c1, let c2, let p): out.append((current, c1, c2, p)); current = p
        case .close: break
        }
    }
    return out
}

@Suite("Continuous corner path")
struct ContinuousCornerPathTests {
    let rect = Rect(x: 0, y: 0, width: 400, height: 400)
    let radius = 100.0

    @Test func theTopRightCornerIsThePublishedReconstruction() throws {
        let path = Path(roundedRect: rect, cornerRadius: radius, cornerCurve: .continuous)
        guard case .move(let start) = path.elements.first else { Issue.record("no move"); return }
        #expect(abs(start.x - 1.528665 * radius) < 1e-9 && start.y == 0, "the top edge begins 1.528665 r in")
        // UIKit's top-right corner, in radii from the corner (x leftwards, y downwards): three cubics.
        func tr(_ x: Double, _ y: Double) -> Point { Point(x: rect.maxX - x * radius, y: rect.minY + y * radius) }
        let expected: [(Point, Point, Point)] = [
            (tr(1.08849296, 0), tr(0.86840694, 0), tr(0.63149379, 0.07491139)),
            (tr(0.37282383, 0.16905956), tr(0.16905956, 0.37282383), tr(0.07491139, 0.63149379)),
            (tr(0, 0.86840694), tr(0, 1.08849296), tr(0, 1.528665)),
        ]
        let found = curves(of: path)
        try #require(found.count == 12, "three cubics a corner")
        for (i, (c1, c2, end)) in expected.enumerated() {
            let (_, f1, f2, fe) = found[i]
            for (a, b) in [(c1, f1), (c2, f2), (end, fe)] {
                #expect(abs(a.x - b.x) < 1e-5 && abs(a.y - b.y) < 1e-5, "segment \(i): \(b) should be \(a)")
            }
        }
    }

    @Test func atFortyFiveDegreesItBulgesPastTheCircleAndOnTheEdgeItBeginsEarlier() throws {
        let continuous = curves(of: Path(roundedRect: rect, cornerRadius: radius, cornerCurve: .continuous))
        // The middle of the top-right corner's middle arc: on the diagonal.
        let (p0, c1, c2, p3) = continuous[1]
        let middle = cubic(p0, c1, c2, p3, 0.5)
        let inset = rect.maxX - middle.x
        #expect(abs(inset - (middle.y - rect.minY)) < 1e-9, "on the corner's diagonal")
        #expect(abs(inset - 0.291507 * radius) < 1e-4, "0.291507 r from each edge, got \(inset / radius) r")
        let circularInset = (1 - 1 / 2.0.squareRoot()) * radius
        #expect(circularInset - inset > 0.001 * radius, "a circular corner's middle is 0.292893 r in: a different curve")

        // One radius in from the corner along the top edge the circle has met the edge; the continuous corner is
        // still 0.0096 r below it, and it meets the edge only 1.528665 r in.
        let big = Rect(x: 0, y: 0, width: 2000, height: 2000), r = 400.0
        let roundCont = Path(roundedRect: big, cornerRadius: r, cornerCurve: .continuous)
        let roundCirc = Path(roundedRect: big, cornerRadius: r, cornerCurve: .circular)
        #expect(roundCirc.contains(Point(x: r, y: 2)) && !roundCont.contains(Point(x: r, y: 2)))
        #expect(roundCont.contains(Point(x: r, y: 5)))
        #expect(roundCirc.contains(Point(x: 1.3 * r, y: 0.5)) && !roundCont.contains(Point(x: 1.3 * r, y: 0.1)))
        #expect(roundCont.contains(Point(x: 1.6 * r, y: 0.1)), "past 1.528665 r: the straight edge")
    }

    @Test func radiusIsClampedSoTheCornerFitsAndCircularIsTheUIBezierShape() {
        let narrow = Rect(x: 10, y: 20, width: 100, height: 60)
        let clamped = Path(roundedRect: narrow, cornerRadius: 50, cornerCurve: .continuous)
        guard case .move(let start) = clamped.elements.first else { Issue.record("no move"); return }
        #expect(abs(start.x - (10 + 30)) < 1e-9, "the corner reaches half the shorter side (30), no further")
        #expect(abs(ContinuousCorner.clampedRadius(50, width: 100, height: 60) - 30 / 1.528665) < 1e-12)
        #expect(ContinuousCorner.clampedRadius(.nan, width: 100, height: 60) == 0)
        #expect(Path(roundedRect: narrow, cornerRadius: 0, cornerCurve: .continuous) == Path(rect: narrow))
        #expect(Path(roundedRect: narrow, cornerRadius: 12, cornerCurve: .circular)
                == Path(roundedRect: narrow, byRoundingCorners: .allCorners, cornerRadii: Size(width: 12, height: 12)))
        let some = Path(roundedRect: narrow, cornerRadius: 12, corners: [.topLeft], cornerCurve: .continuous)
        #expect(curves(of: some).count == 3, "only the top-left corner is rounded")
        #expect(some.boundingBoxOfPath == narrow)
    }
}
