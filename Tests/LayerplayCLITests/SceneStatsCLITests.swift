import Foundation
import Testing
import TestSupport

/// `--stats` on a played scene (Benchmarks/playback.sh's emitter scenario plays a scene file headless).
@Suite("layerplay scene --stats")
struct SceneStatsCLITests {
    @Test func aPlayedScenePrintsItsStatistics() throws {
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir, width: 64, height: 48)
            try SceneCLITests.scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let r = runLayerplay(["s.json", "in.png", "--duration", "0.3", "--no-watch", "--stats"], in: dir,
                                 environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"])
            #expect(r.status == 0, "\(r.stderr)")
            let line = try #require(r.stderr.split(separator: "\n").last.map(String.init))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((json["frames_rendered"] as? Int ?? 0) > 0, "\(line)")
            #expect(json["frames_dropped"] != nil && json["render_ms_p99"] != nil)
        }
    }
}
