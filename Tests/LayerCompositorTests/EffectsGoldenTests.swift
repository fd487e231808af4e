import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Each effect alone on a 160×120 canvas (References/effects). Renders are deterministic, so every golden
// here is strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0).

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
private let area = "effects"

/// The 160×120 canvas with one layer at (30,20,100,80).
private func effectScene(_ configure: (Layer) -> Void) -> (root: Layer, layer: Layer) {
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 30, y: 20, width: 100, height: 80), name: "subject")
    configure(layer)
    root.addSublayer(layer)
    return (root, layer)
}

@Test func effectBackgroundColorOnly() {
    // strict: (2, 0)
    let (root, _) = effectScene { $0.backgroundColor = Palette.teal }
    let s = render(root)
    expectGolden(s, area: area, name: "background", tolerance: strict)
    expectPixel(s, 80, 60, Palette.teal.premultiplied, "inside the layer")
    expectPixel(s, 29, 60, Palette.canvas.premultiplied, "just left of the layer")
    expectPixel(s, 30, 20, Palette.teal.premultiplied, "the layer's first pixel (edges on pixel boundaries are sharp)")
}

@Test func effectContentsResizeGravity() {
    // strict: (2, 0). The 64×48 picture stretched to 100×70 (non-uniformly: resize ignores the aspect ratio).
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 30, y: 25, width: 100, height: 70))
    layer.contents = .image(testImage())
    layer.contentsGravity = .resize
    root.addSublayer(layer)
    let s = render(root)
    expectGolden(s, area: area, name: "contents-resize", tolerance: strict)
    // Quadrants land in the matching quarters of the bounds.
    expectPixel(s, 40, 35, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "top-left quarter")
    expectPixel(s, 120, 35, Palette.quadrantTopRight.premultiplied, tolerance: 1, "top-right quarter")
    expectPixel(s, 40, 85, Palette.quadrantBottomLeft.premultiplied, tolerance: 1, "bottom-left quarter")
}

@Test func effectCornerRadiusWithBackground() {
    // strict: (2, 0)
    let (root, _) = effectScene { $0.backgroundColor = Palette.teal; $0.cornerRadius = 20 }
    let s = render(root)
    expectGolden(s, area: area, name: "corner-radius", tolerance: strict)
}

@Test func effectMaskedCornersTwoRounded() {
    // strict: (2, 0). Only the top-left and bottom-right corners are rounded.
    let (root, _) = effectScene {
        $0.backgroundColor = Palette.teal
        $0.cornerRadius = 24
        $0.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
    }
    let s = render(root)
    expectGolden(s, area: area, name: "masked-corners", tolerance: strict)
    expectPixel(s, 30, 20, Palette.canvas.premultiplied, "top-left corner is rounded away")
    expectPixel(s, 129, 99, Palette.canvas.premultiplied, "bottom-right corner is rounded away")
    expectPixel(s, 129, 20, Palette.teal.premultiplied, "top-right corner stays square")
    expectPixel(s, 30, 99, Palette.teal.premultiplied, "bottom-left corner stays square")
}

@Test func effectBorderAlone() {
    // strict: (2, 0). No background: the border is a 6-point frame and the canvas shows through its middle.
    let (root, _) = effectScene { $0.borderWidth = 6; $0.borderColor = Palette.navy }
    let s = render(root)
    expectGolden(s, area: area, name: "border", tolerance: strict)
    expectPixel(s, 80, 60, Palette.canvas.premultiplied, "inside the border")
    expectPixel(s, 35, 60, Palette.navy.premultiplied, "on the left border (x = 30…36)")
    expectPixel(s, 36, 60, Palette.canvas.premultiplied, "just inside the left border")
}

@Test func effectBorderWithCornerRadius() {
    // strict: (2, 0). Outer radius 20, inner radius 20 − 8 = 12.
    let (root, _) = effectScene {
        $0.backgroundColor = Palette.yellow
        $0.borderWidth = 8
        $0.borderColor = Palette.navy
        $0.cornerRadius = 20
    }
    let s = render(root)
    expectGolden(s, area: area, name: "border-corner-radius", tolerance: strict)
}

@Test func effectShadowAlone() {
    // strict: (2, 0). Opaque layer; shadow opacity 0.8, σ = 6, offset (6, 6): down and to the right.
    let (root, _) = effectScene {
        $0.backgroundColor = Palette.yellow
        $0.shadowOpacity = 0.8
        $0.shadowRadius = 6
        $0.shadowOffset = Size(width: 6, height: 6)
    }
    let s = render(root)
    expectGolden(s, area: area, name: "shadow", tolerance: strict)
    // Below the bottom edge, the shadow darkens the canvas; above the top edge it does not reach.
    #expect(s.pixel(x: 80, y: 103).r < 200, "shadow under the bottom edge: \(s.pixel(x: 80, y: 103))")
    expectPixel(s, 80, 8, Palette.canvas.premultiplied, tolerance: 2, "12 px above the top edge (18 above the offset shadow's edge, 3σ): no shadow")
}

@Test func effectOpacityHalfSingleLayer() {
    // strict: (2, 0)
    let (root, _) = effectScene { $0.backgroundColor = Palette.navy; $0.opacity = 0.5 }
    let s = render(root)
    expectGolden(s, area: area, name: "opacity-half", tolerance: strict)
    expectPixel(s, 80, 60, over(Palette.navy, alpha: 0.5, Palette.canvas), tolerance: 1, "half navy over the canvas")
}

@Test func effectRotation30DegreesAboutZ() {
    // strict: (2, 0). +30° about z turns clockwise on screen (y down); the picture shows which way.
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 40, y: 30, width: 80, height: 60))
    layer.contents = .image(testImage())
    layer.transform = .makeRotation(.pi / 6, 0, 0, 1)
    root.addSublayer(layer)
    let s = render(root)
    expectGolden(s, area: area, name: "rotation-z-30", tolerance: strict)
    // The unrotated top-right corner (80+… ) moves down: clockwise. The top-right corner (40, −30) about the
    // anchor maps to (40·cos30 + 30·sin30, 40·sin30 − 30·cos30) = (49.6, −6.0) → pixel (129.6, 54.0).
    // Just inside it (towards the centre) is the green quadrant.
    expectPixel(s, 125, 55, Palette.quadrantTopRight.premultiplied, tolerance: 3, "the top-right (green) corner turned clockwise")
}
