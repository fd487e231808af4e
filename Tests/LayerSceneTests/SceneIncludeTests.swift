import Foundation
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

/// A folder of scene files for include tests, removed afterwards.
final class SceneFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-include-\(UUID().uuidString)")
    var path: String { url.path }
    init(_ files: [String: String]) throws {
        for (name, text) in files { try write(name, text) }
    }
    func write(_ name: String, _ text: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Options for loading `name` from this folder, as `layerplay NAME` run inside it would.
    func options(_ name: String, media: SceneMedia? = nil) -> SceneLoadOptions {
        var o = SceneLoadOptions(file: name, directory: (url.appendingPathComponent(name).path as NSString).deletingLastPathComponent)
        o.media = media
        return o
    }

    func load(_ name: String, media: SceneMedia? = nil) throws(SceneErrors) -> LoadedScene {
        try SceneLoader.load(contentsOf: url.appendingPathComponent(name).path, options: options(name, media: media))
    }

    func errors(_ name: String, media: SceneMedia? = nil) -> [String] {
        do throws(SceneErrors) { _ = try load(name, media: media); return [] } catch { return error.diagnostics.map(\.description) }
    }
}

/// A lower third meant for inclusion: its own canvas, params with defaults, a relative image-free layout.
let lowerThird = """
{"version": "1.0",
 "params": {"title": {"type": "string", "default": "Untitled"},
            "accent": {"type": "color", "default": "red"},
            "width": {"type": "number", "default": 300, "min": 10}},
 "canvas": {"size": "=[width, 80]"},
 "layers": [{"id": "band", "frame": [0, 0, "100%", "100%"], "backgroundColor": "$accent"},
            {"id": "title", "type": "text", "frame": [10, 10, "=w - 20", 60], "string": "$title"}]}
"""

@Test func anIncludedSceneBecomesALayerWithItsCanvasAsBounds() throws {
    let folder = try SceneFolder(["parts/lower.json": lowerThird, "news.json": """
    {"version": "1.0", "canvas": {"size": "640x360"},
     "params": {"name": {"type": "string", "default": "Ada"}},
     "layers": [{"id": "lower", "type": "scene", "src": "parts/lower.json", "position": ["50%", "=H - 60"],
                 "set": {"title": "=name + ' Lovelace'", "accent": "#00ff00", "width": "=W / 2"}}]}
    """])
    let scene = try folder.load("news.json")
    let lower = try #require(scene.root.sublayers?.first)
    #expect(lower.name == "lower")
    #expect(lower.bounds == Rect(x: 0, y: 0, width: 320, height: 80), "the included canvas, its size from a set value computed outside")
    #expect(lower.position == Point(x: 320, y: 300) && lower.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(lower.backgroundColor == nil, "an included canvas paints nothing unless its file gives a background")
    let band = try #require(lower.sublayers?.first)
    #expect(band.backgroundColor == Color(red: 0, green: 1, blue: 0))
    let title = try #require(lower.sublayers?.last as? TextLayer)
    #expect(title.string == .plain("Ada Lovelace") && title.bounds.width == 300)
    // Live reload watches the included file.
    #expect(scene.files.contains { $0.hasSuffix("parts/lower.json") })
}

@Test func errorsInsideAnIncludedSceneNameBothPlaces() throws {
    let folder = try SceneFolder(["lower.json": """
    {"version": "1.0",
     "layers": [{"id": "band",
                 "opacity": 2}]}
    """, "news.json": """
    {"version": "1.0",
     "layers": [
       {"id": "lower", "type": "scene",
        "src": "lower.json"}]}
    """])
    #expect(folder.errors("news.json") == [
        "lower.json:3:25: layers[0](\"band\").opacity: expected a number from 0 to 1, got 2 (included from news.json:4:12)",
    ])
}

@Test func setValuesAreCheckedByTheIncludedParamsAndReportedWhereWritten() throws {
    let folder = try SceneFolder(["lower.json": lowerThird, "news.json": """
    {"version": "1.0",
     "layers": [{"id": "lower", "type": "scene", "src": "lower.json",
                 "set": {"width": 2, "titel": "x"}}]}
    """])
    #expect(folder.errors("news.json") == [
        "news.json:3:31: layers[0](\"lower\").set.width: expected a number ≥ 10, got 2",
        "news.json:3:34: layers[0](\"lower\").set.titel: the included scene declares no such param; did you mean \"title\"?",
    ])
}

@Test func includeCyclesAreRefusedWithTheirPath() throws {
    let folder = try SceneFolder([
        "a.json": "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \"b.json\"}]}",
        "b.json": "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \"./a.json\"}]}",
        "self.json": "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \"self.json\"}]}",
    ])
    #expect(folder.errors("a.json") == [
        "b.json:1:56: layers[0].src: include cycle: a.json → b.json → ./a.json (included from a.json:1:56)",
    ])
    #expect(folder.errors("self.json") == ["self.json:1:56: layers[0].src: include cycle: self.json → self.json"])
    // A file included twice side by side is not a cycle.
    try folder.write("twice.json", "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \"b2.json\"}, {\"type\": \"scene\", \"src\": \"b2.json\"}]}")
    try folder.write("b2.json", "{\"version\": \"1.0\", \"canvas\": {\"size\": \"10x10\"}, \"layers\": []}")
    #expect(folder.errors("twice.json") == [])
}

@Test func aMissingOrBrokenIncludeIsAnError() throws {
    let folder = try SceneFolder([
        "top.json": "{\"version\": \"1.0\", \"layers\": [{\"type\": \"scene\", \"src\": \"gone.json\"}, {\"type\": \"scene\", \"src\": \"bad.json\"}]}",
        "bad.json": "{\"version\": \"1.0\",\n \"layers\": [}",
    ])
    #expect(folder.errors("top.json") == [
        "top.json:1:56: layers[0].src: cannot open 'gone.json': No such file or directory",
        "bad.json:2:13: expected a value, got '}' (included from top.json:1:95)",
    ])
}

/// Media that counts its probes.
final class CountingMedia: SceneMedia {
    var probes: [String: Int] = [:]
    func probe(_ path: String) throws -> SceneMediaInfo {
        probes[(path as NSString).lastPathComponent, default: 0] += 1
        return SceneMediaInfo(size: Size(width: 320, height: 180), duration: 4, fps: 25, hasAudio: true)
    }
    func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer { Layer() }
}

@Test func inputsAreTheIncludedScenesOwnButAFileIsProbedOnce() throws {
    let folder = try SceneFolder([
        "inset.json": """
        {"version": "1.0", "inputs": {"main": {"src": "clip.mp4"}},
         "layers": [{"id": "v", "type": "media", "input": "main", "frame": [0, 0, "100%", "100%"]}]}
        """,
        "top.json": """
        {"version": "1.0", "inputs": {"main": {"src": "clip.mp4"}},
         "layers": [{"id": "v", "type": "media", "input": "main"},
                    {"id": "pip", "type": "scene", "src": "inset.json", "transform": {"scale": 0.25}}]}
        """,
    ])
    let media = CountingMedia()
    let scene = try folder.load("top.json", media: media)
    #expect(media.probes == ["clip.mp4": 1])
    #expect(scene.inputs.map(\.id) == ["main", "inset.json#main"])
    #expect(scene.audioInput == "main")
    let pip = try #require(scene.root.sublayers?.last)
    #expect(pip.bounds.size == Size(width: 320, height: 180), "the included canvas takes its first input's size")
    #expect(scene.duration == 4)
}

@Test func editingAnIncludedFileReloads() throws {
    let folder = try SceneFolder(["lower.json": lowerThird, "top.json": """
    {"version": "1.0", "layers": [{"id": "lower", "type": "scene", "src": "lower.json"}]}
    """])
    let options = folder.options("top.json")
    let path = folder.url.appendingPathComponent("top.json").path
    var lines: [String] = []
    let r = SceneReloader(path: path, options: options, scene: try SceneLoader.load(contentsOf: path, options: options)) { lines.append($0) }
    func band() -> Layer? { r.host.sublayers?.first?.sublayers?.first?.sublayers?.first }
    #expect(band()?.backgroundColor == .red)
    #expect(!r.poll(now: 0))
    try folder.write("lower.json", lowerThird.replacingOccurrences(of: "\"default\": \"red\"", with: "\"default\": \"blue\""))
    _ = r.poll(now: 1)
    #expect(r.poll(now: 1.2), "the included file is watched")
    #expect(band()?.backgroundColor == .blue && lines.isEmpty)
    // A broken include keeps the old tree and names both files.
    try folder.write("lower.json", "{\"version\": \"1.0\", \"layers\": [{\"opacity\": \"x\"}]}")
    _ = r.poll(now: 2)
    #expect(!r.poll(now: 2.2))
    #expect(band()?.backgroundColor == .blue)
    #expect(lines == ["layerplay: error: lower.json:1:43: layers[0].opacity: expected a number from 0 to 1, got \"x\" (included from top.json:1:71)"])
}

@Test func scenePrintKeepsIncludesAndCutsResolvedAndLoadsBack() throws {
    let folder = try SceneFolder(["lower.json": lowerThird, "show.json": """
    {"version": "1.0", "canvas": {"size": "320x180"}, "params": {"t": {"type": "time", "default": "2s"}},
     "layers": [{"id": "lower", "type": "scene", "src": "lower.json", "set": {"width": "=W / 2", "title": "On air"}},
                {"id": "cam", "type": "switch", "size": ["100%", "100%"],
                 "sublayers": [{"id": "a"}, {"id": "b"}],
                 "cuts": [{"at": "$t", "show": "b", "transition": {"type": "push", "duration": "=t / 4"}}]}]}
    """])
    let json = try SceneLoader.resolvedJSON(contentsOf: folder.url.appendingPathComponent("show.json").path, options: folder.options("show.json"))
    #expect(json.contains("\"set\": {\n") && json.contains("\"width\": 160") && json.contains("\"at\": 2") && json.contains("\"duration\": 0.5"))
    try folder.write("printed.json", json)
    let again = try folder.load("printed.json")
    #expect(again.root.sublayers?.first?.bounds.width == 160)
    #expect(again.root.sublayers?.last?.sublayers?.last?.animation(forKey: "switch-cut0-in") != nil)
}
