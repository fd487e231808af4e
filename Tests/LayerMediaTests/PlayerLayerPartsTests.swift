import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

// PlayerLayer's picture stands for the layer's contents (SEMANTICS-LAYERS.md §9/§10): it is drawn, but it is not a
// sublayer the app sees, hit tests land on the PlayerLayer, and replacing the sublayers keeps the video.
@Suite("PlayerLayer picture is its contents")
struct PlayerLayerPartsTests {
    private func makeLayer() throws -> PlayerLayer {
        let layer = PlayerLayer(player: try Player(path: sample("clip.mp4")))
        layer.bounds = Rect(x: 0, y: 0, width: 320, height: 180)
        layer.position = Point(x: 160, y: 90)
        return layer
    }

    @Test func sublayersListOnlyTheAppsLayers() throws {
        let layer = try makeLayer()
        #expect(layer.sublayers == nil)
        let badge = Layer(), caption = Layer()
        layer.addSublayer(badge)
        layer.insertSublayer(caption, at: 0)
        #expect(layer.sublayers?.map(ObjectIdentifier.init) == [ObjectIdentifier(caption), ObjectIdentifier(badge)])
        layer.insertSublayer(badge, below: caption)
        #expect(layer.sublayers?.first === badge)
        #expect(badge.superlayer === layer)
        layer.sublayers = nil
        #expect(layer.sublayers == nil && badge.superlayer == nil && caption.superlayer == nil)
    }

    @Test func replacingTheSublayersKeepsTheVideo() throws {
        let compositor = Compositor(threads: 1)
        let before = compositor.render(try makeLayer().snapshot(at: 0.5), width: 320, height: 180)
        let layer = try makeLayer()
        layer.sublayers = [Layer()]
        layer.sublayers = nil
        let after = compositor.render(layer.snapshot(at: 0.5), width: 320, height: 180)
        #expect(identical(before, after))
        // And the picture is really there: not the empty (transparent) render of a layer without video.
        let empty = Layer()
        empty.bounds = layer.bounds
        empty.position = layer.position
        #expect(!identical(after, compositor.render(empty.snapshot(at: 0.5), width: 320, height: 180)))
    }

    @Test func userSublayersDrawAboveThePicture() throws {
        let layer = try makeLayer()
        let cover = Layer()
        cover.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        cover.backgroundColor = .red
        layer.insertSublayer(cover, at: 0) // index 0 of the app's sublayers is still above the picture
        let surface = Compositor(threads: 1).render(layer.snapshot(at: 0.5), width: 320, height: 180)
        let red = Compositor(threads: 1).render(cover.snapshot(at: 0.5), width: 40, height: 40).pixel(x: 20, y: 20)
        #expect(surface.pixel(x: 20, y: 20) == red)
    }

    @Test func hitTestsLandOnThePlayerLayerNotItsPicture() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 320, height: 180)
        root.position = Point(x: 160, y: 90)
        let layer = try makeLayer()
        root.addSublayer(layer)
        #expect(root.hitTest(Point(x: 160, y: 90)) === layer)
        let badge = Layer()
        badge.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        layer.addSublayer(badge)
        #expect(root.hitTest(Point(x: 15, y: 15)) === badge)
        #expect(root.hitTest(Point(x: 300, y: 170)) === layer)
    }
}
