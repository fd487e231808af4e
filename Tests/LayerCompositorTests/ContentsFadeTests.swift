import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// The contents crossfade (SEMANTICS-ANIMATION.md §5): at f, the contents area shows (1 − f)·A + f·B per pixel,
// premultiplied, each placed by the layer's own gravity; implicitly when a hosted layer's contents change, or by an
// explicit animation of "contents"; discrete keyframes flip (sprite sheets).

@Suite("Contents crossfade")
struct ContentsFadeTests {
    let red = Image(width: 4, height: 4, color: .red)
    let blue = Image(width: 4, height: 4, color: .blue)
    let mid = PremultipliedColor(r: 128, g: 0, b: 128, a: 255)

    func scene() -> (Layer, Layer) {
        let root = canvas(20, 20, background: .black)
        let card = makeLayer(Rect(x: 0, y: 0, width: 20, height: 20))
        card.contents = .image(red)
        root.addSublayer(card)
        return (root, card)
    }

    func render(_ root: Layer, at t: Double) -> Surface { sharedCompositor.render(root.snapshot(at: t), width: 20, height: 20) }

    @Test func changingTheContentsOfAHostedLayerCrossfades() {
        let (root, card) = scene()
        _ = root.snapshot(at: 0)
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        card.contents = .image(blue)
        Transaction.commit()
        #expect(card.animationKeys() == ["contents"])
        expectPixel(render(root, at: 0), 10, 10, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "the first frame: the old")
        expectPixel(render(root, at: 0.125), 10, 10, mid, tolerance: 1, "half-way through 0.25 s")
        expectPixel(render(root, at: 0.25), 10, 10, PremultipliedColor(r: 0, g: 0, b: 255, a: 255), "the new")
    }

    @Test func anExplicitAnimationOfContentsCrossfadesOverTheBackground() {
        let (root, card) = scene()
        card.backgroundColor = .white
        let fade = BasicAnimation(keyPath: "contents")
        fade.fromValue = LayerContents.image(red)
        fade.toValue = LayerContents.image(blue)
        fade.duration = 1
        card.add(fade, forKey: "fade")
        expectPixel(render(root, at: 0.5), 10, 10, mid, tolerance: 1)
        // To no contents (a tree not shown yet, so no implicit animation joins in): the picture fades out over the
        // background, which stays.
        let (root2, card2) = scene()
        card2.backgroundColor = .white
        card2.contents = nil
        let out = BasicAnimation(keyPath: "contents")
        out.fromValue = LayerContents.image(red)
        out.duration = 1
        card2.add(out, forKey: "fade")
        expectPixel(render(root2, at: 0.5), 10, 10, PremultipliedColor(r: 255, g: 128, b: 128, a: 255), tolerance: 1)
    }

    @Test func discreteKeyframesOfContentsFlip() {
        let (root, card) = scene()
        let frames = KeyframeAnimation(keyPath: "contents")
        frames.values = [LayerContents.image(red), LayerContents.image(blue)]
        frames.calculationMode = .discrete
        frames.duration = 1
        card.add(frames, forKey: "sprite")
        expectPixel(render(root, at: 0.25), 10, 10, PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        expectPixel(render(root, at: 0.75), 10, 10, PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func contentsALayerDrawsForItselfNeverCrossfade() {
        let (root, card) = scene()
        _ = root.snapshot(at: 0)
        card.contents = nil
        Transaction.withoutActions { card.contents = .image(blue) }
        card.removeAllAnimations()
        let drawn = DrawingLayer()
        drawn.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        root.addSublayer(drawn)
        drawn.setNeedsDisplay()
        _ = root.snapshot(at: 1)
        drawn.setNeedsDisplay() // drawn again at the next snapshot: new contents, shown at once
        _ = root.snapshot(at: 1.1)
        #expect(drawn.animationKeys() == nil)
    }
}

private final class DrawingLayer: Layer {
    override func draw(in context: DrawingContext) {
        context.setFillColor(.green)
        context.fill(bounds)
    }
}
