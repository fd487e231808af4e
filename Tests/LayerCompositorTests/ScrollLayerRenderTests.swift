import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §5 in pixels: the scrolled origin moves the sublayers, not the layer's own contents.

@Suite("ScrollLayer: §5's pixels")
struct ScrollLayerRenderTests {
    @Test func aScrolledSublayerPointLandsOnTheTopLeftPixelAndOwnContentsStayPut() {
        let root = canvas(64, 64, background: .black)
        let scroll = ScrollLayer()
        scroll.frame = Rect(x: 8, y: 8, width: 32, height: 32)
        scroll.contents = .image(Image(width: 32, height: 32) { px in
            for i in 0..<(32 * 32) { px[i] = (i % 32 < 16 ? Color.blue : Color.clear).premultiplied.bgra }
        })
        let content = makeLayer(Rect(x: 0, y: 0, width: 200, height: 200))
        // One red pixel-sized square at content point (30, 40).
        content.addSublayer(makeLayer(Rect(x: 30, y: 40, width: 1, height: 1), background: .red))
        scroll.addSublayer(content)
        root.addSublayer(scroll)
        scroll.scroll(to: Point(x: 30, y: 40))
        let s = render(root)
        expectPixel(s, 8, 8, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "content (30,40) at the scroll layer's top-left")
        expectPixel(s, 9, 9, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "the own contents' left half stays where it was")
        expectPixel(s, 30, 9, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "its transparent right half too")
        expectPixel(s, 7, 7, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "outside the scroll layer: clipped")
    }
}
