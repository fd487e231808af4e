import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// A TextLayer through the compositor: its contents are the glyphs, so the shadow is the glyphs' shadow (not the
// bounds'), and a layer magnified 2× shows its contentsScale (SEMANTICS-LAYERS.md §2).

@Suite("TextLayer composited")
struct TextLayerCompositingTests {
    /// A white "I" (a vertical bar) at 60 pt on a grey canvas, with a hard black shadow 10 points right and down.
    func shadowedText() -> Layer {
        let root = canvas(100, 100, background: Color(white: 0.5))
        let text = TextLayer()
        text.frame = Rect(x: 10, y: 10, width: 80, height: 80)
        text.string = .plain("I")
        text.font = "DejaVu Sans"
        text.fontSize = 60
        text.shadowOpacity = 1
        text.shadowColor = .black
        text.shadowRadius = 0
        text.shadowOffset = Size(width: 10, height: 10)
        root.addSublayer(text)
        return root
    }

    @Test func theShadowFollowsTheGlyphs() throws {
        let surface = sharedCompositor.render(shadowedText().snapshot(), width: 100, height: 100)
        let isWhite = { (x: Int, y: Int) in surface.pixel(x: x, y: y).r > 240 }
        let isBlack = { (x: Int, y: Int) in surface.pixel(x: x, y: y).r < 15 }
        let row = 50
        let glyph = try #require((0..<100).filter { isWhite($0, row) }.last, "the bar")
        #expect(isBlack(glyph + 10, row + 10), "the bar's shadow, 10 points right and down")
        #expect(!isBlack(85, 25) && !isBlack(60, 95), "no shadow of the bounds (which would cover 20...100 both ways)")
        #expect(!isBlack(glyph + 30, row + 10), "none beyond the glyph's")
    }
}
