import LayerGraphics
import LayerKit
@testable import LayerScene

/// Media whose probe answers from a table, so scenes with inputs load without decoding files.
final class FakeMedia: SceneMedia {
    var infos: [String: SceneMediaInfo]
    init(_ infos: [String: SceneMediaInfo]) { self.infos = infos }

    struct Missing: Error, CustomStringConvertible { var description: String { "No such file or directory" } }

    func probe(_ path: String) throws -> SceneMediaInfo {
        guard let i = infos[(path as NSString).lastPathComponent] else { throw Missing() }
        return i
    }

    func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let l = Layer()
        l.contentsGravity = videoGravity
        return l
    }
}

import Foundation

/// Loads `text` as `t.json`; the thrown errors' lines for tests that expect them.
func loadScene(_ text: String, arguments: [String] = [], sets: [(String, String)] = [], media: SceneMedia? = nil,
               checkOnly: Bool = false) throws(SceneErrors) -> LoadedScene {
    var o = SceneLoadOptions(file: "t.json", directory: "/scenes")
    o.arguments = arguments
    o.sets = sets.map { (name: $0.0, value: $0.1) }
    o.media = media
    o.checkOnly = checkOnly
    return try SceneLoader.load(text: text, options: o)
}

/// The error lines a scene gives (empty when it loads).
func sceneErrors(_ text: String, arguments: [String] = [], sets: [(String, String)] = [], media: SceneMedia? = nil) -> [String] {
    do throws(SceneErrors) {
        _ = try loadScene(text, arguments: arguments, sets: sets, media: media)
        return []
    } catch { return error.diagnostics.map(\.description) }
}
