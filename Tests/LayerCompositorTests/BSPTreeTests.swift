@testable import LayerCompositor
import LayerKit
import Testing

// The BSP tree of 3D rendering contexts on hand-made polygons: splitting, ordering, coplanar and degenerate cases.
// Space: after the perspective divide, the eye far along +z (nearer is larger z).

/// A polygon of plane `index` whose local (u, v) is the context's (x, y, z) through `m` (z = 0 in the plane).
private func polygon(_ index: Int, _ points: [SIMD3<Double>], m: Transform3D = .identity) -> DrawPolygon {
    DrawPolygon(planeIndex: index, points: points,
                toContext: (SIMD4(m.m11, m.m12, m.m13, m.m14), SIMD4(m.m21, m.m22, m.m23, m.m24), SIMD4(m.m41, m.m42, m.m43, m.m44)))!
}

/// The square [−s, s]² of the plane z = `z`, wound clockwise on a y-down screen (normal +z, facing the eye).
private func square(_ index: Int, z: Double, s: Double = 10) -> DrawPolygon {
    polygon(index, [SIMD3(-s, -s, z), SIMD3(s, -s, z), SIMD3(s, s, z), SIMD3(-s, s, z)], m: .makeTranslation(0, 0, z))
}

/// The square [−s, s]² turned by `angle` about y (so z = −x·sin(angle)), with its plane map.
private func turnedSquare(_ index: Int, angle: Double, s: Double = 10) -> DrawPolygon {
    let m = Transform3D.makeRotation(angle, 0, 1, 0)
    let pts = [(-s, -s), (s, -s), (s, s), (-s, s)].map { p -> SIMD3<Double> in
        let q = m.apply(x: p.0, y: p.1)
        return SIMD3(q.x, q.y, q.z)
    }
    return polygon(index, pts, m: m)
}

/// The depth (z) of a polygon's plane at screen point (x, y).
private func depth(_ p: DrawPolygon, x: Double, y: Double) -> Double {
    let n = p.normal, o = p.points[0]
    return o.z - (n.x * (x - o.x) + n.y * (y - o.y)) / n.z
}

/// Whether (x, y) is inside a convex polygon's projection (either winding).
private func contains(_ p: DrawPolygon, x: Double, y: Double) -> Bool {
    var sign = 0.0
    for i in 0..<p.points.count {
        let a = p.points[i], b = p.points[(i + 1) % p.points.count]
        let c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
        if abs(c) < 1e-9 { continue }
        if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
    }
    return true
}

/// An order is valid when, wherever two pieces overlap on screen, the later one is not behind the earlier one.
private func expectValidOrder(_ pieces: [DrawPolygon], sourceLocation: SourceLocation = #_sourceLocation) {
    for i in 0..<pieces.count {
        for j in (i + 1)..<pieces.count {
            for gx in stride(from: -20.0, through: 20, by: 0.7) {
                for gy in stride(from: -20.0, through: 20, by: 0.7)
                where contains(pieces[i], x: gx, y: gy) && contains(pieces[j], x: gx, y: gy) {
                    let earlier = depth(pieces[i], x: gx, y: gy), later = depth(pieces[j], x: gx, y: gy)
                    #expect(later >= earlier - 1e-6, "piece \(j) (plane \(pieces[j].planeIndex)) is drawn after piece \(i) (plane \(pieces[i].planeIndex)) but is behind it at (\(gx), \(gy))", sourceLocation: sourceLocation)
                    if later < earlier - 1e-6 { return }
                }
            }
        }
    }
}

@Test func bspSplitsASquareByACrossingPlane() {
    // The plane x = 0 (a square turned 90° about y... as a polygon in x = 0) cuts the square of z = 0 in halves.
    let wall = polygon(0, [SIMD3(0, -10, -10), SIMD3(0, -10, 10), SIMD3(0, 10, 10), SIMD3(0, 10, -10)])
    let floor = square(1, z: 0)
    #expect(wall.classify(floor) == .straddling)
    let (front, back) = wall.split(floor)
    guard let front, let back else { Issue.record("both halves expected"); return }
    #expect(front.points.count == 4 && back.points.count == 4)
    // The wall's normal decides which half is "front": every point of each half is on its side.
    #expect(front.points.allSatisfy { wall.distance($0) >= -1e-9 })
    #expect(back.points.allSatisfy { wall.distance($0) <= 1e-9 })
    let xs = (front.points + back.points).map(\.x)
    #expect(Set(xs.map { ($0 * 1000).rounded() }) == [-10_000, 0, 10_000], "the cut is at x = 0")
    // The cuts, in the square's own plane (u = x, v = y): each half keeps the half-plane of its side, one cut each.
    #expect(front.cuts.count == 1 && back.cuts.count == 1)
    let side = front.points.map(\.x).reduce(0, +) > 0 ? 1.0 : -1.0
    let f = front.cuts[0], b = back.cuts[0]
    #expect(f.a * 5 * side + f.c > 0 && f.a * -5 * side + f.c < 0, "the front cut holds on the front half only")
    #expect(b.a * 5 * side + b.c < 0 && b.a * -5 * side + b.c > 0, "the back cut is the other side of the same line")
    #expect(abs(f.b) < 1e-12, "the cut line is u = 0, parallel to v")
}

@Test func bspOrdersParallelPlanesFarToNear() {
    // Given in a shuffled order, drawn far (z = −10) to near (z = 10), whichever way each is wound.
    let near = square(0, z: 10), middle = square(1, z: 0)
    let farFlipped = polygon(2, [SIMD3(-10, -10, -10), SIMD3(-10, 10, -10), SIMD3(10, 10, -10), SIMD3(10, -10, -10)],
                             m: .makeTranslation(0, 0, -10))
    for order in [[middle, near, farFlipped], [near, farFlipped, middle], [farFlipped, middle, near]] {
        let drawn = BSPTree(order).backToFront()
        #expect(drawn.map(\.planeIndex) == [2, 1, 0])
        #expect(drawn.allSatisfy { $0.cuts.isEmpty }, "parallel planes are never cut")
    }
}

@Test func bspIntersectingPlanesAreSplitAndOrdered() {
    // Two squares crossing at 90° on the line x = z = 0. The first becomes the node and stays whole; the second
    // is cut in two, one half drawn before the node and one after: three pieces, in a valid order.
    let a = turnedSquare(0, angle: .pi / 4), b = turnedSquare(1, angle: -.pi / 4)
    for input in [[a, b], [b, a]] {
        let drawn = BSPTree(input).backToFront()
        #expect(drawn.count == 3)
        #expect(drawn[1].planeIndex == input[0].planeIndex && drawn[1].cuts.isEmpty, "the node is drawn between the halves")
        #expect(drawn[0].planeIndex == input[1].planeIndex && drawn[2].planeIndex == input[1].planeIndex)
        expectValidOrder(drawn)
    }
}

@Test func bspThreeMutuallyCrossingPlanesNeedSplitting() {
    // Three planes each crossing the others (no order of whole planes is right): the pieces still sort.
    let a = turnedSquare(0, angle: 0.6), b = turnedSquare(1, angle: -0.6)
    let m = Transform3D.makeRotation(0.7, 1, 0, 0)
    let c = polygon(2, [(-10.0, -10.0), (10, -10), (10, 10), (-10, 10)].map { p in
        let q = m.apply(x: p.0, y: p.1)
        return SIMD3(q.x, q.y, q.z)
    }, m: m)
    let drawn = BSPTree([a, b, c]).backToFront()
    #expect(drawn.count > 3)
    expectValidOrder(drawn)
}

@Test func bspPlanesTouchingAlongAnEdgeAreNotSplit() {
    // A cube's faces meet along edges: the plane of one only touches the next (within epsilon), so no cuts.
    let front = square(0, z: 10)
    let right = polygon(1, [SIMD3(10, -10, 10), SIMD3(10, -10, -10), SIMD3(10, 10, -10), SIMD3(10, 10, 10)])
    #expect(front.classify(right) == .back)
    #expect(right.classify(front) != .straddling)
    #expect(BSPTree([front, right]).backToFront().allSatisfy { $0.cuts.isEmpty })
}

@Test func bspCoplanarPlanesKeepTheirOrder() {
    // Coplanar planes draw in the order given (the context's zPosition, then array order), whether they face the
    // eye or not, and whichever comes first.
    let a = square(0, z: 0), b = square(1, z: 0, s: 5)
    let c = polygon(2, [SIMD3(-3, -3, 0), SIMD3(-3, 3, 0), SIMD3(3, 3, 0), SIMD3(3, -3, 0)])   // wound the other way
    #expect(a.classify(b) == .coplanar && a.classify(c) == .coplanar)
    #expect(BSPTree([a, b, c]).backToFront().map(\.planeIndex) == [0, 1, 2])
    #expect(BSPTree([c, b, a]).backToFront().map(\.planeIndex) == [2, 1, 0])
    // Seen from behind (a plane facing away is the node), the order is still the order given.
    let behind = polygon(3, [SIMD3(-10, -10, 0), SIMD3(-10, 10, 0), SIMD3(10, 10, 0), SIMD3(10, -10, 0)])
    #expect(BSPTree([behind, a]).backToFront().map(\.planeIndex) == [3, 0])
}

@Test func bspDegeneratePolygonsAreRejected() {
    let m = (SIMD4<Double>(1, 0, 0, 0), SIMD4<Double>(0, 1, 0, 0), SIMD4<Double>(0, 0, 0, 1))
    #expect(DrawPolygon(planeIndex: 0, points: [SIMD3(0, 0, 0), SIMD3(1, 1, 1)], toContext: m) == nil, "two points")
    #expect(DrawPolygon(planeIndex: 0, points: [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(2, 2, 2)], toContext: m) == nil, "a line")
    #expect(BSPTree([]).backToFront().isEmpty)
    // A sliver within epsilon of the splitting plane is coplanar, not cut into slivers.
    let thin = polygon(1, [SIMD3(-10, -10, 0.001), SIMD3(10, -10, -0.001), SIMD3(10, 10, -0.001), SIMD3(-10, 10, 0.001)])
    #expect(square(0, z: 0).classify(thin) == .coplanar)
}

@Test func bspPrefersASplitterThatCutsNothing() {
    // A small square turned 45° about y, centred at (−30, 0, 10), wholly in front of a wide square at z = 0; its
    // plane meets z = 0 at x = −20, inside the wide one. Taking it as the node would cut the wide square (a seam in
    // open space); the wide square cuts nothing, so it is the node, and nothing is cut.
    let m = Transform3D.makeRotation(.pi / 4, 0, 1, 0).concatenating(.makeTranslation(-30, 0, 10))
    let small = polygon(0, [(-5.0, -5.0), (5, -5), (5, 5), (-5, 5)].map { p in
        let q = m.apply(x: p.0, y: p.1)
        return SIMD3(q.x, q.y, q.z)
    }, m: m)
    let wide = polygon(1, [SIMD3(-40, -10, 0), SIMD3(40, -10, 0), SIMD3(40, 10, 0), SIMD3(-40, 10, 0)])
    #expect(small.classify(wide) == .straddling, "the small square's plane does cross the wide one")
    let drawn = BSPTree([small, wide]).backToFront()
    #expect(drawn.map(\.planeIndex) == [1, 0])
    #expect(drawn.allSatisfy { $0.cuts.isEmpty })
}
