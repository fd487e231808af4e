import Foundation
import LayerScene
import Testing

/// The built-in scenes are compiled in; `Config/scenes/*.json` stays their single source (SCENES.md §5).
@Suite("built-in scenes")
struct BuiltinSceneTests {
    /// `Config/scenes/card.json` of this package, found by walking up from this file to Package.swift.
    static func configFile(_ name: String, from file: String = #filePath) -> URL {
        var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("Config/scenes/\(name)")
    }

    @Test func theCompiledCardIsConfigScenesCardJSONByteForByte() throws {
        let file = try Data(contentsOf: Self.configFile("card.json"))
        let compiled = try #require(BuiltinScenes.text(of: "builtin:card"))
        #expect(Data(compiled.utf8) == file, "Config/scenes/card.json changed: run `make builtin-scenes` to compile it in again")
    }

    @Test func onlyTheBuiltinPrefixNamesABuiltinScene() {
        #expect(BuiltinScenes.text(of: "card") == nil)
        #expect(BuiltinScenes.text(of: "builtin:nope") == nil)
        #expect(BuiltinScenes.isBuiltin("builtin:card"))
        #expect(!BuiltinScenes.isBuiltin("card.json"))
    }

    /// Every param of the card has a doc, for `scene params builtin:card`.
    @Test func everyParamOfTheCardIsDocumented() throws {
        var options = SceneLoadOptions(file: "builtin:card", directory: "")
        options.checkOnly = true
        let scene = try SceneLoader.load(contentsOf: "builtin:card", options: options)
        #expect(scene.params.count == 14)
        for p in scene.params { #expect(p.doc?.isEmpty == false, "\(p.name) has no doc") }
    }

    @Test func anUnknownBuiltinSceneIsAnErrorThatListsThem() {
        let options = SceneLoadOptions(file: "builtin:nope", directory: "")
        #expect { _ = try SceneLoader.load(contentsOf: "builtin:nope", options: options) } throws: { error in
            "\(error)".contains("no such built-in scene") && "\(error)".contains("builtin:card")
        }
    }
}
