import Testing
@testable import LayerScene

// One test per error class of SCENES.md §7, each checking the exact line, column and key path.

@Test func syntaxErrorGivesTheJSONPosition() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [{"id": "a" "size": [1, 1]}]}
    """)
    #expect(errors == ["t.json:2:24: expected ',' or '}', got '\"'"])
}

@Test func unknownKeySuggestsTheNearestKey() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [
       {"id": "tile",
        "frmae": [0, 0, 10, 10]}]}
    """)
    #expect(errors == ["t.json:4:5: layers[0](\"tile\").frmae: unknown key; did you mean \"frame\"?"])
}

@Test func typeAndRangeErrorsSayWhatWasExpectedAndFound() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [{"id": "x"},
       {"id": "inset-frame", "animations": [
         {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1},
         {"type": "spring", "keyPath": "position.x", "damping": "soft"}]}]}
    """)
    #expect(errors == ["t.json:5:61: layers[1](\"inset-frame\").animations[1].damping: expected a number ≥ 0, got \"soft\""])
}

@Test func keyTimesMustMatchTheValues() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [{"id": "stage", "sublayers": [{"id": "cube", "animations": [
       {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0, 1, 0],
        "keyTimes": [0, 0.3, 0.6, 1]}]}]}]}
    """)
    #expect(errors == ["t.json:4:17: layers[0](\"stage\").sublayers[0](\"cube\").animations[0].keyTimes: expected 5 numbers (one per value) rising from 0 to 1, got 4"])
}

@Test func unopenableMediaNamesTheInput() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "inputs": {"main": {"src": "clip.mov"}},
     "layers": []}
    """, media: FakeMedia([:]))
    #expect(errors == ["t.json:2:29: inputs.main.src: cannot open 'clip.mov': No such file or directory"])
}

@Test func anInputThatFailedToOpenIsReportedOnceNotAgainWhereItIsUsed() {
    // One cause, one line: the layers, the subtitles, the `audio` key and the expressions that name the input
    // add nothing ("expected one of …" at each was the same missing file again).
    let errors = sceneErrors("""
    {"version": "1.0",
     "inputs": {"main": {"src": "clip.mov"}, "other": {"src": "b.mov"}},
     "audio": "main",
     "canvas": {"size": "=inputs.main.size"},
     "layers": [{"id": "v", "type": "media", "input": "main", "opacity": "=inputs.main.duration > 1 ? 1 : 0.5"},
                {"id": "c", "type": "subtitles", "input": "main"},
                {"id": "w", "type": "media", "input": "othr"}]}
    """, media: FakeMedia(["b.mov": .init(size: nil, duration: 1, fps: nil, hasAudio: true)]))
    // A misspelt id is still its own error: it names no input that exists or failed.
    #expect(errors == ["t.json:2:29: inputs.main.src: cannot open 'clip.mov': No such file or directory",
                       "t.json:7:51: layers[2](\"w\").input: expected one of other, got \"othr\"; did you mean \"other\"?"])
}

@Test func referencesToUndeclaredNamesAndDuplicateIDs() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "params": {"accent": {"type": "color", "default": "red"}},
     "layers": [{"id": "a", "backgroundColor": "$acent"},
                {"id": "a"}]}
    """)
    #expect(errors == [
        "t.json:3:44: layers[0](\"a\").backgroundColor: \"$acent\" names no param or let; did you mean \"$accent\"?",
        "t.json:4:20: layers[1](\"a\").id: duplicate id \"a\"",
    ])
}

@Test func consistencyErrors() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [{"id": "a", "frame": [0, 0, 1, 1], "position": [0, 0],
                 "animations": [{"type": "keyframe", "keyPath": "opacity", "path": "M0 0 L1 1"},
                                {"type": "transition", "duration": 1}]}]}
    """)
    #expect(errors == [
        "t.json:2:34: layers[0](\"a\").frame: \"frame\" sets size and position: remove \"position\" or \"frame\"",
        "t.json:3:80: layers[0](\"a\").animations[0].path: a path animates a point; \"opacity\" is not a point",
        "t.json:4:38: layers[0](\"a\").animations[1].type: a transition needs a model change, which a file cannot make: put it in a switch layer's cuts",
    ])
}

@Test func expressionErrorsPointIntoTheString() {
    let errors = sceneErrors("""
    {"version": "1.0",
     "layers": [{"id": "a", "opacity": "=min(1, W * scal)"}]}
    """)
    #expect(errors == ["t.json:2:49: layers[0](\"a\").opacity: unknown name 'scal'"])
}

@Test func versionsAreCheckedFirst() {
    #expect(sceneErrors("{\"version\": \"2.0\", \"layers\": []}")
        == ["t.json:1:13: version: scene format 2.0 needs a newer layerplay; this one reads 1.x"])
    #expect(sceneErrors("{\"layers\": []}") == ["t.json:1:1: version: missing the required key \"version\" (write \"version\": \"1.0\")"])
    #expect(sceneErrors("{\"version\": \"1.3\", \"layers\": [], \"audioMix\": 1}")
        == ["t.json:1:34: audioMix: unknown key (added after scene format 1.0?)"])
}

@Test func requiredParamsAndBadCommandLineValues() {
    let scene = """
    {"version": "1.0",
     "params": {"clip": {"type": "media", "required": true, "position": 0},
                "scale": {"type": "number", "default": 0.3, "min": 0.1, "max": 0.9}},
     "layers": []}
    """
    #expect(sceneErrors(scene) == ["t.json:2:13: params.clip: required param has no value (give it as argument 1 or with --set clip=…)"])
    #expect(sceneErrors(scene, arguments: ["a.mp4"], sets: [("scale", "2")])
        == ["t.json:3:22: params.scale: expected a number from 0.1 to 0.9, got 2"])
    #expect(sceneErrors(scene, arguments: ["a.mp4"], sets: [("scael", "0.5")])
        == ["t.json:2:12: params: --set scael: the scene declares no such param; did you mean \"scale\"? (it has: clip, scale)"])
    // scene check: a required param without a value is fine.
    #expect(throws: Never.self) { try loadScene(scene, checkOnly: true) }
}

@Test func checkWithoutRequiredValuesChecksTheRestByType() throws {
    let scene = """
    {"version": "1.0",
     "params": {"clip": {"type": "media", "required": true, "position": 0}},
     "let": {"ih": "=W / inputs.main.aspect"},
     "inputs": {"main": {"src": "$clip"}},
     "audio": "main",
     "layers": [{"id": "v", "type": "media", "input": "main", "size": [100, "$ih"]},
                {"id": "x", "opacity": "=W * nope"}]}
    """
    do throws(SceneErrors) { _ = try loadScene(scene, media: FakeMedia([:]), checkOnly: true); Issue.record("expected an error") } catch {
        #expect(error.diagnostics.map(\.description) == ["t.json:7:42: layers[1](\"x\").opacity: unknown name 'nope'"])
    }
}
