import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// More hand-computed checks (no goldens): geometry of the transform chain, and compositing arithmetic.

private let redPixel = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
private let canvasPixel = Palette.canvas.premultiplied

@Test func anchorPointIsTheCentreOfRotation() {
    // bounds 40×20, anchorPoint (0,0) at position (50,50), +90° about z: (u, v) → (50 − v, 50 + u),
    // so the layer covers x 30…50, y 50…90.
    let root = canvas(100, 100)
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 40, height: 20)
    layer.anchorPoint = Point(x: 0, y: 0)
    layer.position = Point(x: 50, y: 50)
    layer.backgroundColor = .red
    layer.transform = .makeRotation(.pi / 2, 0, 0, 1)
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 31, 51, redPixel, tolerance: 1, "inside, near the turned layer's corner (30, 50)")
    expectPixel(s, 48, 88, redPixel, tolerance: 1, "inside, near the corner (50, 90)")
    expectPixel(s, 29, 70, canvasPixel, tolerance: 1, "left of x = 30")
    expectPixel(s, 51, 70, canvasPixel, tolerance: 1, "right of x = 50")
    expectPixel(s, 40, 91, canvasPixel, tolerance: 1, "below y = 90")
    expectPixel(s, 55, 55, canvasPixel, tolerance: 1, "where the unturned layer would be")
}

@Test func boundsOriginShiftsSublayers() {
    // A parent at frame (20,20,100,80) whose bounds.origin is (30,10): a child at (30,10) in the parent's
    // space shows at the parent's top-left corner.
    let root = canvas(140, 120)
    let parent = makeLayer(Rect(x: 20, y: 20, width: 100, height: 80), background: .white)
    parent.bounds.origin = Point(x: 30, y: 10)
    parent.addSublayer(makeLayer(Rect(x: 30, y: 10, width: 20, height: 20), background: .red))
    root.addSublayer(parent)
    let s = render(root)
    expectPixel(s, 20, 20, redPixel, "child at the parent's top-left")
    expectPixel(s, 39, 39, redPixel, "child's last pixel")
    expectPixel(s, 40, 40, Color.white.premultiplied, "parent background past the child")
}

@Test func zPositionMovesTowardsTheEyeUnderPerspective() {
    // Shared perspective (m34 = −1/500 about the parent's centre (100,100)); a 40×40 child at the centre with
    // zPosition 100 is scaled by 1 / (1 − 100/500) = 1.25: 50×50, spanning 75…125.
    let root = canvas(200, 200)
    let parent = makeLayer(Rect(x: 0, y: 0, width: 200, height: 200))
    parent.sublayerTransform.m34 = -1.0 / 500
    let child = makeLayer(Rect(x: 80, y: 80, width: 40, height: 40), background: .red)
    child.zPosition = 100
    parent.addSublayer(child)
    root.addSublayer(parent)
    let s = render(root)
    expectPixel(s, 76, 100, redPixel, tolerance: 1, "inside the enlarged child (left)")
    expectPixel(s, 123, 123, redPixel, tolerance: 1, "inside the enlarged child (bottom-right)")
    expectPixel(s, 74, 100, canvasPixel, tolerance: 1, "outside the enlarged child (left)")
    expectPixel(s, 126, 100, canvasPixel, tolerance: 1, "outside the enlarged child (right)")
}

@Test(arguments: [(1.2, true), (2.0, false), (-2.0, false), (-1.2, true)])
func isDoubleSidedFalseUnderPerspective(_ angle: Double, _ visible: Bool) {
    // A single-sided layer turned about y with perspective: drawn while it faces the eye (|angle| < 90°).
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 30, y: 20, width: 100, height: 80), background: .red)
    layer.isDoubleSided = false
    layer.transform = Transform3D.makeRotation(angle, 0, 1, 0).concatenating(.makePerspective(distance: 300))
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 80, 60, visible ? redPixel : canvasPixel, tolerance: 1, "centre at \(angle) rad")
}

@Test func cornerRadiusClipsContentsOnlyWithMasksToBounds() {
    for masks in [false, true] {
        let root = canvas(100, 80)
        let layer = makeLayer(Rect(x: 20, y: 10, width: 60, height: 60))
        layer.contents = .image(Image(width: 4, height: 4, color: .red))
        layer.cornerRadius = 20
        layer.masksToBounds = masks
        root.addSublayer(layer)
        let s = render(root)
        expectPixel(s, 20, 10, masks ? canvasPixel : redPixel, "corner pixel, masksToBounds = \(masks)")
        expectPixel(s, 50, 40, redPixel, "centre, masksToBounds = \(masks)")
    }
}

@Test func nestedOpacitiesMultiply() {
    // A parent at 0.5 with a single red child at 0.5: 25% red over the canvas.
    let root = canvas(60, 60)
    let parent = makeLayer(Rect(x: 10, y: 10, width: 40, height: 40))
    parent.opacity = 0.5
    let child = makeLayer(Rect(x: 0, y: 0, width: 40, height: 40), background: .red)
    child.opacity = 0.5
    parent.addSublayer(child)
    root.addSublayer(parent)
    let s = render(root)
    expectPixel(s, 30, 30, over(.red, alpha: 0.25, Palette.canvas), tolerance: 2, "0.5 × 0.5")
}

@Test func opacityAppliesToBorderAndBackgroundAsOneGroup() {
    // Opacity 0.5 on a layer with a blue background and a red border: on the border only red shows (at 50%),
    // not red over blue at 50% each.
    let root = canvas(100, 80)
    let layer = makeLayer(Rect(x: 20, y: 10, width: 60, height: 60), background: .blue)
    layer.borderWidth = 6
    layer.borderColor = .red
    layer.opacity = 0.5
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 22, 40, over(.red, alpha: 0.5, Palette.canvas), tolerance: 2, "border at 50%")
    expectPixel(s, 50, 40, over(.blue, alpha: 0.5, Palette.canvas), tolerance: 2, "background at 50%")
}

@Test func translucentMaskScalesAlpha() {
    // A mask whose background is white at alpha 0.5 halves the layer everywhere in the mask's bounds;
    // outside the mask's bounds (the mask covers only the left half) nothing is drawn.
    let root = canvas(100, 80)
    let layer = makeLayer(Rect(x: 20, y: 10, width: 60, height: 60), background: .red)
    layer.mask = makeLayer(Rect(x: 0, y: 0, width: 30, height: 60), background: Color.white.withAlpha(0.5))
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 35, 40, over(.red, alpha: 0.5, Palette.canvas), tolerance: 2, "under the half-transparent mask")
    expectPixel(s, 65, 40, canvasPixel, "outside the mask's bounds")
}

@Test func hiddenLayersAndTheirSublayersAreNotDrawn() {
    let root = canvas(60, 60)
    let parent = makeLayer(Rect(x: 10, y: 10, width: 40, height: 40), background: .blue)
    parent.addSublayer(makeLayer(Rect(x: 10, y: 10, width: 20, height: 20), background: .red))
    parent.isHidden = true
    root.addSublayer(parent)
    let s = render(root)
    expectPixel(s, 30, 30, canvasPixel, "hidden parent and child")
    expectPixel(s, 15, 15, canvasPixel, "hidden parent")
}

@Test func unblurredShadowHasExactColourAndOpacity() {
    // shadowRadius 0 and a rectangular shadowPath: a hard shadow, black at 0.8 over the canvas.
    let root = canvas(100, 80)
    let layer = makeLayer(Rect(x: 20, y: 10, width: 40, height: 40), background: .red)
    layer.shadowOpacity = 0.8
    layer.shadowRadius = 0
    layer.shadowOffset = Size(width: 10, height: 10)
    layer.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 40, height: 40))
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 65, 45, over(.black, alpha: 0.8, Palette.canvas), tolerance: 1, "inside the shadow, outside the layer")
    expectPixel(s, 40, 30, redPixel, "the layer above its shadow")
    expectPixel(s, 71, 45, canvasPixel, tolerance: 1, "past the shadow's right edge (x = 70)")
    expectPixel(s, 25, 55, canvasPixel, tolerance: 1, "left of the shadow (x < 30)")
}

@Test func masksToBoundsClipsTheLayersOwnShadow() {
    // SEMANTICS.md: masksToBounds clips the layer's own shadow too.
    let root = canvas(100, 80)
    let layer = makeLayer(Rect(x: 20, y: 10, width: 40, height: 40), background: .red)
    layer.shadowOpacity = 1
    layer.shadowRadius = 0
    layer.shadowOffset = Size(width: 10, height: 10)
    layer.masksToBounds = true
    root.addSublayer(layer)
    let s = render(root)
    expectPixel(s, 65, 45, canvasPixel, "the shadow outside the bounds is clipped")
}

@Test func renderIntoWithoutClearKeepsWhatIsThere() {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
    root.position = Point(x: 10, y: 10)
    root.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 10, height: 20), background: .red))
    let surface = Surface(width: 20, height: 20)
    surface.clear(to: .blue)
    sharedCompositor.render(root.snapshot(), into: surface, clear: false)
    expectPixel(surface, 5, 10, redPixel, "drawn")
    expectPixel(surface, 15, 10, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "kept")
    sharedCompositor.render(root.snapshot(), into: surface)
    expectPixel(surface, 15, 10, .clear, "cleared to transparent")
}

@Test func opaqueLayersHideOnlyWhatTheyCover() {
    // Opaque draws above may hide what is beneath (occlusion culling), but only where they are opaque:
    // outside a centred contents rect (no background), outside rounded clipped corners, and inside a border-only frame.
    let root = canvas(200, 100)
    root.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 200, height: 100), background: .red))
    let centred = makeLayer(Rect(x: 10, y: 10, width: 80, height: 80))
    centred.contents = .image(Image(width: 40, height: 40, color: .blue))
    centred.contentsGravity = .center   // the blue square covers (30…70, 30…70) only
    root.addSublayer(centred)
    let rounded = makeLayer(Rect(x: 110, y: 10, width: 80, height: 80))
    rounded.contents = .image(Image(width: 8, height: 8, color: .blue))
    rounded.cornerRadius = 30
    rounded.masksToBounds = true
    root.addSublayer(rounded)
    let s = render(root)
    let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
    expectPixel(s, 50, 50, blue, "centred contents")
    expectPixel(s, 20, 50, redPixel, "beside the centred contents")
    expectPixel(s, 50, 80, redPixel, "below the centred contents")
    expectPixel(s, 150, 50, blue, "rounded contents")
    expectPixel(s, 111, 11, redPixel, "outside the rounded, clipped corner")
    expectPixel(s, 188, 88, redPixel, "outside the rounded, clipped corner (bottom-right)")
}
