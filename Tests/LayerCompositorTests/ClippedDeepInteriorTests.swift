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

/// Under a superlayer with `isGeometryFlipped`, sublayers are placed from the bottom, but an image still
/// shows upright (Core Animation's contentsAreFlipped): red stays at the top-left of the test picture.
@Suite("Contents under flipped geometry")
struct FlippedContentsTests {
    @Test(arguments: [false, true])
    func imagesStayUpright(twice: Bool) {
        let root = canvas(120, 100)
        let stage = makeLayer(Rect(x: 0, y: 0, width: 120, height: 100))
        stage.isGeometryFlipped = true
        var parent = stage
        if twice { // two flips cancel: still upright
            let inner = makeLayer(Rect(x: 0, y: 0, width: 120, height: 100))
            inner.isGeometryFlipped = true
            stage.addSublayer(inner)
            parent = inner
        }
        let picture = makeLayer(Rect(x: 10, y: 10, width: 64, height: 48))
        picture.contents = .image(testImage(width: 64, height: 48))
        parent.addSublayer(picture)
        root.addSublayer(stage)
        let s = render(root)
        // Once flipped, the frame's y is measured from the bottom: the picture sits at y 42…90; twice, at 10…58.
        let top = twice ? 10 : 42
        expectPixel(s, 10 + 8, top + 6, over(Palette.quadrantTopLeft, alpha: 1, Palette.canvas), tolerance: 2, "top-left quadrant (red) at the top")
        expectPixel(s, 10 + 8, top + 48 - 6, over(Palette.quadrantBottomLeft, alpha: 1, Palette.canvas), tolerance: 2, "bottom-left quadrant (blue) at the bottom")
    }
}
