import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

@Suite("Formats")
struct FormatMatrixTests {
    /// Each clip of media/formats (10 frames of 160x120 at 25 fps) exports through a turned, rounded card
    /// and reads back with every frame, at the right times and size.
    @Test(arguments: ["hevc10.mp4", "av1.mkv", "prores.mov", "mpeg4.avi", "mjpeg.avi", "anim.gif", "vp9.webm", "alpha.webm"])
    func exportsWithEffectsAndReadsBack(_ name: String) throws {
        let input = sample(name.contains("alpha") ? name : "formats/\(name)")
        let asset = try MediaAsset(path: input)
        let video = try #require(asset.video)
        #expect(video.displayWidth == 160 && video.displayHeight == 120)
        let player = try Player(path: input)
        let root = plainScene(player)
        let card = try #require(root.sublayers?.first)
        card.cornerRadius = 12
        card.masksToBounds = true
        card.transform = Transform3D.makeRotation(0.3, 0, 1, 0).concatenating(.makePerspective(distance: 400))
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.mp4").path
            let frames = name.contains("alpha") ? 25 : 10
            _ = try Exporter(root: root, width: 160, height: 120, settings: EncoderSettings(frameRate: (25, 1)), start: 0,
                             frameCount: frames, audioSource: nil).export(to: out)
            let written = try MediaAsset(path: out)
            #expect(written.video?.width == 160 && written.video?.height == 120)
            #expect(abs((written.video?.duration ?? 0) - Double(frames) / 25) < 1e-6)
            let back = try VideoFrameSource(path: out)
            for i in 0..<frames {
                #expect(try back.frame(at: Double(i) / 25 + 1e-4)?.time == MediaTime(value: Int64(i), timescale: 25))
            }
        }
    }
}
