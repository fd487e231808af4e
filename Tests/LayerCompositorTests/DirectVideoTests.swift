import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

/// `Compositor.directVideo`: a frame that is only an upright video picture over an opaque colour can go to a
/// display's YUV texture; anything else must be composited.
@Suite("Direct video")
struct DirectVideoTests {
    let background = Color(red: 0.2, green: 0.4, blue: 0.6)

    func scene(_ configure: (Layer) -> Void = { _ in }, contents: LayerContents? = nil) -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = background
        let video = Layer()
        video.frame = Rect(x: 10, y: 20, width: 120, height: 60)
        video.contents = contents ?? .pixelBuffer(PixelBuffer(format: .yuv420p, width: 64, height: 32) { _, _, _ in })
        configure(video)
        root.addSublayer(video)
        return root
    }

    @Test func anUprightPictureOverAColourGoesDirect() throws {
        let plan = try #require(Compositor().directVideo(scene().snapshot(), width: 200, height: 100))
        #expect(abs(plan.rect.minX - 10) < 1e-6 && abs(plan.rect.minY - 20) < 1e-6)
        #expect(abs(plan.rect.width - 120) < 1e-6 && abs(plan.rect.height - 60) < 1e-6)
        #expect(abs(plan.background.blue - 0.6) < 0.01)
        #expect(plan.buffer.width == 64)
    }

    @Test func aScaledPictureKeepsItsRect() throws {
        let root = scene { $0.transform = .makeScale(0.5, 0.5, 1) }
        let plan = try #require(Compositor().directVideo(root.snapshot(), width: 200, height: 100))
        // Scaled about its centre (70, 50): 60×30 from (40, 35).
        #expect(abs(plan.rect.minX - 40) < 1e-6 && abs(plan.rect.minY - 35) < 1e-6 && abs(plan.rect.width - 60) < 1e-6)
    }

    @Test(arguments: ["corners", "turn", "perspective", "shadow", "border", "opacity", "bgra", "contentsRect", "10-bit",
                      "aliased"])
    func effectsNeedTheCompositor(_ effect: String) {
        var contents: LayerContents?
        if effect == "bgra" { contents = .image(Image(width: 8, height: 8) { _ in }) }
        if effect == "10-bit" { contents = .pixelBuffer(PixelBuffer(format: .yuv420p10, width: 64, height: 32) { _, _, _ in }) }
        let root = scene({ l in
            switch effect {
            case "corners": l.cornerRadius = 8; l.masksToBounds = true
            case "turn": l.transform = .makeRotation(0.1, 0, 0, 1)
            case "perspective": l.transform = Transform3D.makeRotation(0.3, 0, 1, 0).concatenating(.makePerspective(distance: 500))
            case "shadow": l.shadowOpacity = 0.5
            case "border": l.borderWidth = 2
            case "opacity": l.opacity = 0.5
            case "contentsRect": l.contentsRect = Rect(x: 0.25, y: 0, width: 0.5, height: 1)
            case "aliased": l.allowsEdgeAntialiasing = false   // a display's scaling would not cut at pixel centres
            default: break
            }
        }, contents: contents)
        #expect(Compositor().directVideo(root.snapshot(), width: 200, height: 100) == nil)
    }
}
