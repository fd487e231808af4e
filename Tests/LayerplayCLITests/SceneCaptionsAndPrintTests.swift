import Foundation
import LayerGraphics
import Testing

/// `scene print` and a subtitles layer, through the binary (SCENES.md §3, §5).
@Suite("layerplay scene print and captions")
struct SceneCaptionsAndPrintTests {
    static let scene = """
    {"version": "1.0",
     "params": {"subs": {"type": "file"}, "n": {"type": "integer", "default": 2}},
     "canvas": {"size": "160x90", "background": "white"},
     "layers": [
       {"id": "dot", "repeat": {"count": "$n"}, "frame": ["=4 + i * 12", 4, 8, 8], "backgroundColor": "red"},
       {"id": "captions", "type": "subtitles", "file": "$subs", "when": "=defined(subs)",
        "anchorPoint": [0.5, 1], "position": ["50%", "=H - 4"], "size": ["90%", 0],
        "font": "DejaVu Sans", "fontSize": 12, "foregroundColor": "white", "alignmentMode": "center",
        "backgroundColor": "black", "padding": [6, 4]}]}
    """
    static let srt = "1\n00:00:00,500 --> 00:00:01,000\nHello\n\n"

    @Test func printWritesTheResolvedScene() throws {
        try withTemporaryDirectory { dir in
            try Self.scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let r = runLayerplay(["scene", "print", "s.json", "--set", "n=3"], in: dir)
            expectSuccess(r)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let layers = try #require(doc["layers"] as? [[String: Any]])
            #expect(layers.map { $0["id"] as? String } == ["dot-0", "dot-1", "dot-2"], "repeat by --set, captions left out by when")
            #expect(layers[2]["frame"] as? [Double] == [28, 4, 8, 8])
            #expect(doc["params"] == nil)
        }
    }

    @Test func captionsShowTheCueInTheirBox() throws {
        try withTemporaryDirectory { dir in
            try Self.scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            try Self.srt.write(to: dir.appendingPathComponent("c.srt"), atomically: true, encoding: .utf8)
            expectSuccess(runLayerplay(["s.json", "--set", "subs=c.srt", "--at", "0.75", "-o", "cue.png"], in: dir))
            expectSuccess(runLayerplay(["s.json", "--set", "subs=c.srt", "--at", "0.25", "-o", "none.png"], in: dir))
            guard let cue = readPNG(dir.appendingPathComponent("cue.png")), let none = readPNG(dir.appendingPathComponent("none.png")) else { return }
            let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)
            let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
            // The box is 144 wide, its bottom 4 above the canvas's, one line of 12-point text plus 4 + 4 tall.
            #expect(cue.pixel(x: 10, y: 83) == black, "the box's padding, left of the text")
            #expect(cue.pixel(x: 4, y: 83) == white, "the box is 90 % of the width, centred")
            #expect(cue.pixel(x: 10, y: 88) == white, "below the box's bottom edge")
            #expect((60...100).contains { x in (70...84).contains { y in cue.pixel(x: x, y: y).r > 128 } }, "white text in the box")
            #expect(none.pixel(x: 10, y: 83) == white, "no box between cues")
        }
    }
}
