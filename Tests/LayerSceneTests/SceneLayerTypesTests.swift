import Foundation
import LayerGraphics
import LayerKit
import Testing
import LayerMedia
import TestSupport
@testable import LayerScene

@Test func replicatorKeysSetTheReplication() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [
      {"id": "row", "type": "replicator", "size": [200, 50], "instanceCount": 5, "instanceDelay": "250ms",
       "instanceTransform": [{"translate": [40, 0]}], "instanceColor": "#ff0000", "instanceGreenOffset": 0.2,
       "instanceAlphaOffset": -0.1, "preservesDepth": true,
       "sublayers": [{"id": "dot", "size": [20, 20], "backgroundColor": "white"}],
       "animations": [{"type": "basic", "keyPath": "instanceTransform", "from": [{"translate": [0, 0]}], "to": [{"translate": [40, 0]}]}]}
    ]}
    """)
    let r = try #require(scene.root.sublayers?.first as? ReplicatorLayer)
    #expect(r.instanceCount == 5)
    #expect(r.instanceDelay == 0.25)
    #expect(r.instanceTransform == .makeTranslation(40, 0, 0))
    #expect(r.instanceColor == (try Color(parsing: "#ff0000")))
    #expect(r.instanceGreenOffset == 0.2 && r.instanceAlphaOffset == -0.1)
    #expect(r.preservesDepth)
    #expect(r.sublayers?.first?.name == "dot")
    let a = try #require(r.animation(forKey: "instanceTransform#0") as? BasicAnimation)
    #expect(a.toValue as? Transform3D == .makeTranslation(40, 0, 0), "instanceTransform animates as a transform")
}

@Test func replicatorCountMustBeWholeAndInRange() {
    let errors = sceneErrors("""
    {"version": "1.0", "layers": [{"id": "r", "type": "replicator", "instanceCount": 2.5},
                                  {"id": "s", "type": "replicator", "instanceCount": -1}]}
    """)
    #expect(errors.count == 2)
    #expect(errors.first?.contains("layers[0](\"r\").instanceCount: expected a whole number of instances, got 2.5") == true)
}

@Test func scrollLayerTakesItsModeAndScrolledBounds() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [
      {"id": "view", "type": "scroll", "bounds": [30, 40, 200, 200], "position": [100, 100], "scrollMode": "vertically",
       "sublayers": [{"id": "big", "frame": [0, 0, 800, 800]}]}]}
    """)
    let s = try #require(scene.root.sublayers?.first as? ScrollLayer)
    #expect(s.scrollMode == .vertically)
    #expect(s.bounds.origin == Point(x: 30, y: 40))
    #expect(s.masksToBounds, "a scroll layer clips by default, as in Swift")
    #expect(sceneErrors(#"{"version": "1.0", "layers": [{"type": "scroll", "scrollMode": "diagonal"}]}"#).count == 1)
}

@Test func emitterCellsAreBuiltWithDegreesAndSubCells() throws {
    let scene = try loadScene("""
    {"version": "1.0", "canvas": {"size": "400x300"}, "layers": [
      {"id": "fire", "type": "emitter", "frame": [0, 0, "100%", "100%"], "emitterPosition": ["50%", "50%"],
       "emitterShape": "circle", "emitterMode": "outline", "emitterSize": [20, 0], "renderMode": "additive", "seed": 7,
       "birthRate": 2,
       "emitterCells": [
         {"name": "spark", "birthRate": 150, "lifetime": 5, "velocity": 50, "velocityRange": 50, "emissionRange": 360,
          "emissionLongitude": -90, "color": [1, 0.5, 0.1, 1], "alphaSpeed": -0.4, "spin": "0.5turn",
          "emitterCells": [{"name": "smoke", "birthRate": 3, "lifetime": "=1 + 1"}]},
         {"name": "off", "when": "=false"}
       ],
       "animations": [{"type": "basic", "keyPath": "emitterCells.spark.birthRate", "from": 0, "to": 150, "duration": "1s"},
                      {"type": "basic", "keyPath": "emitterPosition", "to": ["25%", "50%"]}]}
    ]}
    """)
    let e = try #require(scene.root.sublayers?.first as? EmitterLayer)
    #expect(e.emitterPosition == Point(x: 200, y: 150))
    #expect(e.emitterShape == .circle && e.emitterMode == .outline && e.renderMode == .additive)
    #expect(e.seed == 7 && e.birthRate == 2 && e.emitterSize == Size(width: 20, height: 0))
    let cells = try #require(e.emitterCells)
    #expect(cells.count == 1, "a cell whose when is false is left out")
    let spark = cells[0]
    #expect(spark.name == "spark" && spark.birthRate == 150 && spark.lifetime == 5 && spark.velocityRange == 50)
    #expect(abs(spark.emissionRange - 2 * .pi) < 1e-12, "angles are degrees in the file")
    #expect(abs(spark.emissionLongitude + .pi / 2) < 1e-12)
    #expect(abs(spark.spin - .pi) < 1e-12)
    #expect(spark.alphaSpeed == -0.4)
    #expect(spark.color == Color(red: 1, green: 0.5, blue: 0.1, alpha: 1))
    #expect(spark.emitterCells?.first?.name == "smoke" && spark.emitterCells?.first?.lifetime == 2)
    let move = try #require(e.animation(forKey: "emitterPosition#1") as? BasicAnimation)
    #expect(move.toValue as? Point == Point(x: 100, y: 150), "emitterPosition animates as a point, % of the superlayer")
}

@Test func emitterCellMistakesAreReportedWithTheirPath() {
    let errors = sceneErrors("""
    {"version": "1.0", "layers": [{"id": "e", "type": "emitter", "emitterCells": [
      {"name": "spark", "birthrate": 10, "lifetime": -1, "contents": "nowhere.png"}]}]}
    """)
    #expect(errors.count == 3)
    #expect(errors.contains { $0.contains("layers[0](\"e\").emitterCells[0](\"spark\").birthrate: unknown key; did you mean \"birthRate\"?") })
    #expect(errors.contains { $0.contains("emitterCells[0](\"spark\").lifetime:") })
    #expect(errors.contains { $0.contains("emitterCells[0](\"spark\").contents: cannot open 'nowhere.png'") })
}

/// The subtitles layer at `t`: a snapshot lays its box out, as every frame does.
private func subtitles(_ scene: LoadedScene, at t: Double) throws -> SceneSubtitlesLayer {
    _ = scene.root.snapshot(at: t)
    return try #require(scene.root.sublayers?.last as? SceneSubtitlesLayer)
}

@Test func subtitlesFromAFileFollowTheCue() throws {
    let f = try SubtitleFixtures()
    defer { f.remove() }
    let scene = try loadScene("""
    {"version": "1.0", "canvas": {"size": "640x360"},
     "params": {"subs": {"type": "file"}},
     "layers": [{"id": "captions", "type": "subtitles", "file": "$subs",
       "anchorPoint": [0.5, 1], "position": ["50%", "=H - 20"], "size": ["80%", 0],
       "font": "DejaVu Sans", "fontSize": 24, "foregroundColor": "yellow", "alignmentMode": "center",
       "backgroundColor": "#000000a0", "cornerRadius": 8, "padding": [16, 8]}]}
    """, sets: [("subs", f.srt)])
    var s = try subtitles(scene, at: 0.2)
    #expect(s.box.isHidden, "hidden before the first cue")
    #expect(s.box.backgroundColor == (try Color(parsing: "#000000a0")), "the look keys style the box")
    #expect(s.box.cornerRadius == 8)
    #expect(s.backgroundColor == nil)
    let yellow = try Color(parsing: "yellow")
    #expect(s.text.fontSize == 24 && s.text.alignmentMode == .center && s.text.foregroundColor == yellow)
    s = try subtitles(scene, at: 0.7)
    #expect(!s.box.isHidden)
    #expect(s.text.string == .plain("First cue"), "markup is dropped")
    let oneLine = s.box.frame
    #expect(oneLine.width == 512 && oneLine.maxY == 0, "the box grows upwards from the bottom of the zero-height bounds")
    #expect(oneLine.height > 24 && oneLine.height < 24 * 2 + 16, "one line of text and the padding")
    #expect(s.text.frame.origin == Point(x: 16, y: 8) && s.text.frame.width == 480)
    s = try subtitles(scene, at: 1.2)
    #expect(s.text.string == .plain("Second cue"))
    s = try subtitles(scene, at: 1.5)
    #expect(s.box.isHidden, "a cue ends at its end time")
}

@Test func subtitlesFromAnInputStreamAndWithoutOne() throws {
    let f = try SubtitleFixtures()
    defer { f.remove() }
    let text = """
    {"version": "1.0", "params": {"video": {"type": "media", "position": 0}, "n": {"type": "integer", "default": 0}},
     "inputs": {"main": {"src": "$video"}},
     "layers": [{"id": "captions", "type": "subtitles", "input": "main", "stream": "$n", "size": ["100%", 0]}]}
    """
    let media = MediaAssetSceneMedia()
    let captioned = try loadScene(text, arguments: [f.movTextMP4], media: media)
    #expect(captioned.warnings.isEmpty)
    #expect(try subtitles(captioned, at: 0.75).text.string == .plain("First cue"))
    #expect(try subtitles(captioned, at: 0.25).box.isHidden)

    let plain = try loadScene(text, arguments: [f.greyMP4], media: media)
    #expect(plain.warnings.isEmpty, "a video without subtitles simply has no captions")
    #expect(try subtitles(plain, at: 0.75).box.isHidden)

    let wrongStream = try loadScene(text, arguments: [f.movTextMP4], sets: [("n", "3")], media: media)
    #expect(wrongStream.warnings.map(\.description).first?.contains("has 1 text subtitle stream(s), not stream 3") == true)
}

@Test func subtitlesNeedASource() {
    let errors = sceneErrors(#"{"version": "1.0", "layers": [{"id": "c", "type": "subtitles", "fontSize": 20}]}"#)
    #expect(errors == [#"t.json:1:31: layers[0]("c"): a subtitles layer needs "file" or "input""#])
    let badFile = sceneErrors(#"{"version": "1.0", "layers": [{"type": "subtitles", "file": "notes.txt"}]}"#)
    #expect(badFile.first?.contains("use a .srt, .ass, .ssa or .vtt file") == true)
}

@Test func subtitlesOfALoopingInputRepeatWithIt() {
    let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "",
                              cues: [SubtitleCue(start: 500, end: 1000, text: "Again", assEvent: "")])
    let looping = SceneSubtitlesLayer(track: track, loopDuration: 2)
    #expect(looping.cueText(at: 0.75) == "Again")
    #expect(looping.cueText(at: 2.75) == "Again", "the second time round")
    #expect(looping.cueText(at: 2.25) == nil)
    let once = SceneSubtitlesLayer(track: track)
    #expect(once.cueText(at: 2.75) == nil)
    #expect(SceneSubtitlesLayer(track: track, loopDuration: .nan).cueText(at: 2.75) == nil, "a NaN length does not loop")
}

@Test func beforeItsStartAMediumsCaptionsHoldThoseOfItsFirstFrame() {
    // The picture holds its first frame before media time 0 (a clip placed later on the timeline, a negative
    // `start`); the cue on that frame shows with it, looping or not.
    let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "",
                              cues: [SubtitleCue(start: 0, end: 800, text: "First", assEvent: "")])
    for layer in [SceneSubtitlesLayer(track: track, loopDuration: 2), SceneSubtitlesLayer(track: track)] {
        #expect(layer.cueText(at: -0.5) == "First")
        #expect(layer.cueText(at: 0.5) == "First" && layer.cueText(at: 1.5) == nil)
    }
}
