import Foundation
import LayerGraphics
import Testing

/// Scene files on the command line (SCENES.md §5, §7): a run, `scene check` and `scene params`.
@Suite("layerplay scene files")
struct SceneCLITests {
    static let scene = """
    // A still input on a canvas, with a param for the background.
    {
      "version": "1.0",
      "params": {"picture": {"type": "image", "required": true, "position": 0, "doc": "any still"},
                 "paper": {"type": "color", "default": "#0000ff"}},
      "inputs": {"main": {"src": "$picture"}},
      "canvas": {"size": "80x60", "background": "$paper"},
      "layers": [{"id": "card", "type": "media", "input": "main", "frame": ["25%", "25%", "50%", "50%"],
                  "videoGravity": "resize"}],
    }
    """

    @Test func aSceneFileRendersWithItsArgumentsAndSets() throws {
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir, width: 64, height: 48)
            try Self.scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let r = runLayerplay(["s.json", "in.png", "--set", "paper=#00ff00", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 80 && out.height == 60)
            #expect(out.pixel(x: 2, y: 2) == PremultipliedColor(r: 0, g: 255, b: 0, a: 255), "the --set background")
            #expect(out.pixel(x: 40, y: 30).a == 255)
            #expect(out.pixel(x: 40, y: 30) != out.pixel(x: 2, y: 2), "the picture covers the middle")
        }
    }

    @Test func aRunPrintsTheFirstProblemAndCheckPrintsThemAll() throws {
        try withTemporaryDirectory { dir in
            let bad = """
            {"version": "1.0",
             "layers": [{"id": "a", "frmae": [0, 0, 1, 1]},
                        {"id": "b", "opacity": 2}]}
            """
            try bad.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            let run = runLayerplay(["bad.json", "-o", "out.png"], in: dir)
            #expect(run.status == 1)
            #expect(run.stderrLines == ["layerplay: error: bad.json:2:25: layers[0](\"a\").frmae: unknown key; did you mean \"frame\"? (and 1 more; run `layerplay scene check` to list them)"])
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path), "a bad scene leaves no output")
            let check = runLayerplay(["scene", "check", "bad.json"], in: dir)
            #expect(check.status == 1)
            #expect(check.stderrLines == [
                "layerplay: error: bad.json:2:25: layers[0](\"a\").frmae: unknown key; did you mean \"frame\"?",
                "layerplay: error: bad.json:3:36: layers[1](\"b\").opacity: expected a number from 0 to 1, got 2",
            ])
        }
    }

    @Test func aMissingInputFileIsOneErrorNotOnePerLayerThatUsesIt() throws {
        try withTemporaryDirectory { dir in
            let scene = """
            {"version": "1.0", "canvas": {"size": "80x60"},
             "inputs": {"main": {"src": "gone.mp4"}},
             "layers": [{"id": "card", "type": "media", "input": "main"}]}
            """
            try scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let run = runLayerplay(["s.json", "--duration", "0.2", "-o", "out.mp4"], in: dir)
            expectRunFailure(run, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir,
                             mentions: ["s.json:2:29: inputs.main.src: cannot open 'gone.mp4'"])
            // One problem, not the first of two: "(and 1 more …)" was the layer's "expected one of" for the same file.
            #expect(!run.stderr.contains("more") && !run.stderr.contains("expected one of"), "\(run)")
            let check = runLayerplay(["scene", "check", "s.json"], in: dir)
            #expect(check.status == 1 && check.stderrLines.count == 1 && check.stderr.contains("gone.mp4"), "\(check)")

            // A missing image is named where a key reads it, once per key: a mask's contents add no second line.
            let images = """
            {"version": "1.0", "canvas": {"size": "80x60"},
             "layers": [{"id": "card", "contents": "nowhere.png", "mask": {"contents": "nomask.png"}}]}
            """
            try images.write(to: dir.appendingPathComponent("i.json"), atomically: true, encoding: .utf8)
            let imageCheck = runLayerplay(["scene", "check", "i.json"], in: dir)
            #expect(imageCheck.status == 1 && imageCheck.stderrLines.count == 2, "\(imageCheck)")
            #expect(imageCheck.stderrLines.first?.contains("nowhere.png") == true && imageCheck.stderrLines.last?.contains("nomask.png") == true,
                    "\(imageCheck)")
        }
    }

    @Test func checkAndParamsNeedNoRequiredValues() throws {
        try withTemporaryDirectory { dir in
            try Self.scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            let check = runLayerplay(["scene", "check", "s.json"], in: dir)
            expectSuccess(check)
            let params = runLayerplay(["scene", "params", "s.json"], in: dir)
            expectSuccess(params)
            // With its default (issue 30: `scene params` left defaults and ranges out).
            #expect(params.stdout == "picture: image, argument 1, required — any still\npaper: color, default #0000ff\n", "\(params.stdout)")
        }
    }
}

/// `Config/scenes/card.json` is today's flags as a scene (SCENES.md §5): the same pixels as the built-in card.
@Suite("layerplay card scene")
struct CardSceneFileTests {
    static let cases: [(flags: [String], sets: [String])] = [
        (["--rotate", "30", "--corner-radius", "12", "--border", "4:red", "--shadow"],
         ["--set", "rotate=30", "--set", "cornerRadius=12", "--set", "border=4:red", "--set", "shadow=16:0.5:0,8"]),
        (["--spin", "4", "--at", "1", "--axis", "1,1,0", "--gravity", "fill", "--opacity", "0.7", "--layer-size", "90x60",
          "--size", "120x90", "--background", "#202040"],
         ["--set", "spin=4", "--at", "1", "--set", "axis=1,1,0", "--set", "gravity=fill", "--set", "opacity=0.7",
          "--set", "layerSize=90x60", "--set", "size=120x90", "--set", "background=#202040"]),
    ]

    @Test(arguments: 0..<cases.count)
    func theCardSceneDrawsWhatTheFlagsDraw(_ index: Int) throws {
        let c = Self.cases[index]
        let card = packageRoot.appendingPathComponent("Config/scenes/card.json").path
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir, width: 64, height: 48)
            expectSuccess(runLayerplay(["in.png"] + c.flags + ["-o", "flags.png"], in: dir))
            expectSuccess(runLayerplay([card, "in.png"] + c.sets + ["-o", "scene.png"], in: dir))
            // The flags themselves bind to the card scene's like-named params.
            expectSuccess(runLayerplay([card, "in.png"] + c.flags + ["-o", "bound.png"], in: dir))
            guard let a = readPNG(dir.appendingPathComponent("flags.png")), let b = readPNG(dir.appendingPathComponent("scene.png")),
                  let bound = readPNG(dir.appendingPathComponent("bound.png")) else { return }
            #expect(bound.width == a.width && bound.height == a.height)
            #expect((0..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { x in a.pixel(x: x, y: y) == bound.pixel(x: x, y: y) } })
            #expect(a.width == b.width && a.height == b.height)
            var differing = 0
            for y in 0..<min(a.height, b.height) { for x in 0..<min(a.width, b.width) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "pixels that differ between the flags and the card scene")
        }
    }
}
