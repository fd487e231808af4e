import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// isGeometryFlipped as drawn, and the model's convert/hitTest agreeing with the pixels the compositor draws.

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

@Test func hitTestingFindsTheFlippedSublayersWhereTheyAreDrawn() {
    let root = flippedScene()
    #expect(root.hitTest(Point(x: 50, y: 80))?.name == "bar")
    #expect(root.hitTest(Point(x: 95, y: 55))?.name == "square")
    #expect(root.hitTest(Point(x: 50, y: 40))?.name == "container")
}

/// A canvas with a perspective holding a flipped stage with a card turned in 3D on it: the hard case for
/// agreeing with the compositor.
private func cardInPerspective() -> (root: Layer, card: Layer) {
    let root = canvas(160, 120)
    root.sublayerTransform = .makePerspective(distance: 300)
    let stage = makeLayer(Rect(x: 10, y: 10, width: 140, height: 100), background: .white, name: "stage")
    stage.isGeometryFlipped = true
    stage.transform = .makeRotation(0.3, 1, 0, 0)
    let card = makeLayer(Rect(x: 30, y: 20, width: 80, height: 50), background: Palette.orange, name: "card")
    card.transform = .makeRotation(0.7, 1, 0.5, 0)
    stage.addSublayer(card)
    root.addSublayer(stage)
    return (root, card)
}

@Test func convertAndHitTestAgreeWithThePixels() {
    let (root, card) = cardInPerspective()
    let s = render(root)
    let orange = Palette.orange.premultiplied
    var inside = 0, outside = 0
    for y in stride(from: 2, to: 118, by: 3) {
        for x in stride(from: 2, to: 158, by: 3) {
            let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
            guard let p = card.convert(centre, from: root) else { continue }
            // Away from the edges (1.5 points either way), the pixel is the card's exactly when the point is on it.
            if card.bounds.insetBy(dx: 1.5, dy: 1.5).contains(p) {
                inside += 1
                expectPixel(s, x, y, orange, tolerance: 1, "on the card at \(p)")
                #expect(root.hitTest(centre) === card)
            } else if !card.bounds.insetBy(dx: -1.5, dy: -1.5).contains(p) {
                outside += 1
                #expect(channelDifference(s.pixel(x: x, y: y), orange) > 10, "off the card at \(p), pixel (\(x), \(y))")
                #expect(root.hitTest(centre) !== card)
            }
        }
    }
    #expect(inside > 50 && outside > 50)
}
