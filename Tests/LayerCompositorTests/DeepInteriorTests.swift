@testable import LayerCompositor
import LayerKit
import Testing

// The deep interior is where the kernels skip coverage: a pixel it claims must be fully covered, or an edge
// loses its antialiasing (or an occluded draw shows through). The corner disks must also claim the corners.

/// A rounded rect seen through `transform` (local → pixels), its deep interior with the margins DrawList uses.
private func deepInterior(_ shape: RoundedRect, _ transform: Transform3D, corners: [(x: Double, y: Double)])
    -> (PixelToLocal, DeepInterior, Bool)? {
    guard let inverse = Homography(plane: transform).inverted() else { return nil }
    let t = PixelToLocal(inverse)
    let (mu, mv) = t.largestFootprint(at: corners)
    let affine = t.g == 0 && t.h == 0
    guard let deep = DeepInterior(inner: shape, marginU: DeepInterior.margin(mu, affine: affine),
                                  marginV: DeepInterior.margin(mv, affine: affine)) else { return nil }
    return (t, deep, affine)
}

@Test(arguments: [(0.0, false), (0.5, false), (0.9, false), (0.4, true), (1.0, true), (2.5, true)])
func everyDeepPixelIsFullyCovered(angle: Double, perspective: Bool) {
    let shape = RoundedRect(minX: 0, minY: 0, maxX: 160, maxY: 100, radii: SIMD4(40, 12, 0, 30))
    // Turned about its centre, seen from 600 px when perspective is on, in the middle of a 280×180 canvas.
    var m = Transform3D.makeTranslation(-80, -50, 0).concatenating(.makeRotation(angle, 0, 1, 0))
    if perspective { m = m.concatenating(.makePerspective(distance: 600)) }
    m = m.concatenating(.makeTranslation(140, 90, 0))
    // The canvas's pixels (0…280 × 0…180) bound the footprint as the polygon's corners do in DrawList.
    let corners: [(x: Double, y: Double)] = [(0, 0), (280, 0), (0, 180), (280, 180)]
    guard let (t, deep, _) = deepInterior(shape, m, corners: corners) else { Issue.record("no deep interior"); return }
    var claimed = 0, inCorners = 0
    for y in 0..<180 {
        guard let (x0, x1) = deep.interval(row: y, t) else { continue }
        for x in max(x0, 0)..<min(x1, 280) {
            let py = Double(y) + 0.5, px = Double(x) + 0.5
            let w = t.g * px + t.h * py + t.i
            let u = Float((t.a * px + t.b * py + t.c) / w), v = Float((t.d * px + t.e * py + t.f) / w)
            let c = coverage(of: shape, u: u, v: v, footprint: t.footprint(px: px, py: py))
            #expect(c >= 1, "pixel (\(x), \(y)) at (\(u), \(v)) is covered \(c)")
            claimed += 1
            // Beside a rounded corner, beyond the cross of two rects.
            if (u < 40 && v < 40) || (u > 130 && v > 70) { inCorners += 1 }
        }
    }
    #expect(claimed > 2000, "the interior is claimed (\(claimed))")
    #expect(inCorners > 100, "the corner disks claim pixels beside the corners (\(inCorners))")
}
