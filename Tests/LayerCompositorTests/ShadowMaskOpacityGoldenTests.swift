import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Shadows (References/shadows), masks (References/masks) and group opacity (References/opacity), on 160×120.
// All strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0).

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)

// MARK: - Shadows

/// An 80×80 layer at (40,20) whose contents are an orange disc (transparent outside), with a black shadow:
/// opacity 0.8, σ = 4, offset (8, 8); optionally a rectangular shadowPath over its bounds.
func circleShadowScene(rectangularPath: Bool) -> Layer {
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 40, y: 20, width: 80, height: 80), name: "disc")
    layer.contents = .image(circleImage(size: 80, color: Palette.orange))
    layer.shadowOpacity = 0.8
    layer.shadowRadius = 4
    layer.shadowOffset = Size(width: 8, height: 8)
    if rectangularPath { layer.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 80, height: 80)) }
    root.addSublayer(layer)
    return root
}

@Test func shadowFollowsContentsAlpha() {
    // strict: (2, 0)
    let s = render(circleShadowScene(rectangularPath: false))
    expectGolden(s, area: "shadows", name: "contents-alpha-circle", tolerance: strict)
    // Layer space (u, v) is canvas (40 + u, 20 + v). At (82.5, 82.5) the offset disc's edge is 8.8 points away
    // (2.2σ): at most a trace of shadow. The disc's own transparent corner at (4.5, 4.5) shows the canvas.
    expectPixel(s, 122, 102, Palette.canvas.premultiplied, tolerance: 5, "outside the offset disc: (almost) no shadow")
    expectPixel(s, 44, 24, Palette.canvas.premultiplied, tolerance: 2, "the disc's transparent corner")
    #expect(s.pixel(x: 88, y: 106).r < 140, "shadow under the disc's bottom: \(s.pixel(x: 88, y: 106))")
}

@Test func shadowPathOverridesContentsAlpha() {
    // strict: (2, 0)
    let s = render(circleShadowScene(rectangularPath: true))
    expectGolden(s, area: "shadows", name: "shadow-path-rect", tolerance: strict)
    // (82.5, 82.5) is 5.5 points inside both edges of the offset square: Φ(1.375)² ≈ 0.84, × 0.8 ≈ 0.67 → r ≈ 78.
    #expect(s.pixel(x: 122, y: 102).r < 110, "rectangular shadow at the square's corner: \(s.pixel(x: 122, y: 102))")
    // At (10.5, 10.5) the disc is transparent (1.7 points outside it) and the offset square's shadow is there:
    // 2.5 points inside both of its edges, Φ(0.625)² · 0.8 ≈ 0.43 → r ≈ 134. The disc alone casts nothing there.
    #expect(s.pixel(x: 50, y: 30).r < 170, "shadow behind the disc's transparent corner: \(s.pixel(x: 50, y: 30))")
}

/// A container (no drawing of its own, shadow opacity 0.8, σ = 4, offset (8, 8)) holding a teal child with
/// cornerRadius 24 and masksToBounds: the shadow is on the container so the child's clip does not cut it.
func roundedChildShadowScene() -> Layer {
    let root = canvas(160, 120)
    let container = makeLayer(Rect(x: 40, y: 20, width: 80, height: 80), name: "shadow container")
    container.shadowOpacity = 0.8
    container.shadowRadius = 4
    container.shadowOffset = Size(width: 8, height: 8)
    let child = makeLayer(Rect(x: 0, y: 0, width: 80, height: 80), background: Palette.teal, name: "rounded child")
    child.contents = .image(testImage())
    child.cornerRadius = 24
    child.masksToBounds = true
    container.addSublayer(child)
    root.addSublayer(container)
    return root
}

@Test func shadowOfContainerFollowsRoundedChild() {
    // strict: (2, 0)
    let s = render(roundedChildShadowScene())
    expectGolden(s, area: "shadows", name: "rounded-child-container", tolerance: strict)
    // At (86.5, 86.5) the rounded offset corner (centre (64, 64), r 24) is 7.8 points away (≈2σ): a trace.
    // A square shadow would be 1.5 points inside both edges there: ≈ 0.4 alpha, r ≈ 140.
    #expect(s.pixel(x: 126, y: 106).r > 215, "beyond the rounded corner of the shadow: \(s.pixel(x: 126, y: 106))")
    // Straight below the bottom edge the shadow is dark.
    #expect(s.pixel(x: 88, y: 104).r < 120, "shadow under the bottom edge: \(s.pixel(x: 88, y: 104))")
    // The child's own rounded corner (top-left) shows the canvas: nothing of the layer or its shadow there.
    expectPixel(s, 41, 21, Palette.canvas.premultiplied, tolerance: 2, "outside the child's rounded top-left corner")
}

// MARK: - Masks

/// A 96×96 picture at (32,12) masked by a layer whose contents are a white disc (opaque inside, transparent
/// outside), frame = the layer's bounds.
func circleMaskScene() -> Layer {
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 32, y: 12, width: 96, height: 96), name: "masked")
    layer.contents = .image(testImage())
    let mask = Layer()
    mask.frame = layer.bounds
    mask.contents = .image(circleImage(size: 96, color: .white))
    layer.mask = mask
    root.addSublayer(layer)
    return root
}

@Test func maskFromImageAlpha() {
    // strict: (2, 0)
    let s = render(circleMaskScene())
    expectGolden(s, area: "masks", name: "image-alpha-circle", tolerance: strict)
    // Layer space (u, v) is canvas (32 + u, 12 + v); the disc is centred at (48, 48), radius 48.
    expectPixel(s, 33, 13, Palette.canvas.premultiplied, "outside the disc (top-left)")
    expectPixel(s, 126, 106, Palette.canvas.premultiplied, "outside the disc (bottom-right)")
    expectPixel(s, 60, 40, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "inside the disc: the picture")
    expectPixel(s, 60, 90, Palette.quadrantBottomLeft.premultiplied, tolerance: 1, "inside the disc: the picture")
}

// MARK: - Group opacity

/// A parent at (20,20,120,80) with opacity 0.5 holding a red child (0,0,70,50) and, above it, a blue child
/// (40,25,70,50): overlap in parent space (40…70, 25…50).
func groupOpacityScene() -> Layer {
    let root = canvas(160, 120)
    let parent = makeLayer(Rect(x: 20, y: 20, width: 120, height: 80), name: "group")
    parent.opacity = 0.5
    parent.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 70, height: 50), background: .red, name: "lower"))
    parent.addSublayer(makeLayer(Rect(x: 40, y: 25, width: 70, height: 50), background: .blue, name: "upper"))
    root.addSublayer(parent)
    return root
}

@Test func groupOpacityDoesNotShowThroughOverlap() {
    // strict: (2, 0)
    let s = render(groupOpacityScene())
    expectGolden(s, area: "opacity", name: "group-opacity-overlap", tolerance: strict)
    // Parent space (u, v) is canvas (20 + u, 20 + v). In the overlap: only the upper (blue) child, at 50%.
    expectPixel(s, 75, 57, over(.blue, alpha: 0.5, Palette.canvas), tolerance: 2, "overlap = 50% blue over the canvas")
    expectPixel(s, 30, 30, over(.red, alpha: 0.5, Palette.canvas), tolerance: 2, "lower child alone = 50% red")
    expectPixel(s, 120, 85, over(.blue, alpha: 0.5, Palette.canvas), tolerance: 2, "upper child alone = 50% blue")
}
