import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport
@testable import LayerScene

/// A media layer of an audio-only input shows its sound (SCENES.md §3), looping with the input.
@Test func anAudioOnlyMediaLayerDrawsItsSoundAndLoopsWithIt() throws {
    let text = """
    {"version": "1.0", "canvas": {"size": "128x72"}, "params": {"sound": {"type": "media", "position": 0}},
     "inputs": {"main": {"src": "$sound", "loop": true}},
     "layers": [{"id": "wave", "type": "media", "input": "main", "size": ["100%", "100%"]}]}
    """
    let scene = try loadScene(text, arguments: [mediaSample("tone.m4a")], media: MediaAssetSceneMedia())
    let layer = try #require(scene.root.sublayers?.first as? AudioVisualizerLayer)
    #expect(layer.mode == .waveform)
    let range = try #require(layer.range)
    #expect(range.loops && abs(range.end - 1) < 0.05, "tone.m4a is 1 s and loops")
    // The 440 Hz tone moves the line: two times 13 ms apart draw differently; a loop later draws the same.
    // The shapes drawn at `t`: every path in the snapshot.
    func shapes(_ t: Double, of loaded: LoadedScene? = nil) -> [Path] {
        func walk(_ s: LayerSnapshot) -> [Path] { ((s.payload as? ShapePayload).map { [$0.path] } ?? []) + s.sublayers.flatMap(walk) }
        return walk((loaded ?? scene).root.snapshot(at: t))
    }
    // An input's `start` is the media time at local time 0, as for a video (SCENES.md §6).
    let later = try loadScene(text.replacingOccurrences(of: "\"loop\": true", with: "\"start\": 0.25"),
                              arguments: [mediaSample("tone.m4a")], media: MediaAssetSceneMedia())
    #expect(shapes(0.00003, of: later) == shapes(0.25003))
    #expect(shapes(0.00003, of: later) != shapes(0.00003))
    #expect(!shapes(0.50003).isEmpty)
    #expect(shapes(0.50003) != shapes(0.51303))
    #expect(shapes(0.50003) == shapes(0.50003 + range.length))
}
