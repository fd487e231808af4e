import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
@testable import LayerScene

/// A scene file in its own temporary folder, rewritten by the tests as an editor would.
private final class SceneFile {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-reload-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("live.json").path }
    init(_ text: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(text)
    }
    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    func options(sets: [(String, String)] = [], media: SceneMedia? = nil) -> SceneLoadOptions {
        var o = SceneLoadOptions(file: "live.json", directory: folder.path)
        o.sets = sets.map { (name: $0.0, value: $0.1) }
        o.media = media
        return o
    }
}

private func scene(_ opacity: String, tint: String = "$tint") -> String {
    """
    {"version": "1.0", "params": {"tint": {"type": "color", "default": "red"}}, "canvas": {"size": "100x100"},
     "layers": [{"id": "box", "frame": [0, 0, 50, 50], "opacity": \(opacity), "backgroundColor": "\(tint)",
                 "animations": [{"key": "fade", "type": "basic", "keyPath": "borderWidth", "from": 0, "to": 10, "duration": "10s"}]}]}
    """
}

private func box(_ r: SceneReloader) -> Layer? { r.host.sublayers?.first?.sublayers?.first }

@Test func anEditReloadsAfterTheChangesSettle() throws {
    let file = try SceneFile(scene("0.5"))
    let options = file.options(sets: [("tint", "blue")])
    var lines: [String] = []
    let r = SceneReloader(path: file.path, options: options, scene: try SceneLoader.load(contentsOf: file.path, options: options)) { lines.append($0) }
    let first = r.scene.root
    #expect(r.host.sublayers?.first === first)
    #expect(!r.poll(now: 10), "nothing changed")

    try file.write(scene("0.25"))
    #expect(!r.poll(now: 10.0), "a change waits for the debounce")
    #expect(!r.poll(now: 10.1))
    #expect(r.poll(now: 10.2), "settled: reloaded")
    #expect(r.reloads == 1 && lines.isEmpty)
    #expect(r.host.sublayers?.count == 1 && r.host.sublayers?.first !== first)
    #expect(box(r)?.opacity == 0.25)
    #expect(box(r)?.backgroundColor == .blue, "command-line params are kept")
    // The new tree was built unhosted: its animation is on the scene clock, so it keeps its phase.
    let snap = r.host.snapshot(at: 5)
    #expect(snap.sublayers.first?.sublayers.first?.borderWidth == 5)
    #expect(!r.poll(now: 11), "one reload per change")
}

@Test func aBrokenEditKeepsTheOldTreeAndSaysSoOnce() throws {
    let file = try SceneFile(scene("0.5"))
    let options = file.options()
    var lines: [String] = []
    let r = SceneReloader(path: file.path, options: options, scene: try SceneLoader.load(contentsOf: file.path, options: options)) { lines.append($0) }
    let first = r.scene.root

    try file.write(scene("\"=0.5 +\""))
    _ = r.poll(now: 1)
    #expect(!r.poll(now: 1.2), "the broken file is not swapped in")
    #expect(r.host.sublayers?.first === first && box(r)?.opacity == 0.5)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("layerplay: error: live.json:2:") == true)
    #expect(lines.first?.contains("layers[0](\"box\").opacity") == true)
    #expect(!r.poll(now: 2) && lines.count == 1, "printed once, not every frame")

    try file.write(scene("0.75"))
    _ = r.poll(now: 3)
    #expect(r.poll(now: 3.2), "the fix reloads")
    #expect(box(r)?.opacity == 0.75)
    #expect(lines.count == 1)
}

/// The first player layer's player in the reloader's tree.
private func player(_ r: SceneReloader) -> Player? {
    func find(_ l: Layer) -> Player? {
        if let p = (l as? PlayerLayer)?.player { return p }
        for s in l.sublayers ?? [] { if let p = find(s) { return p } }
        return nil
    }
    return find(r.host)
}

@Test func unchangedInputsKeepTheirDecodersAndChangedOnesReopen() throws {
    let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../media").standardized.path
    func text(_ src: String, radius: Int) -> String {
        """
        {"version": "1.0", "inputs": {"main": {"src": "\(media)/\(src)"}},
         "layers": [{"id": "video", "type": "media", "input": "main", "frame": [0, 0, "100%", "100%"], "cornerRadius": \(radius)}]}
        """
    }
    let file = try SceneFile(text("ship.mp4", radius: 0))
    let options = file.options(media: MediaAssetSceneMedia())
    var lines: [String] = []
    let r = SceneReloader(path: file.path, options: options, scene: try SceneLoader.load(contentsOf: file.path, options: options)) { lines.append($0) }
    let ship = try #require(player(r))

    try file.write(text("ship.mp4", radius: 12))
    #expect(r.reload())
    #expect(player(r) === ship, "the same input keeps its player")
    #expect(r.host.sublayers?.first?.sublayers?.first?.cornerRadius == 12)

    try file.write("{\"version\": \"1.0\", \"layers\": [")
    #expect(!r.reload())
    try file.write(text("ship.mp4", radius: 4))
    #expect(r.reload())
    #expect(player(r) === ship, "a failed reload in between takes nothing from the playing tree")

    try file.write(text("clip.mp4", radius: 4))
    #expect(r.reload())
    let clip = try #require(player(r))
    #expect(clip !== ship, "a changed src reopens")
    #expect(lines.filter { $0.contains("error") }.count == 1)
}

@Test func theWatcherSeesARenameOverTheFileAndPollsWithoutInotify() throws {
    let file = try SceneFile(scene("0.5"))
    let w = FileWatcher(paths: [file.path])
    #expect(w.usesInotify)
    #expect(!w.changed(now: 0))
    // Written to a temporary name and renamed over the file, as many editors save.
    try file.write(scene("0.3"))
    #expect(w.changed(now: 0))
    #expect(!w.changed(now: 0), "each change is told once")
    let other = FileWatcher(paths: [file.folder.appendingPathComponent("other.json").path])
    try file.write(scene("0.2"))
    #expect(!other.changed(now: 0), "other files in the folder are not watched files")

    let polled = FileWatcher(paths: [file.path], inotify: false)
    #expect(!polled.usesInotify)
    #expect(!polled.changed(now: 0))
    try file.write(scene("0.125"))
    #expect(!polled.changed(now: 0.1), "looked at every 250 ms")
    #expect(polled.changed(now: 0.3))
    #expect(!polled.changed(now: 0.6))
    try FileManager.default.removeItem(atPath: file.path)
    #expect(polled.changed(now: 0.9), "a removed file is a change too")
}
