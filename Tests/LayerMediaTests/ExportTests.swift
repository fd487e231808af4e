import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// A layer tree that shows a player full size on a canvas of the video's display size (no effects).
/// The video filling a canvas of its display size; `start` is the media time shown at output time 0.
func plainScene(_ player: Player) -> Layer {
    let v = player.asset.video!
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: Double(v.displayWidth), height: Double(v.displayHeight))
    root.position = Point(x: root.bounds.midX, y: root.bounds.midY)
    root.backgroundColor = .black
    let layer = PlayerLayer(player: player)
    layer.frame = root.bounds
    root.addSublayer(layer)
    return root
}

@Suite("Export")
struct ExportTests {
    @Test func aPlainTranscodeKeepsFramesTimesAndColours() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("plain.mp4").path
            let player = try Player(path: sample("clip.mp4"))
            let exporter = Exporter(root: plainScene(player), width: 320, height: 180,
                                    settings: EncoderSettings(crf: 18, frameRate: (25, 1)), start: 0, frameCount: 50,
                                    audioSource: sample("clip.mp4"))
            let stats = try exporter.export(to: out)
            #expect(stats.frames == 50)
            // The frames are the decoded pictures as they are (same size, BT.601 limited): encoded without compositing.
            #expect(stats.directFrames == 50)
            let asset = try MediaAsset(path: out)
            let video = try #require(asset.video)
            #expect(video.width == 320 && video.height == 180 && video.frameRateNumerator == 25 && video.frameRateDenominator == 1)
            #expect(abs(video.duration - 2) < 1e-6)
            #expect(video.colorMatrix == "smpte170m" && video.colorRange == "tv") // BT.601 below 720 lines, limited
            let audio = try #require(asset.audio)
            #expect(abs(audio.duration - video.duration) < 0.04 + 0.03)
            // Every frame is there at its exact time, and looks like the source's.
            let decoded = try VideoFrameSource(path: out), original = try VideoFrameSource(path: sample("clip.mp4"))
            var worst = Double.infinity
            for i in 0..<50 {
                let t = Double(i) / 25
                let frame = try #require(try decoded.frame(at: t + 0.001))
                #expect(frame.time == MediaTime(value: Int64(i), timescale: 25), "frame \(i) at \(frame.time)")
                if i % 10 == 3 {
                    let a = picture(frame.pixelBuffer), b = picture(try #require(try original.frame(at: t + 0.001)).pixelBuffer)
                    let p = componentPSNR(a, b)
                    worst = min(worst, p.luma)
                    // The sample's saturated bars have sharp chroma edges that each 4:2:0 generation softens.
                    #expect(p.chroma >= 30, "frame \(i): chroma PSNR \(p.chroma) dB")
                    #expect(abs(p.meanChromaShift) < 1, "frame \(i): colour cast \(p.meanChromaShift)")
                }
            }
            #expect(try decoded.frame(at: 100)?.time == MediaTime(value: 49, timescale: 25))
            #expect(worst >= 38, "luma PSNR against the input: \(worst) dB")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".plain.mp4.\(ProcessInfo.processInfo.processIdentifier).partial").path))
        }
    }

    @Test func aRangeTrimsVideoAndAudioTogether() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("range.mkv").path
            let player = try Player(path: sample("clip.mp4"))
            let exporter = Exporter(root: plainScene(player), width: 320, height: 180, settings: EncoderSettings(frameRate: (25, 1)),
                                    start: 0.6, frameCount: 20, audioSource: sample("clip.mp4"))
            _ = try exporter.export(to: out)
            let asset = try MediaAsset(path: out)
            let video = try #require(asset.video), audio = try #require(asset.audio)
            // MKV stores durations per container; the whole file lasts the range, the audio within a frame of it.
            #expect(abs(asset.duration - 0.8) < 0.05, "\(asset.duration)")
            #expect(audio.duration == 0 || abs(audio.duration - 0.8) <= 0.04 + 0.03)
            _ = video
            // The first output frame is the source's frame at 0.6 s.
            let first = picture(try #require(try VideoFrameSource(path: out).frame(at: 0)).pixelBuffer)
            let source = picture(try #require(try VideoFrameSource(path: sample("clip.mp4")).frame(at: 0.6)).pixelBuffer)
            #expect(componentPSNR(first, source).luma > 35)
        }
    }

    @Test func audioIsReencodedWhereItCannotBeCopied() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("opus.webm").path
            let player = try Player(path: sample("clip.mp4"))
            let exporter = Exporter(root: plainScene(player), width: 320, height: 180, settings: EncoderSettings(frameRate: (25, 1)),
                                    start: 0.4, frameCount: 25, audioSource: sample("clip.mp4"))
            _ = try exporter.export(to: out)
            let asset = try MediaAsset(path: out)
            let audio = try #require(asset.audio)
            #expect(audio.codec == "opus" && audio.sampleRate == 48000)
            // The file lasts the range; the audio's last Opus frame is padded by less than one video frame.
            #expect(abs(asset.duration - 1.0) <= 0.04, "\(asset.duration)")
        }
    }

    @Test func aFailedExportLeavesNothingBehind() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("fail.mp4").path
            let player = try Player(path: sample("clip.mp4"))
            let exporter = Exporter(root: plainScene(player), width: 320, height: 180,
                                    settings: EncoderSettings(codec: "no-such-encoder", frameRate: (25, 1)), start: 0, frameCount: 5,
                                    audioSource: nil)
            #expect(throws: MediaError.self) { try exporter.export(to: out) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }
}

/// PSNR of BT.601 luma and of the two colour-difference channels (the lower), and the mean colour-difference shift.
func componentPSNR(_ a: Surface, _ b: Surface) -> (luma: Double, chroma: Double, meanChromaShift: Double) {
    var sy = 0.0, su = 0.0, sv = 0.0, shift = 0.0
    for y in 0..<a.height { for x in 0..<a.width {
        let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
        func comps(_ c: PremultipliedColor) -> (Double, Double, Double) {
            let l = 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)
            return (l, (Double(c.b) - l) * 0.564, (Double(c.r) - l) * 0.713)
        }
        let (y1, u1, v1) = comps(p), (y2, u2, v2) = comps(q)
        sy += (y1 - y2) * (y1 - y2); su += (u1 - u2) * (u1 - u2); sv += (v1 - v2) * (v1 - v2)
        shift += (u1 - u2) + (v1 - v2)
    } }
    let n = Double(a.width * a.height)
    func db(_ s: Double) -> Double { s == 0 ? .infinity : 10 * log10(255 * 255 / (s / n)) }
    return (db(sy), min(db(su), db(sv)), shift / (2 * n))
}

@Test(arguments: [(Int.max, Int32(30), Int32(1)), (0, 30, 1), (10, 0, 1), (10, 30, 0), (10, 100_000, 1), (10, -30, 1)])
func anExportBeyondTheLimitsIsRefusedBeforeWriting(_ frames: Int, _ num: Int32, _ den: Int32) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
    let exporter = Exporter(root: root, width: 16, height: 16, settings: EncoderSettings(frameRate: (num, den)), start: 0,
                            frameCount: frames, audioSource: nil)
    #expect(throws: MediaError.self) { _ = try exporter.export(to: dir.appendingPathComponent("out.mp4").path) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing is written")
}
