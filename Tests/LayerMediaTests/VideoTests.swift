import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

func sample(_ name: String) -> String { mediaSample(name) }

/// Renders a pixel buffer 1:1 into a surface through the compositor, to compare pictures.
func picture(_ buffer: PixelBuffer) -> Surface {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: Double(buffer.width), height: Double(buffer.height))
    layer.position = Point(x: layer.bounds.midX, y: layer.bounds.midY)
    layer.contents = .pixelBuffer(buffer)
    return Compositor(threads: 1).render(layer.snapshot(), width: buffer.width, height: buffer.height)
}

func identical(_ a: Surface, _ b: Surface) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
    return true
}

@Suite("Video decoding")
struct VideoTests {
    @Test func probeDescribesTheSampleClip() throws {
        let asset = try MediaAsset(path: sample("clip.mp4"))
        let video = try #require(asset.video)
        #expect(video.codec == "h264" && video.width == 320 && video.height == 180)
        #expect(abs(video.frameRate - 25) < 1e-9)
        #expect(abs(asset.duration - 2) < 0.1)
        let audio = try #require(asset.audio)
        #expect(audio.codec == "aac" && audio.channels == 1)
        #expect(!asset.isStill)
    }

    @Test func rotationMetadataGivesAPortraitDisplay() throws {
        let video = try #require(try MediaAsset(path: sample("rotated.mp4")).video)
        #expect(video.rotation == 90 || video.rotation == 270)
        #expect(video.displayWidth == 180 && video.displayHeight == 320)
    }

    @Test func sampleAspectRatioWidensTheDisplay() throws {
        let video = try #require(try MediaAsset(path: sample("sar.mp4")).video)
        #expect(abs(video.sampleAspectRatio - 16.0 / 15.0) < 1e-9)
        #expect(video.displayWidth == 192 && video.displayHeight == 144)
    }

    @Test func framesAreThoseShownAtEachTimeForwardsAndBackwards() throws {
        let source = try VideoFrameSource(path: sample("clip.mp4"))
        // Times in frames of 1/25 s: the frame shown at t is the last one at or before t.
        for (t, expected) in [(0.0, 0), (0.03, 0), (0.52, 13), (1.99, 49), (0.2, 5), (1.5, 37), (0.0, 0), (9.0, 49)] {
            let frame = try #require(try source.frame(at: t))
            #expect(frame.time == MediaTime(value: Int64(expected), timescale: 25), "at \(t): \(frame.time)")
        }
    }

    /// The player answers from a queue decoded ahead on its own thread (`DecodeAhead`); `VideoFrameSource`
    /// answers synchronously. Both must give the same frame, pixel for pixel, for any order of times: in
    /// order, repeated, backwards (a seek), far ahead, past the end, and through a looping range.
    @Test(arguments: ["clip.mp4", "formats/vp9.webm"])
    func thePlayerAndTheSourceAgreeOnEveryFrame(_ name: String) throws {
        let times = [0.0, 0.03, 0.04, 0.04, 0.52, 0.56, 1.99, 0.2, 1.5, 0.0, 9.0, 0.7, 0.74, 0.78]
        let player = try Player(path: sample(name)), source = try VideoFrameSource(path: sample(name))
        for t in times {
            let a = try #require(player.frame(at: t)), b = try #require(try source.frame(at: t))
            #expect(a.time == b.time, "at \(t): player \(a.time), source \(b.time)")
            #expect(identical(picture(a.pixelBuffer), picture(b.pixelBuffer)), "at \(t): different pictures")
        }
        // A looping range maps the timeline back into the medium.
        player.range = PlaybackRange(start: 0.4, end: 1.2, loops: true)
        let fresh = try VideoFrameSource(path: sample(name))
        for t in [0.4, 0.8, 1.16, 1.2, 1.28, 2.0, 2.4] {
            let a = try #require(player.frame(at: t)), b = try #require(try fresh.frame(at: PlaybackRange(start: 0.4, end: 1.2, loops: true).mediaTime(t)))
            #expect(a.time == b.time, "loop at \(t): player \(a.time), source \(b.time)")
        }
    }

    @Test func aSeekGivesTheSamePictureAsDecodingInOrder() throws {
        let inOrder = try VideoFrameSource(path: sample("clip.mp4"))
        var expected: Surface? = nil
        var t = 0.0
        while t <= 1.7 { expected = picture(try #require(try inOrder.frame(at: t)).pixelBuffer); t += 0.04 }
        let seeking = try VideoFrameSource(path: sample("clip.mp4"))
        _ = try seeking.frame(at: 1.9)
        let sought = picture(try #require(try seeking.frame(at: 1.68)).pixelBuffer) // backwards: from the keyframe at 1.0
        #expect(identical(try #require(expected), sought), "a frame reached by seeking differs from the same frame decoded in order")
    }

    @Test func decodedFramesCarryTheirFormatAndColours() throws {
        let frame = try #require(try VideoFrameSource(path: sample("clip.mp4")).frame(at: 0))
        let buffer = frame.pixelBuffer
        #expect(buffer.format == .yuv420p && buffer.width == 320 && buffer.height == 180)
        #expect(buffer.range == .limited)
        #expect(buffer.matrix == .bt601) // untagged and below 720 lines
    }

    @Test func playerLayerShowsTheFrameForTheSnapshotTime() throws {
        let player = try Player(path: sample("clip.mp4"))
        let layer = PlayerLayer(player: player)
        layer.bounds = Rect(x: 0, y: 0, width: 320, height: 180)
        layer.position = Point(x: 160, y: 90)
        #expect(layer.videoRect == Rect(x: 0, y: 0, width: 320, height: 180))
        let compositor = Compositor(threads: 1)
        let atHalf = compositor.render(layer.snapshot(at: 0.5), width: 320, height: 180)
        #expect(layer.isReadyForDisplay)
        let direct = picture(try #require(try VideoFrameSource(path: sample("clip.mp4")).frame(at: 0.5)).pixelBuffer)
        #expect(psnrOf(atHalf, direct) > 45)
        let atOne = compositor.render(layer.snapshot(at: 1.0), width: 320, height: 180)
        #expect(psnrOf(atHalf, atOne) < 30, "different times must show different frames")
    }

    @Test func playerLayerFitsRotatedVideoByGravity() throws {
        let layer = PlayerLayer(player: try Player(path: sample("rotated.mp4")))
        layer.bounds = Rect(x: 0, y: 0, width: 400, height: 400)
        #expect(layer.videoRect == Rect(x: 87.5, y: 0, width: 225, height: 400)) // 180x320 fitted
        layer.videoGravity = .resizeAspectFill
        #expect(abs(layer.videoRect.width - 400) < 1e-9 && abs(layer.videoRect.height - 400 * 320 / 180) < 1e-9)
    }
}

func psnrOf(_ a: Surface, _ b: Surface) -> Double { psnr(a, b) }

@Suite("Alpha video")
struct AlphaVideoTests {
    @Test func vp9AlphaIsKeptThroughLibvpx() throws {
        let asset = try MediaAsset(path: sample("alpha.webm"))
        #expect(asset.video?.hasAlpha == true)
        let frame = try #require(try VideoFrameSource(path: sample("alpha.webm")).frame(at: 0.5))
        #expect(frame.pixelBuffer.format == .yuva420p)
        // Over red: the opaque half shows the picture only, the translucent half mostly red.
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
        root.position = Point(x: 80, y: 60)
        root.backgroundColor = .red
        let video = Layer()
        video.frame = root.bounds
        video.contents = .pixelBuffer(frame.pixelBuffer)
        root.addSublayer(video)
        let surface = Compositor(threads: 1).render(root.snapshot(), width: 160, height: 120)
        let opaque = surface.pixel(x: 40, y: 60), translucent = surface.pixel(x: 120, y: 60)
        #expect(opaque.a == 255 && translucent.a == 255)
        #expect(Int(translucent.r) >= 180, "\(translucent)")
        #expect(!(opaque.r > 200 && opaque.g < 30 && opaque.b < 30), "the opaque half lets the red through: \(opaque)")
    }
}

@Suite("Player")
struct PlayerTests {
    @Test func seekingMovesTheCurrentFrame() throws {
        let player = try Player(path: sample("clip.mp4"))
        #expect(player.currentFrame?.time == .zero)
        player.seek(to: 1.5)
        #expect(player.currentTime == 1.5)
        #expect(player.currentFrame?.time == MediaTime(value: 37, timescale: 25))
        player.seek(to: 0.3)
        #expect(player.currentFrame?.time == MediaTime(value: 7, timescale: 25))
    }
}
