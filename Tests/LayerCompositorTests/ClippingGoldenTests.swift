import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// References/clipping.

/// A white rounded container (radius 20, navy 4-point border, masksToBounds) at (30,20,100,80) holding an
/// orange sublayer at (50,−15,70,60) in its space, which pokes out above the top and past the right edge.
func clippingScene() -> Layer {
    let root = canvas(160, 120)
    let container = makeLayer(Rect(x: 30, y: 20, width: 100, height: 80), background: .white, name: "container")
    container.cornerRadius = 20
    container.borderWidth = 4
    container.borderColor = Palette.navy
    container.masksToBounds = true
    container.addSublayer(makeLayer(Rect(x: 50, y: -15, width: 70, height: 60), background: Palette.orange, name: "poking out"))
    root.addSublayer(container)
    return root
}

@Test func clippingRoundedCornersBorderAndMasksToBounds() {
    // strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
    let s = render(clippingScene())
    expectGolden(s, area: "clipping", name: "rounded-border-masks-to-bounds",
                 tolerance: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0))
    // Container space (u, v) is canvas (30 + u, 20 + v).
    expectPixel(s, 110, 15, Palette.canvas.premultiplied, "above the container: the sublayer is cut off")
    expectPixel(s, 135, 40, Palette.canvas.premultiplied, "right of the container: the sublayer is cut off")
    expectPixel(s, 100, 21, Palette.navy.premultiplied, "top border over the sublayer: the border is drawn above it")
    expectPixel(s, 127, 60, Palette.navy.premultiplied, "right border over the sublayer")
    expectPixel(s, 100, 40, Palette.orange.premultiplied, "the sublayer inside the container")
    expectPixel(s, 129, 20, Palette.canvas.premultiplied, "outside the rounded top-right corner")
    expectPixel(s, 60, 80, Color.white.premultiplied, "the container's own background")
}
