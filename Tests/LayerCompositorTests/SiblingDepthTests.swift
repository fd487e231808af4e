import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// SEMANTICS.md, "Sibling order is depth order": a plain layer's sublayers are drawn back to front as planes in its
// space; coplanar ones keep ascending zPosition, ties in array order.

private let red = Color(red: 0.85, green: 0.15, blue: 0.1)
private let blue = Color(red: 0.1, green: 0.3, blue: 0.85)

/// A 200×160 canvas seen with perspective from 400 points, and two 100-point squares (red first, then blue) centred
/// on it, each given `transform`.
private func siblingsScene(red redTransform: Transform3D, blue blueTransform: Transform3D) -> Layer {
    let root = canvas(200, 160)
    var perspective = Transform3D.identity
    perspective.m34 = -1 / 400
    root.sublayerTransform = perspective
    for (color, transform, name) in [(red, redTransform, "red"), (blue, blueTransform, "blue")] {
        let plane = makeLayer(Rect(x: 50, y: 30, width: 100, height: 100), background: color, name: name)
        plane.transform = transform
        root.addSublayer(plane)
    }
    return root
}

private func isRed(_ p: PremultipliedColor) -> Bool { p.r > 180 && p.b < 60 }
private func isBlue(_ p: PremultipliedColor) -> Bool { p.b > 180 && p.r < 60 }

@Suite("sibling depth order")
struct SiblingDepthTests {
    @Test func aLaterSiblingFartherAwayIsDrawnBehind() {
        // Blue comes later in the array but 60 points behind red: red covers it where they overlap.
        let s = render(siblingsScene(red: .makeTranslation(0, 0, 30), blue: .makeTranslation(0, 0, -30)))
        #expect(isRed(s.pixel(x: 100, y: 80)), "centre: \(s.pixel(x: 100, y: 80))")
    }

    @Test func crossingSiblingsAreSplitAtTheirIntersection() {
        // Red turned +45° about y (left edge near), blue −45° (right edge near): each is in front on its near side.
        let s = render(siblingsScene(red: .makeRotation(.pi / 4, 0, 1, 0), blue: .makeRotation(-.pi / 4, 0, 1, 0)))
        #expect(isRed(s.pixel(x: 80, y: 80)), "left: \(s.pixel(x: 80, y: 80))")
        #expect(isBlue(s.pixel(x: 120, y: 80)), "right: \(s.pixel(x: 120, y: 80))")
    }

    @Test func coplanarSiblingsKeepArrayOrderAndZPositionStillLifts() {
        // Flat: blue (later) on top.
        let flat = render(siblingsScene(red: .identity, blue: .identity))
        #expect(isBlue(flat.pixel(x: 100, y: 80)))
        // zPosition moves red 10 points nearer: drawn last, on top.
        let lifted = siblingsScene(red: .identity, blue: .identity)
        lifted.sublayers?.first?.zPosition = 10
        #expect(isRed(render(lifted).pixel(x: 100, y: 80)))
    }

    @Test func parallelSiblingsInOrderAndHostileOnesDrawSafely() {
        // The 2D path's check: planes parallel to the layer's and ascending in depth keep their order, no tree.
        let root = siblingsScene(red: .makeTranslation(0, 0, -5), blue: .makeRotation(0.3, 0, 0, 1))
        #expect(isBlue(render(root).pixel(x: 100, y: 80)))
        // A NaN depth is no reason to reorder (nor to crash).
        let hostile = siblingsScene(red: .makeTranslation(0, 0, .nan), blue: .makeTranslation(0, 0, .infinity))
        _ = render(hostile)
        // Nor NaN or huge turns, which send the siblings to the BSP tree.
        _ = render(siblingsScene(red: .makeRotation(.nan, 0, 1, 0), blue: .makeRotation(.pi / 4, 1e300, 0, 1)))
        let edgeOn = render(siblingsScene(red: .makeRotation(.pi / 2, 0, 1, 0), blue: .makeRotation(-.pi / 2, 1, 0, 0)))
        #expect(edgeOn.pixel(x: 100, y: 80) == render(canvas(200, 160)).pixel(x: 100, y: 80), "edge-on planes draw nothing")
    }
}
