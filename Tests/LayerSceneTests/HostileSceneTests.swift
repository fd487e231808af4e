import Foundation
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

/// Garbage, truncations and hostile values: always a list of errors or a tree, never a crash.
@Test func mutatedScenesNeverCrash() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Config/scenes/lower-third.json")
    let original = Array(try String(contentsOf: url, encoding: .utf8).utf8)
    var rng = SplitMix(seed: 19)
    let alphabet = Array("{}[],:\"=$%-.0123456789eE/*\\ abcxyzWHwh()?!&|'".utf8)
    for _ in 0..<400 {
        var bytes = original
        for _ in 0..<Int(rng.next() % 4 + 1) {
            let i = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 3 {
            case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            case 1: bytes.remove(at: i)
            default: bytes = Array(bytes[..<i])
            }
            if bytes.isEmpty { break }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        do throws(SceneErrors) { _ = try loadScene(text, arguments: ["v.mp4"], checkOnly: true) } catch {
            #expect(!error.diagnostics.isEmpty)
        }
    }
}

@Test func hostileValuesAreRefusedOrClamped() throws {
    #expect(sceneErrors("{\"version\": \"1.0\", \"canvas\": {\"size\": [1e300, 5]}, \"layers\": []}")
        == ["t.json:1:39: canvas.size: expected a size from 1x1 to 16384x16384, got a list of 2"])
    let scene = try loadScene("{\"version\": \"1.0\", \"layers\": [{\"size\": [1e300, 1e300], \"position\": [\"=-1e308 * 10\", 0]}]}")
    let layer = try #require(scene.root.sublayers?.first)
    #expect(layer.bounds.width == 1e9 && layer.position.x == -1e9, "huge values are clamped")
    #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [{\"repeat\": {\"count\": 1e6}}]}")
        == ["t.json:1:52: layers[0].repeat.count: expected a number from 0 to 1000, got 1000000"])
}

/// A small deterministic generator (the test must fail the same way every run).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
