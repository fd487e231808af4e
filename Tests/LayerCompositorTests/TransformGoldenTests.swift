import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// 3D transforms on a 200×160 canvas (References/transforms). All strict:
// GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0).

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
private let area = "transforms"

/// A 120×90 picture layer at the centre of a 200×160 canvas with `transform`.
private func pictureScene(_ transform: Transform3D) -> Layer {
    let root = canvas(200, 160)
    let layer = makeLayer(Rect(x: 40, y: 35, width: 120, height: 90))
    layer.contents = .image(testImage())
    layer.transform = transform
    root.addSublayer(layer)
    return root
}

/// Columns of row `y` that are not the canvas colour.
private func coveredColumns(_ s: Surface, row y: Int) -> Int {
    (0..<s.width).filter { channelDifference(s.pixel(x: $0, y: y), Palette.canvas.premultiplied) > 8 }.count
}

/// Rows of column `x` that are not the canvas colour.
private func coveredRows(_ s: Surface, column x: Int) -> Int {
    (0..<s.height).filter { channelDifference(s.pixel(x: x, y: $0), Palette.canvas.premultiplied) > 8 }.count
}

/// First and last column of row `y` that are not the canvas colour.
private func coveredRange(_ s: Surface, row y: Int) -> ClosedRange<Int>? {
    let xs = (0..<s.width).filter { channelDifference(s.pixel(x: $0, y: y), Palette.canvas.premultiplied) > 8 }
    guard let a = xs.first, let b = xs.last else { return nil }
    return a...b
}

@Test func transformRotationAboutXWithPerspective() {
    // strict: (2, 0). +0.6 rad about x: z = y·sin, so the top edge (y < 0) goes away from the eye and narrows.
    let s = render(pictureScene(Transform3D.makeRotation(0.6, 1, 0, 0).concatenating(.makePerspective(distance: 300))))
    expectGolden(s, area: area, name: "rotation-x-perspective", tolerance: strict)
    let top = coveredRange(s, row: 50), bottom = coveredRange(s, row: 110)
    #expect(top != nil && bottom != nil)
    if let top, let bottom {
        #expect(top.count + 10 < bottom.count, "top edge narrower than the bottom edge: \(top) vs \(bottom)")
    }
}

@Test func transformRotationAboutYWithPerspective() {
    // strict: (2, 0). +0.6 rad about y: z = −x·sin, so the right edge goes away from the eye and shortens.
    let s = render(pictureScene(Transform3D.makeRotation(0.6, 0, 1, 0).concatenating(.makePerspective(distance: 300))))
    expectGolden(s, area: area, name: "rotation-y-perspective", tolerance: strict)
    let xs = (0..<s.width).filter { coveredRows(s, column: $0) > 0 }
    #expect(xs.count > 20)
    if let l = xs.first, let r = xs.last {
        let left = coveredRows(s, column: l + 3), right = coveredRows(s, column: r - 3)
        #expect(right + 10 < left, "right edge shorter than the left edge: \(right) vs \(left)")
    }
}

/// Outer (light, 140×100) turned +45° about y with perspective; inner (the picture, 80×60, centred in it)
/// turned −45° about y with perspective. The outer layer flattens the inner into its plane.
func flatteningScene() -> Layer {
    let root = canvas(200, 160)
    let outer = makeLayer(Rect(x: 30, y: 30, width: 140, height: 100), background: Color(red: 0.7, green: 0.75, blue: 0.85), name: "outer")
    outer.transform = Transform3D.makeRotation(.pi / 4, 0, 1, 0).concatenating(.makePerspective(distance: 300))
    let inner = makeLayer(Rect(x: 30, y: 20, width: 80, height: 60), name: "inner")
    inner.contents = .image(testImage())
    inner.transform = Transform3D.makeRotation(-.pi / 4, 0, 1, 0).concatenating(.makePerspective(distance: 300))
    outer.addSublayer(inner)
    root.addSublayer(outer)
    return root
}

@Test func transformFlatteningDoesNotCancelOppositeRotations() {
    // strict: (2, 0)
    let s = render(flatteningScene())
    expectGolden(s, area: area, name: "flattening-no-cancel", tolerance: strict)
    // If the rotations cancelled, the inner picture would be face-on, 80 points wide. Flattened, it is
    // foreshortened twice (≈ cos45° each time): count its saturated (red/green) pixels on a row of its upper half.
    let y = 70
    let saturated = (0..<s.width).filter { x in
        let p = s.pixel(x: x, y: y)
        return Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) > 100
    }
    #expect(saturated.count > 10 && saturated.count < 60, "inner picture is \(saturated.count) px wide on row \(y); face-on it would be 80")
    // By hand, world(inner) = local(inner) · Z · local(outer): the inner corners land at (80.5, 50.8), (120.6, 49.1),
    // (80.5, 109.2), (120.6, 110.9); without the flattening (true 3D) they would be at x = 63.4 and 144.2.
    if let first = saturated.first, let last = saturated.last {
        #expect((80...82).contains(first), "inner picture starts at x = \(first), expected ≈ 80.5")
        #expect((119...121).contains(last), "inner picture ends at x = \(last), expected ≈ 120.6")
    }
}

/// A transparent full-canvas parent whose sublayerTransform has m34 = −1/500, with two 70×70 pictures
/// centred at (55, 80) and (145, 80), each turned +45° about y (no perspective of their own).
func sharedPerspectiveScene() -> Layer {
    let root = canvas(200, 160)
    let parent = makeLayer(Rect(x: 0, y: 0, width: 200, height: 160), name: "perspective parent")
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 500
    parent.sublayerTransform = perspective
    for cx in [55.0, 145.0] {
        let child = makeLayer(Rect(x: cx - 35, y: 45, width: 70, height: 70))
        child.contents = .image(testImage())
        child.transform = .makeRotation(.pi / 4, 0, 1, 0)
        parent.addSublayer(child)
    }
    root.addSublayer(parent)
    return root
}

@Test func transformSublayerTransformSharedPerspective() {
    // strict: (2, 0)
    let s = render(sharedPerspectiveScene())
    expectGolden(s, area: area, name: "sublayer-transform-shared-perspective", tolerance: strict)
    // One vanishing point at the parent's centre (100, 80), so the two are not copies of each other. By hand
    // (x' = x / (1 − z/500), relative to the centre): the left child spans −73.4…−19.3 (54 px wide), the right
    // one 21.3…66.5 (45 px). Each with its own perspective, both would be equally wide.
    let row = 80
    let left = (0..<100).filter { channelDifference(s.pixel(x: $0, y: row), Palette.canvas.premultiplied) > 8 }
    let right = (100..<200).filter { channelDifference(s.pixel(x: $0, y: row), Palette.canvas.premultiplied) > 8 }
    #expect(abs(left.count - 54) <= 2, "left child is \(left.count) px wide, expected 54 ± 2")
    #expect(abs(right.count - 45) <= 2, "right child is \(right.count) px wide, expected 45 ± 2")
    if let l = left.first { #expect(abs(l - (100 - 73)) <= 2, "left child starts at \(l), expected ≈ 26.6") }
    if let r = right.last { #expect(abs(r - (100 + 66)) <= 2, "right child ends at \(r), expected ≈ 166.5") }
}

@Test func transformZPositionOrder() {
    // strict: (2, 0). Array order A, B, C with zPosition 2, 0, 1: drawn B, C, A, so A is on top.
    let root = canvas(200, 160)
    let a = makeLayer(Rect(x: 30, y: 30, width: 80, height: 60), background: Palette.quadrantTopLeft, name: "A")
    let b = makeLayer(Rect(x: 60, y: 50, width: 80, height: 60), background: Palette.quadrantTopRight, name: "B")
    let c = makeLayer(Rect(x: 90, y: 70, width: 80, height: 60), background: Palette.quadrantBottomLeft, name: "C")
    a.zPosition = 2; b.zPosition = 0; c.zPosition = 1
    root.sublayers = [a, b, c]
    let s = render(root)
    expectGolden(s, area: area, name: "z-position-order", tolerance: strict)
    expectPixel(s, 70, 60, Palette.quadrantTopLeft.premultiplied, "A over B")
    expectPixel(s, 100, 80, Palette.quadrantTopLeft.premultiplied, "A over B and C")
    expectPixel(s, 120, 100, Palette.quadrantBottomLeft.premultiplied, "C over B")
    expectPixel(s, 75, 100, Palette.quadrantTopRight.premultiplied, "B alone")
}

@Test func transformIsDoubleSidedFalseHidesBackFace() {
    // strict: (2, 0). Both turned 180° about y: left isDoubleSided = false (nothing), right true (mirrored).
    let root = canvas(200, 160)
    for (cx, doubleSided) in [(55.0, false), (145.0, true)] {
        let layer = makeLayer(Rect(x: cx - 40, y: 50, width: 80, height: 60), name: doubleSided ? "double" : "single")
        layer.contents = .image(testImage())
        layer.isDoubleSided = doubleSided
        layer.transform = .makeRotation(.pi, 0, 1, 0)
        root.addSublayer(layer)
    }
    let s = render(root)
    expectGolden(s, area: area, name: "is-double-sided", tolerance: strict)
    for (x, y) in [(25, 60), (55, 80), (85, 100)] {
        expectPixel(s, x, y, Palette.canvas.premultiplied, "single-sided layer seen from the back is not drawn")
    }
    expectPixel(s, 170, 60, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "mirrored: red quadrant now top-right")
    expectPixel(s, 120, 60, Palette.quadrantTopRight.premultiplied, tolerance: 1, "mirrored: green quadrant now top-left")
}
