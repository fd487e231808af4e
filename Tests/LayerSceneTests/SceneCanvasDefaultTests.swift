import Foundation
import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

// The canvas takes the first video input's size and rate (SCENES.md §3); an inline `src` on a media layer is an
// input too, found in document order before the canvas is read.

private func media() -> FakeMedia { FakeMedia([
    "sound.m4a": SceneMediaInfo(size: nil, duration: 9, fps: nil, hasAudio: true),
    "a.mp4": SceneMediaInfo(size: Size(width: 640, height: 360), duration: 5, fps: 60, hasAudio: false),
    "b.mp4": SceneMediaInfo(size: Size(width: 320, height: 240), duration: 5, fps: 25, hasAudio: false),
]) }

@Test func inlineSourcesSetTheCanvasDefaults() throws {
    // The wall's form: a repeated tile whose src is an expression of the params and `i`.
    let wall = try loadScene("""
    {"version": "1.0", "params": {"videos": {"type": "list:media", "required": true, "position": 0}},
     "layers": [{"id": "tile", "repeat": {"count": 2}, "type": "media", "src": "=videos[i % len(videos)]", "loop": true,
                 "frame": [0, 0, 10, 10]}]}
    """, arguments: ["a.mp4"], media: media())
    #expect(wall.canvasSize == Size(width: 640, height: 360))
    #expect(wall.fps == 60)

    // Document order, depth first: the nested inline input before a later top-level one; an audio-only input
    // and a layer left out by `when` do not count; `%` sizes see the defaulted canvas.
    let nested = try loadScene("""
    {"version": "1.0",
     "layers": [{"type": "media", "src": "sound.m4a"},
                {"type": "media", "src": "a.mp4", "when": "=1 > 2"},
                {"id": "group", "sublayers": [{"type": "media", "src": "b.mp4", "size": ["=W / 2", "=H / 2"]}]},
                {"type": "media", "src": "a.mp4"}]}
    """, media: media())
    #expect(nested.canvasSize == Size(width: 320, height: 240))
    #expect(nested.fps == 25)
    let inner = try #require(nested.root.sublayers?.first { $0.name == "group" }?.sublayers?.first)
    #expect(inner.bounds.size == Size(width: 160, height: 120))

    // Declared inputs come first; an explicit canvas wins over both.
    let declared = try loadScene("""
    {"version": "1.0", "inputs": {"b": {"src": "b.mp4"}},
     "layers": [{"type": "media", "src": "a.mp4"}, {"type": "media", "input": "b"}]}
    """, media: media())
    #expect(declared.canvasSize == Size(width: 320, height: 240) && declared.fps == 25)
    let explicit = try loadScene("""
    {"version": "1.0", "canvas": {"size": "100x50", "fps": 24}, "layers": [{"type": "media", "src": "a.mp4"}]}
    """, media: media())
    #expect(explicit.canvasSize == Size(width: 100, height: 50) && explicit.fps == 24)

    // A src read from a `let` counts when the let does not depend on the canvas; one that does (it reads `W`)
    // cannot size the canvas it depends on and is skipped, as is a src that reads `W` itself.
    let fromLet = try loadScene("""
    {"version": "1.0", "params": {"videos": {"type": "list:media", "required": true, "position": 0}},
     "let": {"second": "=videos[1]", "wide": "=W > 400"},
     "layers": [{"type": "media", "src": "=wide ? videos[0] : videos[1]"}, {"type": "media", "src": "=second"}]}
    """, arguments: ["a.mp4,b.mp4"], media: media())
    #expect(fromLet.canvasSize == Size(width: 320, height: 240) && fromLet.fps == 25)

    // No video anywhere: 1280x720 at 30; a missing inline file is still reported once, at its layer.
    #expect(try loadScene(#"{"version": "1.0", "layers": [{"type": "media", "src": "sound.m4a"}]}"#, media: media()).fps == 30)
    let errors = sceneErrors(#"{"version": "1.0", "layers": [{"type": "media", "src": "gone.mp4"}]}"#, media: media())
    #expect(errors.count == 1 && errors[0].contains("cannot open"))
}

@Test func aLoopingInputsSoundWrapsAtItsDuration() throws {
    // The hosts place the audio input's sound by its `start` and wrap it where its picture wraps: its duration.
    let scene = try loadScene("""
    {"version": "1.0", "inputs": {"s": {"src": "sound.m4a", "loop": true, "start": -2}, "a": {"src": "a.mp4"}},
     "layers": [{"type": "media", "input": "a"}]}
    """, media: media())
    #expect(scene.audio?.id == "s" && scene.audio?.start == -2 && scene.audio?.loopLength == 9)
    #expect(scene.inputs.first { $0.id == "a" }?.loopLength == nil, "a clip that does not loop plays its sound once")
}
