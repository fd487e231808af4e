import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import LayerScene

/// Media for fuzzing: every input probes as a small video (its size taken from the path's length, so expressions
/// on `inputs.ID.*` see varied values) and shows as a plain layer. Nothing is opened.
final class FuzzMediaDouble: SceneMedia, Sendable {
    func probe(_ path: String) throws -> SceneMediaInfo {
        if path.hasSuffix(".missing") { throw Missing() }
        let n = Double(path.utf8.count)
        return SceneMediaInfo(size: path.hasSuffix(".wav") ? nil : Size(width: 16 + n, height: 9 + n / 2), duration: 1 + n / 10,
                              fps: 25, hasAudio: !path.hasSuffix(".png"))
    }
    func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let l = Layer()
        l.contentsGravity = videoGravity
        return l
    }
    func subtitleTracks(_ path: String) throws -> [SubtitleTrack] { [] }
    struct Missing: Error {}
}

private let media = FuzzMediaDouble()

/// One fuzz input read as a scene file, as `layerplay SCENE.json` and `scene check` read one: the loader with a
/// media double and file reading off (no file is touched), then the tree evaluated at a few times, since cuts,
/// `show` and animations only run then, and `scene print`'s writer. Errors are expected; crashes are findings.
// Also exported under libFuzzer's name: its runtime refers to it even when main.swift starts the driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var options = SceneLoadOptions(file: "fuzz.json", directory: "/nonexistent-fuzz-scenes")
    options.media = media
    options.readsFiles = false
    options.arguments = ["clip.mp4", "inset.mp4"]
    options.checkOnly = data[0] & 1 == 1
    guard let scene = try? SceneLoader.load(text: text, options: options) else { return 0 }
    for t in [0, 0.5, 2.25, 7, -1, 1e6] { _ = scene.root.snapshot(at: t) }
    if !options.checkOnly { _ = try? SceneLoader.resolvedJSON(text: text, options: options) }
    return 0
}
