import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Checks that do not trust a golden: values computed by hand or by independent code in the test.

// MARK: - Border and corner pixels

@Test func borderPixelIsExactlyTheBorderColour() {
    // Layer at (40,30,120,80): blue background, red 6-point border, over the grey canvas.
    let root = canvas(200, 140)
    let layer = makeLayer(Rect(x: 40, y: 30, width: 120, height: 80), background: .blue)
    layer.borderWidth = 6
    layer.borderColor = .red
    root.addSublayer(layer)
    let s = render(root)
    // 2 px in from the left edge, mid-height: pixel centre at 2.5 points inside a 6-point border.
    expectPixel(s, 42, 70, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "inside the left border")
    expectPixel(s, 157, 70, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "inside the right border")
    expectPixel(s, 100, 32, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "inside the top border")
    expectPixel(s, 100, 107, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "inside the bottom border")
    // Well inside: the background.
    expectPixel(s, 100, 70, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "well inside: the background")
    expectPixel(s, 46, 70, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "just inside the border (x = 46…47)")
    // Outside: the canvas.
    expectPixel(s, 39, 70, Palette.canvas.premultiplied, "just outside the left edge")
}

@Test func cornerPixelOutsideCornerRadiusShowsCanvas() {
    // Layer at (40,30,120,80), cornerRadius 20, blue background (and the same with a red border).
    for borderWidth in [0.0, 6.0] {
        let root = canvas(200, 140)
        let layer = makeLayer(Rect(x: 40, y: 30, width: 120, height: 80), background: .blue)
        layer.cornerRadius = 20
        layer.borderWidth = borderWidth
        layer.borderColor = .red
        root.addSublayer(layer)
        let s = render(root)
        // The layer's corner pixels have centres 27.6 points from the corner circles' centres (radius 20).
        for (x, y) in [(40, 30), (159, 30), (40, 109), (159, 109)] {
            expectPixel(s, x, y, Palette.canvas.premultiplied, "corner pixel outside the radius (border \(borderWidth))")
        }
        expectPixel(s, 100, 70, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "centre (border \(borderWidth))")
    }
}

// MARK: - 3D rotation against an independent inverse mapping

/// A 3×3 matrix in row-vector form: (x, y, 1) · M.
private struct Mat3 {
    var m: [[Double]]

    func inverse() -> Mat3 {
        let a = m
        let c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1]
        let c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2]
        let c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0]
        let det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02
        precondition(abs(det) > 1e-12, "singular homography")
        let inv: [[Double]] = [
            [c00, a[0][2] * a[2][1] - a[0][1] * a[2][2], a[0][1] * a[1][2] - a[0][2] * a[1][1]],
            [c01, a[0][0] * a[2][2] - a[0][2] * a[2][0], a[0][2] * a[1][0] - a[0][0] * a[1][2]],
            [c02, a[0][1] * a[2][0] - a[0][0] * a[2][1], a[0][0] * a[1][1] - a[0][1] * a[1][0]],
        ]
        return Mat3(m: inv.map { $0.map { $0 / det } })
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        (x * m[0][0] + y * m[1][0] + m[2][0], x * m[0][1] + y * m[1][1] + m[2][1], x * m[0][2] + y * m[1][2] + m[2][2])
    }
}

/// Bilinear sample of an image at (u, v) in pixels, pixel centres at i + 0.5, clamped to the edge; straight 0…255 RGB.
private func bilinear(_ image: Image, _ u: Double, _ v: Double) -> (Double, Double, Double) {
    func taps(_ p: Double, _ n: Int) -> (Int, Int, Double) {
        let x = p - 0.5
        let i = Int(x.rounded(.down))
        if i < 0 { return (0, 0, 0) }
        if i >= n - 1 { return (n - 1, n - 1, 0) }
        return (i, i + 1, x - Double(i))
    }
    let (x0, x1, fx) = taps(u, image.width), (y0, y1, fy) = taps(v, image.height)
    func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        let p = image.pixel(x: x, y: y)
        return (Double(p.r), Double(p.g), Double(p.b))
    }
    let a = rgb(x0, y0), b = rgb(x1, y0), c = rgb(x0, y1), d = rgb(x1, y1)
    func lerp(_ p: Double, _ q: Double, _ t: Double) -> Double { p + (q - p) * t }
    return (lerp(lerp(a.0, b.0, fx), lerp(c.0, d.0, fx), fy),
            lerp(lerp(a.1, b.1, fx), lerp(c.1, d.1, fx), fy),
            lerp(lerp(a.2, b.2, fx), lerp(c.2, d.2, fx), fy))
}

/// (angle about y, eye distance): the brief's case, a steeper one, and one whose left part passes behind the eye
/// (x < −52 has w ≤ 0: it must be cut, not mirrored; the rest is magnified towards the horizon).
@Test(arguments: [(0.5, 400.0), (1.0, 200.0), (1.3, 50.0)])
func rotationWithPerspectiveMatchesIndependentInverseMapping(_ angle: Double, _ distance: Double) {
    let image = testImage(width: 128, height: 96)
    let transform = Transform3D.makeRotation(angle, 0, 1, 0).concatenating(.makePerspective(distance: distance))
    let root = canvas(200, 160)
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 128, height: 96)
    layer.position = Point(x: 100, y: 80)
    layer.contents = .image(image)
    layer.transform = transform
    root.addSublayer(layer)
    let actual = render(root)

    // The full chain: anchor translate, transform, position translate (the root maps to the surface 1:1).
    let world = Transform3D.makeTranslation(-64, -48, 0).concatenating(transform).concatenating(.makeTranslation(100, 80, 0))
    // Rows 1, 2, 4 / columns 1, 2, 4 of the row-vector 4×4 matrix: the layer's plane (z = 0) to the screen.
    let h = Mat3(m: [[world.m11, world.m12, world.m14], [world.m21, world.m22, world.m24], [world.m41, world.m42, world.m44]])
    let inverse = h.inverse()
    let background = Palette.canvas.premultiplied
    let expected = Surface(width: 200, height: 160)
    // Beyond the antialiased edges the two must agree closely: track the worst difference where the pixel centre
    // maps at least 4 points inside the bounds, and any drawing where the pixel looks past the horizon (W ≤ 0).
    var worstInterior = 0, worstAt = (x: 0, y: 0), pastHorizon = 0, drawnPastHorizon = 0
    for y in 0..<160 {
        for x in 0..<200 {
            var out = background
            let (U, V, W) = inverse.apply(Double(x) + 0.5, Double(y) + 0.5)
            if W <= 0 {
                pastHorizon += 1
                if actual.pixel(x: x, y: y) != background { drawnPastHorizon += 1 }
            } else {
                let u = U / W, v = V / W
                if u >= 0, u < 128, v >= 0, v < 96 {
                    // Opaque contents: the sample replaces the background.
                    let c = bilinear(image, u, v)
                    out = PremultipliedColor(r: UInt8(c.0.rounded()), g: UInt8(c.1.rounded()), b: UInt8(c.2.rounded()), a: 255)
                    if u >= 4, u < 124, v >= 4, v < 92 {
                        let d = channelDifference(out, actual.pixel(x: x, y: y))
                        if d > worstInterior { worstInterior = d; worstAt = (x, y) }
                    }
                }
            }
            expected.setPixel(x: x, y: y, out)
        }
    }
    let db = psnr(actual, expected)
    #expect(db >= 30, "rotation \(angle) about y, eye at \(distance): PSNR against the independent inverse mapping is \(db) dB; need ≥ 30")
    #expect(worstInterior <= 2, "interior differs by \(worstInterior) at \(worstAt) (allowed 2)")
    // The horizon is the vertical line x = 100 + d·cot(angle): 113.9 for (1.3, 50), off the canvas for the others.
    if distance == 50 { #expect(pastHorizon > 5000, "expected the right part of the canvas (x > 114) beyond the horizon, got \(pastHorizon) px") }
    #expect(drawnPastHorizon == 0, "\(drawnPastHorizon) of \(pastHorizon) pixels beyond the horizon are drawn (mirrored geometry?)")
    // The picture really is turned: the right edge (away from the eye) is shorter than the left.
    let (_, _, wl) = h.apply(0, 48), (_, _, wr) = h.apply(128, 48)
    #expect(wr > wl, "the right edge should be farther away (larger w)")
}

// MARK: - Snapshots

@Test func snapshotIsUnaffectedByLaterModelChanges() {
    let root = canvas(40, 30)
    let layer = makeLayer(Rect(x: 10, y: 5, width: 20, height: 20), background: .red)
    root.addSublayer(layer)
    let before = root.snapshot()
    Transaction.withoutActions { layer.backgroundColor = .blue } // shows at once, not as an implicit animation
    let old = sharedCompositor.render(before, width: 40, height: 30)
    expectPixel(old, 20, 15, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "the old snapshot shows the old colour")
    let now = sharedCompositor.render(root.snapshot(), width: 40, height: 30)
    expectPixel(now, 20, 15, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "a new snapshot shows the new colour")
}

// MARK: - Determinism

@Test(arguments: ["clipping", "flattening", "shared perspective", "disc shadow", "rounded child shadow", "mask", "group opacity"])
func determinismAcrossThreadCounts(_ scene: String) {
    let root: Layer
    switch scene {
    case "clipping": root = clippingScene()
    case "flattening": root = flatteningScene()
    case "shared perspective": root = sharedPerspectiveScene()
    case "disc shadow": root = circleShadowScene(rectangularPath: false)
    case "rounded child shadow": root = roundedChildShadowScene()
    case "mask": root = circleMaskScene()
    default: root = groupOpacityScene()
    }
    let one = render(root, compositor: Compositor(threads: 1))
    let two = render(root, compositor: Compositor(threads: 2))
    var differing = 0
    for y in 0..<one.height { for x in 0..<one.width where one.pixel(x: x, y: y) != two.pixel(x: x, y: y) { differing += 1 } }
    #expect(differing == 0, "\(scene): \(differing) pixels differ between 1 and 2 threads")
}
