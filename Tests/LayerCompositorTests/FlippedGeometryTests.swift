import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// isGeometryFlipped as drawn.

/// A white flipped container at (20,20,120,80) holding, in its flipped space, an orange bar at (10,10,40,20) and a
/// teal box at (70,40,40,30) with a navy square at its own (0,0,10,10). The flip mirrors y ↦ 80 − y in the
/// container: the bar shows near the bottom, the box near the top, and the square (the box's whole subtree
/// flips with it) at the box's bottom-left.
func flippedScene() -> Layer {
    let root = canvas(160, 120)
    let container = makeLayer(Rect(x: 20, y: 20, width: 120, height: 80), background: .white, name: "container")
    container.isGeometryFlipped = true
    container.addSublayer(makeLayer(Rect(x: 10, y: 10, width: 40, height: 20), background: Palette.orange, name: "bar"))
    let box = makeLayer(Rect(x: 70, y: 40, width: 40, height: 30), background: Palette.teal, name: "box")
    box.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 10, height: 10), background: Palette.navy, name: "square"))
    container.addSublayer(box)
    root.addSublayer(container)
    return root
}

@Test func flippedGeometryMirrorsTheSublayers() {
    let s = render(flippedScene())
    expectGolden(s, area: "geometry", name: "flipped-sublayers", tolerance: .strict)
    // Canvas = container + (20, 20).
    expectPixel(s, 50, 80, Palette.orange.premultiplied, "the bar: container y 50…70, near the bottom")
    expectPixel(s, 50, 40, Color.white.premultiplied, "where the bar would be unflipped")
    expectPixel(s, 110, 40, Palette.teal.premultiplied, "the box: container y 10…40, near the top")
    expectPixel(s, 95, 55, Palette.navy.premultiplied, "the square at the box's bottom-left")
    expectPixel(s, 95, 35, Palette.teal.premultiplied, "not at the box's top-left")
}
