@testable import LayerCompositor
import LayerKit
import TestSupport
import Testing

// The deep interior is where the kernels skip coverage: a pixel it claims must be fully covered, or an edge
// loses its antialiasing (or an occluded draw shows through). The corner disks must also claim the corners.

/// A rounded rect seen through `transform` (local → pixels), and its deep interior.
private func deepInterior(_ shape: RoundedRect, _ transform: Transform3D) -> (PixelToLocal, DeepInterior)? {
    guard let inverse = Homography(plane: transform).inverted(), let deep = DeepInterior(inner: shape, toLocal: PixelToLocal(inverse)) else {
        return nil
    }
    return (PixelToLocal(inverse), deep)
}

/// A 160×100 card with four different corners.
private let testShape = RoundedRect(minX: 0, minY: 0, maxX: 160, maxY: 100, radii: SIMD4(40, 12, 0, 30))

/// The card turned about its centre by `angle` about y (and `roll` in its plane), seen from 600 px when
/// `perspective` is on, in the middle of a 280×180 canvas.
private func turned(_ angle: Double, perspective: Bool, roll: Double = 0) -> Transform3D {
    var m = Transform3D.makeTranslation(-80, -50, 0).concatenating(.makeRotation(angle, 0, 1, 0))
    if roll != 0 { m = m.concatenating(.makeRotation(roll, 0, 0, 1)) }
    if perspective { m = m.concatenating(.makePerspective(distance: 600)) }
    return m.concatenating(.makeTranslation(140, 90, 0))
}

/// The local point of pixel (x, y)'s centre and the shape's coverage of the pixel, as the kernels compute it (nil:
/// behind the eye).
private func pixelCoverage(_ shape: RoundedRect, _ t: PixelToLocal, _ x: Int, _ y: Int) -> (u: Float, v: Float, coverage: Float)? {
    let py = Double(y) + 0.5, px = Double(x) + 0.5
    let w = t.g * px + t.h * py + t.i
    guard w > 0 else { return nil }
    let u = Float((t.a * px + t.b * py + t.c) / w), v = Float((t.d * px + t.e * py + t.f) / w)
    return (u, v, coverage(of: shape, u: u, v: v, footprint: t.footprint(px: px, py: py)))
}

@Test(arguments: [(0.0, false), (0.5, false), (0.9, false), (0.4, true), (1.0, true), (2.5, true)])
func everyDeepPixelIsFullyCovered(angle: Double, perspective: Bool) {
    let shape = testShape
    guard let (t, deep) = deepInterior(shape, turned(angle, perspective: perspective)) else { Issue.record("no deep interior"); return }
    var claimed = 0, inCorners = 0, fullButShaded = 0, rows = 0
    for y in 0..<180 {
        let interval = deep.interval(row: y)
        var rowHasFull = false
        for x in 0..<280 {
            guard let (u, v, c) = pixelCoverage(shape, t, x, y) else { continue }
            guard let (x0, x1) = interval, x >= x0, x < x1 else {
                if c >= 1 { fullButShaded += 1; rowHasFull = true }
                continue
            }
            #expect(c >= 1, "pixel (\(x), \(y)) at (\(u), \(v)) is covered \(c)")
            claimed += 1
            rowHasFull = true
            // Beside a rounded corner, beyond the cross of two rects.
            if (u < 40 && v < 40) || (u > 130 && v > 70) { inCorners += 1 }
        }
        if rowHasFull { rows += 1 }
    }
    #expect(claimed > 2000, "the interior is claimed (\(claimed))")
    #expect(inCorners > 100, "the corner disks claim pixels beside the corners (\(inCorners))")
    // Tight: what is left to per-pixel shading though fully covered is under a pixel a row, and only a few at the
    // corners when affine (straight edges are exact then; a corner's bound holds in its steepest direction).
    #expect(fullButShaded <= (perspective ? rows : rows / 4), "\(fullButShaded) fully covered pixels left out over \(rows) rows")
}

@Test(arguments: [(0.0, false), (0.5, false), (2.8, false), (0.4, true), (1.0, true), (2.5, true)])
func everyPixelOutsideTheReachIsUncovered(angle: Double, perspective: Bool) {
    // The mirror of the deep interior: a draw skips the pixels outside its shape's reach, so each must have coverage
    // 0 (else an edge or a corner loses a sliver), or below a thousandth (a float's rounding on the edge of an
    // axis-aligned shape: a quarter of a level at most). Turned in-plane and in depth, mirrored past 90°.
    let shape = testShape
    guard let inverse = Homography(plane: turned(angle, perspective: perspective, roll: angle / 3)).inverted() else {
        Issue.record("no inverse"); return
    }
    let t = PixelToLocal(inverse)
    guard let reach = DeepInterior(reachOf: shape, toLocal: t) else { Issue.record("no reach"); return }
    var touched = 0, reachedButUntouched = 0, rows = 0, cornerSkips = 0
    for y in 0..<180 {
        let interval = reach.interval(row: y)
        var rowTouched = false
        for x in 0..<280 {
            guard let (u, v, c) = pixelCoverage(shape, t, x, y) else { continue }
            if c > 0 { touched += 1; rowTouched = true }
            guard let (x0, x1) = interval, x >= x0, x < x1 else {
                #expect(c < 1e-3, "pixel (\(x), \(y)) at (\(u), \(v)) is covered \(c) outside the reach")
                // Outside the shape's box by a pixel or less, yet not reached: a rounded corner's outer part.
                if u > -1 && v > -1 && u < 161 && v < 101 { cornerSkips += 1 }
                continue
            }
            if c == 0 { reachedButUntouched += 1 }
        }
        if rowTouched { rows += 1 }
    }
    #expect(touched > 2000, "the shape is drawn (\(touched))")
    #expect(cornerSkips > 50, "the rounded corners' outer parts are skipped (\(cornerSkips))")
    // Tight: about a pixel a row end at most is reached for nothing.
    #expect(reachedButUntouched <= 3 * rows, "\(reachedButUntouched) untouched pixels reached over \(rows) rows")
}

@Test func keptRowIntervalsAreTheOnesFoundAfresh() {
    // Rows are kept once found (a card's rows are asked by every draw beneath it). Asked in a shuffled order, twice,
    // with rows off the canvas on both sides and columns left of 0 (a shape moved partly off), a deep interior and a
    // reach give what they find afresh, "none" included.
    var rng = SplitMix(state: 5)
    for (angle, perspective, shift) in [(0.0, false, 0.0), (0.7, true, -120.0), (2.6, true, 60.0), (1.2, false, -300.0)] {
        let transform = turned(angle, perspective: perspective, roll: 0.3).concatenating(.makeTranslation(shift, shift / 2, 0))
        guard let inverse = Homography(plane: transform).inverted() else { continue }
        let t = PixelToLocal(inverse)
        for shape in [DeepInterior(inner: testShape, toLocal: t), DeepInterior(reachOf: testShape, toLocal: t)] {
            guard let shape else { Issue.record("no interior at angle \(angle)"); continue }
            let rows = Array(-40..<260).shuffled(using: &rng)
            var found = 0
            for y in rows + rows {
                let kept = shape.interval(row: y), fresh = shape.findInterval(row: y)
                #expect(kept?.0 == fresh?.0 && kept?.1 == fresh?.1, "row \(y): kept \(String(describing: kept)), found \(String(describing: fresh))")
                if fresh != nil { found += 1 }
            }
            // Each row is asked twice; the card moved furthest off still meets some thirty rows.
            #expect(found > 40, "the shape meets rows at angle \(angle)")
        }
    }
}
