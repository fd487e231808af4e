import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

/// `scene-set` and takes (issue 30 item 5, SCENES.md §11): a param changed while the scene plays animates as an
/// implicit change, and a recorded take replayed on a fresh scene gives the same pixels.
@Suite("Live scene params")
struct LiveSceneTests {
    /// A scene file in its own temporary folder.
    final class SceneFolder {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-live-\(UUID().uuidString)")
        var path: String { folder.appendingPathComponent("live.json").path }
        init(_ text: String) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(at: folder) }
        func load() throws -> LiveScene {
            let options = SceneLoadOptions(file: path, directory: folder.path)
            return LiveScene(scene: try SceneLoader.load(contentsOf: path, options: options), options: options)
        }
    }

    static let text = """
    {"version": "1.0", "canvas": {"size": "64x48", "duration": 4},
     "params": {"alpha": {"type": "number", "default": 1, "min": 0, "max": 1}, "tint": {"type": "color", "default": "red"},
                "x": {"type": "number", "default": 16}},
     "layers": [{"id": "box", "frame": "=[x, 8, 24, 24]", "opacity": "$alpha", "backgroundColor": "$tint",
                 "animations": [{"type": "basic", "keyPath": "cornerRadius", "from": 0, "to": 12, "duration": 4}]}]}
    """

    private func box(_ live: LiveScene) -> Layer { live.host.sublayers![0].sublayers![0] }
    private func opacity(_ live: LiveScene, at t: Double) -> Double {
        live.host.snapshot(at: t).sublayers[0].sublayers[0].opacity
    }

    @Test func aSetParamAnimatesAsAnImplicitChangeFromTheTimeItWasMade() throws {
        let folder = try SceneFolder(Self.text)
        let live = try folder.load()
        _ = live.host.snapshot(at: 1) // shown, as a window shows it
        let said = try live.set("alpha", "0.2", at: 1)
        #expect(said == "alpha = 0.2")
        #expect(abs(opacity(live, at: 1) - 1) < 1e-9, "starts from what was shown")
        let halfway = opacity(live, at: 1.125)
        #expect(halfway < 0.9 && halfway > 0.2, "\(halfway)")
        #expect(abs(opacity(live, at: 1.25) - 0.2) < 1e-9, "lands on the new value after 0.25 s")
        #expect(abs(opacity(live, at: 3) - 0.2) < 1e-9)
        // The scene's own animation keeps its phase across the change.
        #expect(abs(live.host.snapshot(at: 2).sublayers[0].sublayers[0].cornerRadius - 6) < 1e-9)
        // A second change starts from where the first was shown.
        _ = try live.set("alpha", "1", at: 1.1)
        let from = opacity(live, at: 1.1)
        #expect(from < 1 && from > 0.2, "\(from)")
        #expect(abs(opacity(live, at: 1.35) - 1) < 1e-9)
        // A param that moves a layer animates its position; a later reload keeps the values set.
        try live.set("x", "40", at: 2)
        let position = live.host.snapshot(at: 2.1).sublayers[0].sublayers[0].position.x
        #expect(position > 28 && position < 52, "\(position)")
        #expect(live.options.sets.map(\.name) == ["alpha", "x"])
        #expect(box(live).opacity == 1 && box(live).position.x == 52)
    }

    @Test func aWrongNameOrValueIsRefusedAndTheSceneStays() throws {
        let folder = try SceneFolder(Self.text)
        let live = try folder.load()
        let before = box(live)
        #expect(throws: SceneSetError.self) { try live.set("alpah", "0.5", at: 0) }
        do { try live.set("alpah", "0.5", at: 0) } catch { #expect(error.description == "'alpah' is not a param of this scene (alpha, tint, x)") }
        do { try live.set("tint", "notacolour", at: 0) } catch { #expect(error.description.hasPrefix("'tint': expected a colour"), "\(error)") }
        do { try live.set("alpha", "3", at: 0) } catch { #expect(error.description.contains("alpha"), "\(error)") }
        #expect(box(live) === before, "the tree on screen is kept")
        #expect(live.options.sets.isEmpty)
    }

    @Test func aRecordedTakeReplayedOnAFreshSceneGivesTheSamePixels() throws {
        let folder = try SceneFolder(Self.text)
        let takePath = folder.folder.appendingPathComponent("take.jsonl").path
        // Live: frames at a window's odd times, each change made between two of them, recorded; every frame kept.
        let live = try folder.load()
        let recorder = try ControlRecorder(path: takePath)
        let changes: [(Double, String, String)] = [(0.61803, "tint", "#2060ff"), (0.7123456789, "alpha", "0.5"), (1.3, "x", "30")]
        let frames = (0..<120).map { Double($0) / 59.94 }
        var made = 0
        var shown: [Surface] = []
        for t in frames {
            while made < changes.count, changes[made].0 <= t {
                let (time, name, value) = changes[made]
                try live.set(name, value, at: time)
                recorder.record(.init(time: time, sceneSet: name, value))
                made += 1
            }
            shown.append(Compositor().render(live.host.snapshot(at: t), width: 64, height: 48))
        }
        // Replayed: a fresh scene, the take applied up to each frame's time as an export does.
        let take = try ControlTake(contentsOf: takePath)
        #expect(take.events.map(\.time) == changes.map(\.0), "times survive the file exactly")
        try take.check(against: try folder.load().scene, options: live.options, scenePath: folder.path, path: takePath)
        let replayed = try folder.load()
        var applied = 0, differing: [Double] = []
        for (t, window) in zip(frames, shown) {
            applied = try take.apply(upTo: t, to: replayed, after: applied)
            if !samePixels(window, Compositor().render(replayed.host.snapshot(at: t), width: 64, height: 48)) { differing.append(t) }
        }
        #expect(differing.isEmpty, "frames that differ: \(differing)")
        // The changes show: the first frame after the last one differs from the scene as loaded.
        let plain = try folder.load()
        #expect(!samePixels(shown[100], Compositor().render(plain.host.snapshot(at: frames[100]), width: 64, height: 48)))
        #expect(applied == 3)
    }

    @Test func aTakeThatDoesNotFitTheSceneIsRefusedWithItsLine() throws {
        let folder = try SceneFolder(Self.text)
        let path = folder.folder.appendingPathComponent("bad.jsonl").path
        try "{\"time\": 1, \"command\": [\"scene-set\", \"alpha\", \"0.5\"]}\n\n{\"time\": \"x\"}\n".write(toFile: path, atomically: true, encoding: .utf8)
        do { _ = try ControlTake(contentsOf: path); Issue.record("read a bad line") } catch {
            #expect(error.description.hasPrefix("\(path):3: expected {"), "\(error)")
        }
        try "{\"time\": 1, \"command\": [\"scene-set\", \"beta\", \"0.5\"]}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let take = try ControlTake(contentsOf: path)
        let live = try folder.load()
        do { try take.check(against: live.scene, options: live.options, scenePath: folder.path, path: path); Issue.record("checked") } catch {
            #expect(error.description == "\(path): the scene-set at 1 s: 'beta' is not a param of this scene", "\(error)")
        }
    }
}

/// Whether two surfaces of one size hold the same pixels, every bit.
private func samePixels(_ a: Surface, _ b: Surface) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixels[y * a.pixelsPerRow + x] != b.pixels[y * b.pixelsPerRow + x] { return false }
    }
    return true
}
