import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// Four players of the sample clip in a 2×2 wall with rounded corners over a colour, 640×360.
private func wall() throws -> Layer {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 640, height: 360)
    root.backgroundColor = Color(red: 0.125, green: 0.125, blue: 0.125)
    for i in 0..<4 {
        let tile = PlayerLayer(player: try Player(path: sample("clip.mp4")))
        tile.frame = Rect(x: 16 + Double(i % 2) * 312, y: 9 + Double(i / 2) * 175.5, width: 296, height: 166.5)
        tile.cornerRadius = 12
        tile.masksToBounds = true
        root.addSublayer(tile)
    }
    return root
}

@Suite("Video mosaic export")
struct VideoMosaicExportTests {
    @Test func aWallOfVideosIsDrawnIntoTheEncodersPlanesAndLooksLikeTheComposite() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("wall.mp4").path
            let exporter = Exporter(root: try wall(), width: 640, height: 360, settings: EncoderSettings(crf: 16, frameRate: (25, 1)),
                                    start: 0, frameCount: 10, audioSource: nil)
            let stats = try exporter.export(to: out)
            #expect(stats.mosaicFrames == 10 && stats.overVideoFrames == 0 && stats.directFrames == 0)
            // Against the same tree composited whole, frame by frame.
            let reference = try wall()
            let compositor = Compositor(threads: 2)
            let decoded = try VideoFrameSource(path: out)
            for i in [0, 5, 9] {
                let t = Double(i) / 25
                let expected = compositor.render(reference.snapshot(at: t), width: 640, height: 360)
                let frame = picture(try #require(try decoded.frame(at: t + 0.001)).pixelBuffer)
                let p = componentPSNR(frame, expected)
                #expect(p.luma >= 38 && p.chroma >= 30, "frame \(i): PSNR \(p.luma) / \(p.chroma) dB")
            }
        }
    }

    @Test func aWallWithAShadowIsComposited() throws {
        try withTemporaryDirectory { dir in
            let root = try wall()
            root.sublayers![0].shadowOpacity = 0.5
            let exporter = Exporter(root: root, width: 640, height: 360, settings: EncoderSettings(crf: 23, frameRate: (25, 1)),
                                    start: 0, frameCount: 3, audioSource: nil)
            let stats = try exporter.export(to: dir.appendingPathComponent("shadow.mp4").path)
            #expect(stats.mosaicFrames == 0)
        }
    }
}
