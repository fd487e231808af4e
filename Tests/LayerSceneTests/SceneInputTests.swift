import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport
@testable import LayerScene

/// Clips whose frames say their number, made with the ffmpeg CLI in a temporary folder: frame N of `numbered.mp4`
/// (10 frames/s, 3 s, 30 frames) is a flat grey of luma 16 + 7·N, so a decoded picture tells which frame it is.
/// `stereo.mp4` and `mono.mp4` are the same picture with sounds told apart by their sample rate.
private final class NumberedClips {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-inputs-\(UUID().uuidString)")
    static let fps = 10.0, frames = 30

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let picture = ["-f", "lavfi", "-i", "color=c=black:size=64x64:rate=10:duration=3"]
        let video = ["-vf", "format=yuv420p,geq=lum='16+7*N':cb=128:cr=128", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "8", "-bf", "0"]
        try ffmpeg(picture + video + ["numbered.mp4"])
        try ffmpeg(picture + ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3"] + video
                   + ["-c:a", "aac", "-ac", "2", "stereo.mp4"])
        try ffmpeg(picture + ["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=22050:duration=3"] + video
                   + ["-c:a", "aac", "-ac", "1", "mono.mp4"])
    }
    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    func ffmpeg(_ arguments: [String]) throws {
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments, in: folder)
    }

    /// Loads `text` as a scene in the clips' folder, through LayerMedia.
    func load(_ text: String, media: MediaAssetSceneMedia = MediaAssetSceneMedia()) throws -> LoadedScene {
        var o = SceneLoadOptions(file: "inputs.json", directory: folder.path)
        o.media = media
        do throws(SceneErrors) { return try SceneLoader.load(text: text, options: o) } catch {
            throw SceneLoadFailure(description: error.description)
        }
    }

    /// ffprobe's `codec_type:sample_rate` of each stream of `file` (the rate is empty for video).
    func streams(of file: String) throws -> [String] {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,sample_rate",
                                                       "-of", "csv=p=0:nk=1", file], in: folder)
        return out.split(separator: "\n").map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return f[0] == "audio" ? "audio:\(f.count > 1 ? f[1] : "")" : f[0]
        }
    }
}

private struct SceneLoadFailure: Error, CustomStringConvertible { let description: String }

/// The frame number a picture of `NumberedClips` shows at (x, y): its luma decoded back.
private func frameNumber(_ buffer: PixelBuffer, x: Int, y: Int) -> Int {
    let plane = buffer.planes[0]
    let luma = Double(plane.base.load(fromByteOffset: y * plane.bytesPerRow + x, as: UInt8.self))
    return Int(((luma - 16) / 7).rounded())
}

/// The picture the tree's first video shows when snapshotted at `time` (what a window and an export composite).
private func shownFrame(_ root: Layer, at time: Double) -> Int? {
    func find(_ s: LayerSnapshot) -> PixelBuffer? {
        if case .pixelBuffer(let b)? = s.contents { return b }
        for c in s.sublayers { if let b = find(c) { return b } }
        return nil
    }
    return find(root.snapshot(at: time)).map { frameNumber($0, x: 32, y: 32) }
}

/// The frame numbers every video of the tree shows when snapshotted at `time`, in tree order.
private func shownFrames(_ root: Layer, at time: Double) -> [Int] {
    func collect(_ s: LayerSnapshot) -> [Int] {
        var out: [Int] = []
        if case .pixelBuffer(let b)? = s.contents { out.append(frameNumber(b, x: 32, y: 32)) }
        for c in s.sublayers { out += collect(c) }
        return out
    }
    return collect(root.snapshot(at: time))
}

private func playerLayers(_ layer: Layer) -> [PlayerLayer] {
    ((layer as? PlayerLayer).map { [$0] } ?? []) + (layer.sublayers ?? []).flatMap(playerLayers)
}

@Test func anInputShownByThreeLayersIsDecodedOnce() throws {
    let clips = try NumberedClips()
    let media = MediaAssetSceneMedia()
    let scene = try clips.load("""
    {"version": "1.0", "inputs": {"v": {"src": "numbered.mp4"}}, "canvas": {"size": "192x64"},
     "layers": [
       {"type": "media", "input": "v", "frame": [0, 0, 64, 64]},
       {"type": "media", "input": "v", "frame": [64, 0, 64, 64], "cornerRadius": 8},
       {"type": "media", "input": "v", "frame": [128, 0, 64, 64], "opacity": 0.5}
     ]}
    """, media: media)
    let layers = playerLayers(scene.root)
    #expect(layers.count == 3)
    #expect(media.decodersOpened == 1)
    #expect(Set(layers.compactMap { $0.player.map(ObjectIdentifier.init) }).count == 1)
    #expect(scene.root.playersInTree.count == 1)
}

@Test func inlineInputsShareADecodeOnlyWhenFileStartAndLoopAgree() throws {
    let clips = try NumberedClips()
    let media = MediaAssetSceneMedia()
    let scene = try clips.load("""
    {"version": "1.0", "canvas": {"size": "64x64"},
     "layers": [
       {"type": "media", "src": "numbered.mp4", "loop": true},
       {"type": "media", "src": "numbered.mp4", "loop": true},
       {"type": "media", "src": "numbered.mp4", "loop": true, "start": "1s"},
       {"type": "media", "src": "numbered.mp4"}
     ]}
    """, media: media)
    // Two alike, then a different in-point, then a different loop: three decodes for four layers.
    #expect(media.decodersOpened == 3)
    let players = playerLayers(scene.root).compactMap(\.player)
    #expect(players.count == 4 && players[0] === players[1] && players[1] !== players[2] && players[2] !== players[3])
}

@Test func inputStartIsTheMediaTimeAtLocalTimeZero() throws {
    let clips = try NumberedClips()
    func shown(_ input: String, at times: [Double]) throws -> [Int?] {
        let scene = try clips.load("""
        {"version": "1.0", "canvas": {"size": "64x64"}, "layers": [{"type": "media", \(input), "frame": [0, 0, 64, 64]}]}
        """)
        return times.map { shownFrame(scene.root, at: $0) }
    }
    // Mid-frame times, so each answer is one frame whatever the rounding of frame times.
    // `start` 1 s: frame 10 at 0; past the end (1 + 5 > 3) the last frame holds.
    #expect(try shown("\"src\": \"numbered.mp4\", \"start\": \"1s\"", at: [0.05, 0.55, 1.25, 5]) == [10, 15, 22, 29])
    // Before the medium's start (start −1 s): its first frame.
    #expect(try shown("\"src\": \"numbered.mp4\", \"start\": -1", at: [0.05, 0.95, 1.55]) == [0, 0, 5])
    // With `loop`, past the end it wraps: 2 + 1.55 = 3.55 → 0.55.
    #expect(try shown("\"src\": \"numbered.mp4\", \"start\": \"2s\", \"loop\": true", at: [0.05, 0.95, 1.55, 4.55]) == [20, 29, 5, 5])
    // The layer's own beginTime moves its local time: media time is start + local time.
    #expect(try shown("\"src\": \"numbered.mp4\", \"start\": \"1s\", \"beginTime\": 2", at: [1.05, 2.05, 2.55]) == [0, 10, 15])
}

@Test func everyInputOfAnExportShowsStartPlusLocalTime() throws {
    let clips = try NumberedClips()
    let scene = try clips.load("""
    {"version": "1.0", "canvas": {"size": "128x64"}, "audio": "none",
     "layers": [
       {"type": "media", "src": "numbered.mp4", "frame": [0, 0, 64, 64]},
       {"type": "media", "src": "numbered.mp4", "start": "1s", "loop": true, "frame": [64, 0, 64, 64]}
     ]}
    """)
    #expect(scene.root.playersInTree.count == 2)
    let out = clips.path("both.mp4")
    let exporter = Exporter(root: scene.root, width: 128, height: 64,
                            settings: EncoderSettings(codec: nil, crf: 10, preset: "veryfast", frameRate: MovieWriter.rational(10)),
                            start: 1.55, frameCount: 10, audioSource: nil)
    _ = try exporter.export(to: out, replacing: true) { _ in }
    let source = try VideoFrameSource(path: out)
    var left: [Int] = [], right: [Int] = []
    for i in 0..<10 {
        let frame = try #require(try source.frame(at: Double(i) / 10 + 0.05))
        left.append(frameNumber(frame.pixelBuffer, x: 32, y: 32))
        right.append(frameNumber(frame.pixelBuffer, x: 96, y: 32))
    }
    // Output frame i is timeline 1.55 + i/10: the left input at media 1.55 + i/10, the right at 2.55 + i/10, wrapping at 3.
    #expect(left == Array(15...24))
    #expect(right == [25, 26, 27, 28, 29, 0, 1, 2, 3, 4])
}

@Test func theWindowWaitsForWhicheverInputIsBehindAndNoneStalls() throws {
    let clips = try NumberedClips()
    let scene = try clips.load("""
    {"version": "1.0", "canvas": {"size": "128x64"},
     "layers": [
       {"type": "media", "src": "numbered.mp4", "frame": [0, 0, 64, 64]},
       {"type": "media", "src": "numbered.mp4", "start": "2s", "frame": [64, 0, 64, 64]}
     ]}
    """)
    // As a window's loop does: before each frame it asks whether a decoder is behind, and waits only while one is.
    // Every input must then be ready within moments at each time of the session's clock.
    for step in 0..<8 {
        let t = Double(step) * 0.1 + 0.05
        let deadline = Date().addingTimeInterval(5)
        while scene.root.videoWouldWait(at: t) && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        #expect(!scene.root.videoWouldWait(at: t))
        _ = scene.root.snapshot(at: t)
    }
    let frames = playerLayers(scene.root).compactMap { $0.player?.frame(at: 0.75) }
    #expect(frames.map { Int(($0.time.seconds * NumberedClips.fps).rounded()) } == [7, 27])
}

@Test func theSceneChoosesWhoseSoundAnExportCarries() throws {
    let clips = try NumberedClips()
    func export(_ audio: String) throws -> [String] {
        let scene = try clips.load("""
        {"version": "1.0", "canvas": {"size": "64x64"}, \(audio)
         "inputs": {"a": {"src": "stereo.mp4"}, "b": {"src": "mono.mp4"}},
         "layers": [{"type": "media", "input": "a", "frame": [0, 0, 32, 64]}, {"type": "media", "input": "b", "frame": [32, 0, 32, 64]}]}
        """)
        let out = clips.path("sound.mp4")
        let exporter = Exporter(root: scene.root, width: 64, height: 64,
                                settings: EncoderSettings(codec: nil, crf: 30, preset: "veryfast", frameRate: MovieWriter.rational(10)),
                                start: 0, frameCount: 5, audioSource: scene.audio?.src)
        exporter.audioOffset = scene.audio?.start ?? 0
        _ = try exporter.export(to: out, replacing: true) { _ in }
        return try clips.streams(of: out)
    }
    #expect(try export("") == ["video", "audio:44100"])  // the first input with sound
    #expect(try export("\"audio\": \"b\",") == ["video", "audio:22050"])
    #expect(try export("\"audio\": \"none\",") == ["video"])
}

@Test func layersOfAnInputOnDifferentClocksDecodeApart() throws {
    let clips = try NumberedClips()
    let media = MediaAssetSceneMedia()
    // Two layers on the tree's clock share a decode; the third starts a second later (its own beginTime) and the
    // fourth sits in a group that runs at half speed: one decoder each, else one decoder would seek back and
    // forth between their times on every frame.
    let scene = try clips.load("""
    {"version": "1.0", "inputs": {"v": {"src": "numbered.mp4"}}, "canvas": {"size": "256x64"},
     "layers": [
       {"type": "media", "input": "v", "frame": [0, 0, 64, 64]},
       {"type": "media", "input": "v", "frame": [64, 0, 64, 64]},
       {"type": "media", "input": "v", "frame": [128, 0, 64, 64], "beginTime": 1},
       {"frame": [192, 0, 64, 64], "speed": 0.5, "sublayers": [{"type": "media", "input": "v", "frame": [0, 0, 64, 64]}]}
     ]}
    """, media: media)
    #expect(media.decodersOpened == 3)
    let layers = playerLayers(scene.root)
    let players = layers.compactMap(\.player)
    #expect(players.count == 4 && players[0] === players[1] && players[1] !== players[2] && players[2] !== players[3])
    #expect(players[0] !== players[3])
    // Each shows the frame of its own clock at tree time 2.05: 20, 20, 10 (a second later), 10 (half speed).
    #expect(shownFrames(scene.root, at: 2.05) == [20, 20, 10, 10])
    #expect(layers.count == 4)
}
