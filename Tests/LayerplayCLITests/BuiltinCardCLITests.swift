import Foundation
import LayerGraphics
import Testing
import TestSupport

/// `builtin:card` as a scene: named on the command line, printed and listed without any file on disk (SCENES.md §5).
@Suite("layerplay builtin:card")
struct BuiltinCardCLITests {
    @Test func paramsListsTheCardsParamsWithTheirDocs() throws {
        let r = runLayerplay(["scene", "params", "builtin:card"])
        expectSuccess(r)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix { $0 != ":" }) } == ["input", "size", "background", "layerSize", "gravity", "rotate", "axis",
                                                                 "perspective", "spin", "cornerRadius", "border", "shadow", "mask", "opacity"])
        #expect(lines.first == "input: media, argument 1, required — the video, sound or picture the card shows")
        #expect(lines.allSatisfy { $0.contains(" — ") }, "every param has a doc: \(lines)")
    }

    @Test func printResolvesTheCardForAnInput() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["scene", "print", "builtin:card", "in.png", "--set", "rotate=30", "--set", "cornerRadius=6"], in: dir)
            expectSuccess(r)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let layers = try #require(doc["layers"] as? [[String: Any]])
            #expect(layers.first?["id"] as? String == "media-container")
            let media = try #require((layers.first?["sublayers"] as? [[String: Any]])?.first)
            #expect(media["cornerRadius"] as? Double == 6)
            #expect(media["masksToBounds"] as? Bool == true)
        }
    }

    /// Sound only: no picture to take the size from, so the canvas is 1280×720, as the card always had it.
    @Test func anAudioOnlyCardHasTheDefaultCanvas() throws {
        let r = runLayerplay(["scene", "print", "builtin:card", mediaSample("tone.m4a")])
        expectSuccess(r)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((doc["canvas"] as? [String: Any])?["size"] as? [Double] == [1280, 720], "\(r.stdout.prefix(300))")
    }

    /// `layerplay INPUT --flags` and `layerplay builtin:card INPUT --flags` are one scene: the same pixels.
    @Test func theBuiltinCardNamedDrawsWhatTheFlagsDraw() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let flags = ["--rotate", "25", "--border", "3:yellow", "--size", "96x72", "--background", "#336699"]
            expectSuccess(runLayerplay(["in.png"] + flags + ["-o", "a.png"], in: dir))
            expectSuccess(runLayerplay(["builtin:card", "in.png"] + flags + ["-o", "b.png"], in: dir))
            guard let a = readPNG(dir.appendingPathComponent("a.png")), let b = readPNG(dir.appendingPathComponent("b.png")) else { return }
            #expect(samePixels(a, b))
            #expect(a.width == 96 && a.height == 72)
        }
    }

    @Test func anUnknownBuiltinSceneSaysWhichThereAre() throws {
        let r = runLayerplay(["scene", "check", "builtin:nope"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("no such built-in scene (there are: builtin:card)"), "\(r)")
    }
}
