import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

/// Contents clipped by an ancestor's rounded `masksToBounds` (a video layer inside a rounded card) skip the
/// clip's coverage deep inside the clip, as a layer's own rounded contents skip theirs. The two ways of
/// building the same picture must agree, in YUV and in BGRA, flat and under perspective.
@Suite("Deep interior inside an ancestor's clip")
struct ClippedDeepInteriorTests {
    func scene(nested: Bool, transform: Transform3D, contents: LayerContents) -> Layer {
        let root = canvas(200, 160)
        let card = makeLayer(Rect(x: 30, y: 25, width: 140, height: 110))
        card.cornerRadius = 18
        card.masksToBounds = true
        card.transform = transform
        if nested {
            let video = Layer()
            video.frame = card.bounds
            video.contents = contents
            card.addSublayer(video)
        } else {
            card.contents = contents
        }
        root.addSublayer(card)
        return root
    }

    @Test(arguments: [false, true], [false, true])
    func nestedContentsMatchOwnContents(yuv: Bool, perspective: Bool) {
        let image = testImage(width: 96, height: 72)
        let contents: LayerContents = yuv
            ? .pixelBuffer(PixelBuffer(converting: image, to: .yuv420p, matrix: .bt709, range: .limited)) : .image(image)
        let t = perspective
            ? Transform3D.makeRotation(0.5, 0, 1, 0).concatenating(.makePerspective(distance: 300)) : .identity
        let own = render(scene(nested: false, transform: t, contents: contents))
        let nested = render(scene(nested: true, transform: t, contents: contents))
        var worst = 0
        for y in 0..<own.height {
            for x in 0..<own.width { worst = max(worst, channelDifference(own.pixel(x: x, y: y), nested.pixel(x: x, y: y))) }
        }
        // Coverage of the clip is computed in the same plane both ways: only rounding may differ.
        #expect(worst <= 2, "max channel difference \(worst)")
    }
}
