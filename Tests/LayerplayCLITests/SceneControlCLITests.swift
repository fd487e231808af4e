import Foundation
import Testing
import TestSupport

/// Live scene control (issue 30 item 5, SCENES.md §11): `scene-set` over the JSON IPC while a scene plays in a window,
/// recorded with `--record-controls`, then replayed on an export with `--replay-controls`: the export's still at T is
/// the window's screenshot at T, pixel for pixel.
@Suite("Scene control", .serialized)
struct SceneControlCLITests {
    static let scene = """
    {"version": "1.0", "canvas": {"size": "64x48", "duration": 30, "fps": 30},
     "params": {"alpha": {"type": "number", "default": 1, "min": 0, "max": 1}, "tint": {"type": "color", "default": "red"}},
     "layers": [{"id": "box", "frame": [8, 8, 40, 30], "opacity": "$alpha", "backgroundColor": "$tint",
                 "animations": [{"type": "basic", "keyPath": "cornerRadius", "from": 0, "to": 15, "duration": 30}]}]}
    """

    @Test func aTakePerformedOverIPCRendersTheSamePixelsWhenReplayed() throws {
        try withTemporaryDirectory { dir in
            let scenePath = dir.appendingPathComponent("live.json").path
            try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
            let socketPath = dir.appendingPathComponent("ipc.sock").path
            let takePath = dir.appendingPathComponent("take.jsonl").path
            let shotPath = dir.appendingPathComponent("window.png").path
            let player = try BackgroundPlayer([scenePath, "--input-ipc-server", socketPath, "--record-controls", takePath])
            defer { player.stop() }
            let client = try IPCClient(path: socketPath)
            // Playing for a while first: the change lands at an arbitrary clock time, not on a frame.
            let deadline = Date().addingTimeInterval(10)
            while (try client.ask(["get_property", "time-pos"])["data"] as? Double ?? 0) < 0.4 && Date() < deadline { usleep(20_000) }
            #expect(try client.ask(["scene-set", "tint", "#2060ff"])["error"] as? String == "success")
            // Wrong name, wrong value: an error reply, and the scene plays on.
            let unknown = try client.ask(["scene-set", "tnit", "blue"])
            #expect(unknown["error"] as? String == "invalid parameter", "\(unknown)")
            #expect(try client.ask(["scene-set", "alpha", "lots"])["error"] as? String == "invalid parameter")
            #expect(try client.ask(["scene-set", "alpha"])["error"] as? String == "invalid parameter")
            #expect(try client.ask(["scene-set", "alpha", 0.5])["error"] as? String == "success")
            let params = try client.ask(["get_property", "scene-params"])["data"] as? [String: String]
            #expect(params == ["alpha": "0.5", "tint": "#2060ff"], "\(String(describing: params))")
            _ = try client.ask(["set_property", "pause", true])
            // A time inside the 0.25 s the change animates for, on a frame the export can name exactly.
            let now = try client.ask(["get_property", "time-pos"])["data"] as? Double ?? 0
            let t = (now * 1000).rounded() / 1000 + 0.1
            #expect(try client.ask(["seek", t, "absolute"])["error"] as? String == "success")
            let shot = try client.ask(["screenshot-to-file", shotPath])
            #expect(shot["error"] as? String == "success", "\(shot)")
            _ = try client.ask(["quit"])
            let result = player.wait()
            #expect(result.status == 0, "\(result)")

            let take = try String(contentsOfFile: takePath, encoding: .utf8).split(separator: "\n")
            #expect(take.count == 2 && take[0].contains("\"scene-set\",\"tint\",\"#2060ff\"") && take[1].contains("\"alpha\",\"0.5\""), "\(take)")
            let replayed = dir.appendingPathComponent("replayed.png").path
            let run = runLayerplay([scenePath, "--replay-controls", takePath, "-o", replayed, "--at", "\(t)"], environment: headless)
            #expect(run.status == 0, "\(run)")
            let window = try Data(contentsOf: URL(fileURLWithPath: shotPath))
            #expect(try Data(contentsOf: URL(fileURLWithPath: replayed)) == window, "the replayed still is the window's frame at \(t)")
            // The take matters: without it the still differs.
            let plain = dir.appendingPathComponent("plain.png").path
            #expect(runLayerplay([scenePath, "-o", plain, "--at", "\(t)"], environment: headless).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) != window)
        }
    }

    @Test func aTakeThatDoesNotFitTheSceneIsOneErrorLineAndNoOutput() throws {
        try withTemporaryDirectory { dir in
            let scenePath = dir.appendingPathComponent("live.json").path
            try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
            let takePath = dir.appendingPathComponent("take.jsonl").path
            try "{\"command\":[\"scene-set\",\"alpha\",\"2\"],\"time\":0.5}\n".write(toFile: takePath, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("out.mp4").path
            let r = runLayerplay([scenePath, "--replay-controls", takePath, "-o", out, "--duration", "1"], environment: headless)
            #expect(r.status == 1, "\(r)")
            #expect(r.stderrLines.count == 1 && r.stderrLines[0].hasPrefix("layerplay: error: \(takePath): the scene-set at 0.5 s: "), "\(r)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
