import Foundation
import Testing
@testable import LayerScene

/// Every error class of SCENES.md §7, one test each, each checking the exact line, column and key path of the
/// whole message. Positions are 1-based; a column counts characters.
@Suite("Scene error classes (SCENES.md §7)")
struct SceneErrorClassTests {
    @Test func syntax() {
        // The JSON position of the offending character; no key path.
        #expect(sceneErrors("{\"version\": \"1.0\",\n \"layers\": [{\"id\": \"a\",, }]}")
            == ["t.json:2:24: expected a key in double quotes or '}', got ','"])
        #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [\n  {\"id\": \"a\"}") == ["t.json:2:14: expected ',' or ']', got the end of the file"])
    }

    @Test func unknownKeyWithDidYouMean() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "card", "sublayers": [{"id": "inner",
           "cornerRaduis": 4}]}]}
        """) == ["t.json:3:4: layers[0](\"card\").sublayers[0](\"inner\").cornerRaduis: unknown key; did you mean \"cornerRadius\"?"])
    }

    @Test func wrongType() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "masksToBounds": "yes"}]}
        """) == ["t.json:2:42: layers[0](\"a\").masksToBounds: expected true or false, got \"yes\""])
    }

    @Test func range() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "shadowOpacity": 1.5}]}
        """) == ["t.json:2:42: layers[0](\"a\").shadowOpacity: expected a number from 0 to 1, got 1.5"])
    }

    @Test func missingInput() {
        // A file that cannot be opened, and an input id that names no input.
        #expect(sceneErrors("""
        {"version": "1.0",
         "inputs": {"main": {"src": "clip.mov"}},
         "layers": []}
        """, media: FakeMedia([:])) == ["t.json:2:29: inputs.main.src: cannot open 'clip.mov': No such file or directory"])
        #expect(sceneErrors("""
        {"version": "1.0",
         "inputs": {"main": {"src": "clip.mov"}},
         "layers": [{"id": "v", "type": "media", "input": "mian"}]}
        """, media: FakeMedia(["clip.mov": .init(size: nil, duration: 1, fps: nil, hasAudio: true)]))
            == ["t.json:3:51: layers[0](\"v\").input: expected one of main, got \"mian\"; did you mean \"main\"?"])
    }

    @Test func cycleOfIncludes() throws {
        let folder = try SceneFolder([
            "show.json": "{\"version\": \"1.0\",\n \"layers\": [{\"id\": \"lower\", \"type\": \"scene\", \"src\": \"parts/lower.json\"}]}",
            "parts/lower.json": "{\"version\": \"1.0\",\n \"layers\": [\n  {\"type\": \"scene\", \"src\": \"../show.json\"}]}",
        ])
        #expect(folder.errors("show.json") == [
            "parts/lower.json:3:28: layers[0].src: include cycle: show.json → parts/lower.json → parts/../show.json (included from show.json:2:53)",
        ])
    }

    @Test func badExpressionPointsIntoTheString() {
        // The string starts at column 36, its `=` at 37; column 44 is the second `*`, where a value was expected.
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "opacity": "=0.5 * * W"}]}
        """) == ["t.json:2:44: layers[0](\"a\").opacity: expected a value, got '*'"])
    }

    @Test func duplicateID() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "tile"},
                    {"id": "tile"}]}
        """) == ["t.json:3:20: layers[1](\"tile\").id: duplicate id \"tile\""])
    }

    @Test func frameWithPosition() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "frame": [0, 0, 10, 10], "position": [5, 5]}]}
        """) == ["t.json:2:34: layers[0](\"a\").frame: \"frame\" sets size and position: remove \"position\" or \"frame\""])
    }

    @Test func keyTimesCount() {
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "animations": [
           {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 1]}]}]}
        """) == ["t.json:3:80: layers[0](\"a\").animations[0].keyTimes: expected 3 numbers (one per value) rising from 0 to 1, got 2"])
    }

    @Test func transitionOutsideSwitch() {
        // On a layer, and as an animation type.
        #expect(sceneErrors("""
        {"version": "1.0",
         "layers": [{"id": "a", "transition": {"type": "fade"}},
                    {"id": "b", "animations": [{"type": "transition"}]}]}
        """) == [
            "t.json:2:25: layers[0](\"a\").transition: a transition belongs in a switch layer's cuts: {\"type\": \"switch\", \"cuts\": [{\"at\": …, \"show\": …, \"transition\": {…}}]}",
            "t.json:3:49: layers[1](\"b\").animations[0].type: a transition needs a model change, which a file cannot make: put it in a switch layer's cuts",
        ])
    }

    @Test func higherMajorVersion() {
        #expect(sceneErrors("{\n  \"version\": \"2.1\", \"layers\": []}")
            == ["t.json:2:14: version: scene format 2.1 needs a newer layerplay; this one reads 1.x"])
    }

    @Test func unknownNameAndErrorsInsideIncludes() throws {
        #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [{\"opacity\": \"$fade\"}]}")
            == ["t.json:1:43: layers[0].opacity: \"$fade\" names no param or let"])
        let folder = try SceneFolder([
            "news.json": "{\"version\": \"1.0\",\n \"layers\": [{\"type\": \"scene\", \"src\": \"lower.json\"}]}",
            "lower.json": "{\"version\": \"1.0\",\n \"layers\": [{\"id\": \"x\", \"size\": [10]}]}",
        ])
        #expect(folder.errors("news.json")
            == ["lower.json:2:33: layers[0](\"x\").size: expected a size, got a list of 1 (included from news.json:2:38)"])
    }
}
