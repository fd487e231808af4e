import Foundation
import LayerGraphics
import Testing

@Suite("layerplay probe")
struct ProbeTests {
    @Test func probeDescribesAStillAsJSON() throws {
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir, width: 64, height: 48)
            let r = runLayerplay(["probe", "in.png"], in: dir)
            expectSuccess(r)
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let video = object?["video"] as? [String: Any]
            #expect(video?["width"] as? Int == 64)
            #expect(video?["display_height"] as? Int == 48)
            #expect(video?["codec"] as? String == "png")
        }
    }

    @Test(arguments: ["missing.mp4", "notes.txt"])
    func probeRefusesWhatIsNotMedia(_ name: String) throws {
        try withTemporaryDirectory { dir in
            if name == "notes.txt" {
                _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data("not media\n".utf8))
            }
            let r = runLayerplay(["probe", name], in: dir)
            expectRunFailure(r, mentions: [name])
        }
    }
}
