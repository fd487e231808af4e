import Foundation
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

private func printScene(_ text: String, arguments: [String] = [], sets: [(String, String)] = [], media: SceneMedia? = nil) throws(SceneErrors) -> String {
    var o = SceneLoadOptions(file: "t.json", directory: "/scenes")
    o.arguments = arguments
    o.sets = sets.map { (name: $0.0, value: $0.1) }
    o.media = media
    return try SceneLoader.resolvedJSON(text: text, options: o)
}

private let wall = """
{"version": "1.0", "name": "wall",
 // a comment, and a trailing comma below
 "params": {"gap": {"type": "number", "default": 8}, "tint": {"type": "color"}, "glow": {"type": "bool", "default": false}},
 "let": {"tw": "=(W - 4 * gap) / 3"},
 "canvas": {"size": "320x200", "background": "#111"},
 "layers": [
   {"id": "tile", "repeat": {"count": 3, "as": "k"}, "frame": ["=gap + k * (tw + gap)", "$gap", "$tw", 50],
    "opacity": "=0.5 + k / 4", "backgroundColor": "$tint",
    "sublayers": [{"id": "dot-${k}", "size": ["=w / 2", "=h / 2"], "position": ["50%", "50%"]}],
    "animations": [{"key": "in", "type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "beginTime": "=k * 0.5"},
                   {"when": "=glow", "type": "basic", "keyPath": "shadowOpacity", "to": 1}]},
   {"when": "=glow", "id": "never"},
   {"type": "shape", "path": "M 0 0 L 10 10", "strokeColor": "white"},
 ]}
"""

@Test func printResolvesParamsLetsRepeatAndWhen() throws {
    let text = try printScene(wall, sets: [("gap", "10")])
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "plain JSON")
    #expect(doc["params"] == nil && doc["let"] == nil)
    #expect(doc["name"] as? String == "wall")
    let canvas = try #require(doc["canvas"] as? [String: Any])
    #expect(canvas["size"] as? [Double] == [320, 200])
    let layers = try #require(doc["layers"] as? [[String: Any]])
    #expect(layers.map { $0["id"] as? String } == ["tile-0", "tile-1", "tile-2", "shape-1"], "repeat expanded, when false left out, default ids")
    let tw = (320.0 - 40) / 3
    #expect(layers[1]["frame"] as? [Double] == [10 + tw + 10, 10, tw, 50])
    #expect(layers[2]["opacity"] as? Double == 1)
    #expect(layers[0]["backgroundColor"] == nil, "a reference to a param without a value leaves the key out")
    let dot = try #require((layers[0]["sublayers"] as? [[String: Any]])?.first)
    #expect(dot["size"] as? [Double] == [tw / 2, 25], "w and h are the superlayer's size")
    let animations = try #require(layers[2]["animations"] as? [[String: Any]])
    #expect(animations.count == 1, "an animation whose when is false is left out")
    #expect(animations[0]["beginTime"] as? Double == 1)
    #expect(!text.contains("$") && !text.contains("\"="), "nothing is left to resolve")
}

@Test func printedSceneLoadsToTheSameTree() throws {
    let original = try loadScene(wall, sets: [("gap", "10")])
    let printed = try loadScene(try printScene(wall, sets: [("gap", "10")]))
    func shape(_ l: Layer) -> [String] {
        [[l.name ?? "", "\(l.frame)", "\(l.opacity)", "\(l.backgroundColor.map { "\($0)" } ?? "-")", String(describing: l.animationKeys())].joined(separator: " ")]
            + (l.sublayers ?? []).flatMap(shape)
    }
    #expect(shape(printed.root) == shape(original.root))
    #expect(printed.canvasSize == original.canvasSize)
    #expect(printed.root.backgroundColor == original.root.backgroundColor)
}

@Test func printNeedsWhatARunNeeds() {
    do throws(SceneErrors) {
        _ = try printScene(#"{"version": "1.0", "params": {"v": {"type": "media", "required": true}}, "layers": []}"#)
        Issue.record("a required param without a value must fail")
    } catch {
        #expect(error.diagnostics.first?.description.contains("required param has no value") == true)
    }
}
