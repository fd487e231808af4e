import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// A full-frame video with a translucent rounded band over its lower part, as a lower third draws.
private func bandScene(_ player: Player) -> (root: Layer, band: Layer) {
    let root = plainScene(player)
    let band = Layer()
    band.frame = Rect(x: 21, y: 121, width: 250, height: 37)
    band.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.7)
    band.cornerRadius = 6
    root.addSublayer(band)
    return (root, band)
}

@Suite("Overlaid video")
struct OverlaidVideoTests {
    @Test func onlyTheRectangleAboveThePictureIsCompositedAndItMatchesAFullRender() throws {
        let player = try Player(path: sample("clip.mp4"))
        let (root, _) = bandScene(player)
        let snapshot = root.snapshot(at: 0.52)
        let compositor = Compositor(threads: 2)
        let surface = Surface(width: 320, height: 180)
        guard case .overVideo(let video) = compositor.renderFrame(snapshot, into: surface, over: nil, acceptsPicture: { _ in true }) else {
            Issue.record("a full-frame picture under one band should be drawn as an overlaid video"); return
        }
        // The rectangle holds the band (21…271 × 121…158) with whole chroma samples around it, and little more.
        #expect(video.x0 % 2 == 0 && video.y0 % 2 == 0 && video.x1 % 2 == 0 && video.y1 % 2 == 0)
        #expect((18...20).contains(video.x0) && (118...120).contains(video.y0) && (272...276).contains(video.x1)
                && (158...162).contains(video.y1), "\(video.x0) \(video.y0) \(video.x1) \(video.y1)")
        #expect(video.picture.width == 320 && video.picture.format == .yuv420p)
        let full = compositor.render(snapshot, width: 320, height: 180)
        var differing = 0
        for y in video.y0..<video.y1 { for x in video.x0..<video.x1 where surface.pixel(x: x, y: y) != full.pixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels of the rectangle differ from a full render")
    }

    @Test func aTurnedPictureOrOneThePictureTestRefusesIsRenderedWhole() throws {
        let player = try Player(path: sample("clip.mp4"))
        let (root, _) = bandScene(player)
        let compositor = Compositor(threads: 1)
        let surface = Surface(width: 320, height: 180)
        if case .overVideo = compositor.renderFrame(root.snapshot(at: 0), into: surface, over: nil, acceptsPicture: { _ in false }) {
            Issue.record("a picture the encoder cannot take must be composited")
        }
        Transaction.withoutActions { root.sublayers?[0].transform = .makeRotation(0.1, 0, 0, 1) }
        guard case .surface = compositor.renderFrame(root.snapshot(at: 0), into: surface, over: nil, acceptsPicture: { _ in true }) else {
            Issue.record("a turned picture must be composited"); return
        }
        let full = compositor.render(root.snapshot(at: 0), width: 320, height: 180)
        #expect(surface.pixel(x: 3, y: 90) == full.pixel(x: 3, y: 90) && surface.pixel(x: 160, y: 140) == full.pixel(x: 160, y: 140))
    }

    @Test func anExportOfABandOverVideoConvertsOnlyTheBandAndLooksLikeAFullComposite() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("band.mp4").path
            let player = try Player(path: sample("clip.mp4"))
            let (root, band) = bandScene(player)
            // The band slides, so each frame's rectangle differs.
            let slide = BasicAnimation(keyPath: "position.x")
            slide.fromValue = 60
            slide.toValue = 220
            slide.duration = 0.4
            band.add(slide, forKey: "slide")
            let exporter = Exporter(root: root, width: 320, height: 180, settings: EncoderSettings(crf: 16, frameRate: (25, 1)),
                                    start: 0, frameCount: 10, audioSource: nil)
            let stats = try exporter.export(to: out)
            #expect(stats.overVideoFrames == 10 && stats.directFrames == 0)
            // Against the same tree composited whole (the reference), frame by frame.
            let reference = plainScene(try Player(path: sample("clip.mp4")))
            let referenceBand = Layer()
            referenceBand.frame = band.frame
            referenceBand.backgroundColor = band.backgroundColor
            referenceBand.cornerRadius = 6
            reference.addSublayer(referenceBand)
            let compositor = Compositor(threads: 2)
            let decoded = try VideoFrameSource(path: out)
            for i in [0, 4, 9] {
                let t = Double(i) / 25
                // The animation's value while it runs (linear), the model's after it.
                let x = t < 0.4 ? 60 + 160 * t / 0.4 : band.position.x
                let expected = Transaction.withoutActions {
                    referenceBand.position.x = x
                    return compositor.render(reference.snapshot(at: t), width: 320, height: 180)
                }
                let frame = picture(try #require(try decoded.frame(at: t + 0.001)).pixelBuffer)
                let p = componentPSNR(frame, expected)
                #expect(p.luma >= 38 && p.chroma >= 30, "frame \(i): PSNR \(p.luma) / \(p.chroma) dB")
            }
        }
    }
}
