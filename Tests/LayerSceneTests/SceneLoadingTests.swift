import LayerGraphics
import LayerKit
import Testing
@testable import LayerScene

@Test func percentagesParamsAndLetsBuildTheGeometry() throws {
    let scene = try loadScene("""
    {"version": "1.0",
     "params": {"margin": {"type": "number", "default": 40}, "accent": {"type": "color", "default": "#d7263d"}},
     "let": {"iw": "=W * 0.25"},
     "canvas": {"size": "1000x500", "background": "#101018"},
     "layers": [
       {"id": "frame", "frame": ["10%", "=H - margin - 100", "$iw", 100], "backgroundColor": "$accent",
        "sublayers": [{"id": "inner", "size": ["50%", "50%"], "position": ["50%", "50%"], "opacity": "=w / 500"}]}
     ]}
    """, sets: [("margin", "20")])
    #expect(scene.canvasSize == Size(width: 1000, height: 500))
    #expect(scene.root.backgroundColor == (try Color(parsing: "#101018")))
    let frame = try #require(scene.root.sublayers?.first)
    #expect(frame.name == "frame")
    #expect(frame.frame == Rect(x: 100, y: 380, width: 250, height: 100))
    #expect(frame.backgroundColor == (try Color(parsing: "#d7263d")))
    let inner = try #require(frame.sublayers?.first)
    #expect(inner.bounds.size == Size(width: 125, height: 50))
    #expect(inner.position == Point(x: 125, y: 50))
    #expect(inner.opacity == 0.5, "w is the superlayer's width")
}

@Test func repeatAndWhenMakeCopiesOrNone() throws {
    let scene = try loadScene("""
    {"version": "1.0",
     "params": {"shadow": {"type": "shadow"}},
     "layers": [
       {"id": "tile", "repeat": {"count": 3, "as": "k"}, "frame": ["=k * 10", 0, 10, 10]},
       {"id": "never", "when": "=defined(shadow)"},
       {"id": "always", "when": "=!defined(shadow)", "shadowRadius": "=defined(shadow) ? shadow.radius : 3"}
     ]}
    """)
    let names = scene.root.sublayers?.map(\.name)
    #expect(names == ["tile-0", "tile-1", "tile-2", "always"])
    #expect(scene.root.sublayers?[2].frame.origin.x == 20)
}

@Test func transformListsApplyFirstToLast() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [
      {"id": "a", "transform": [{"rotateY": 30}, {"perspective": 500}]},
      {"id": "b", "transform": {"rotation.y": 90, "scale": 0.5, "translation": [10, 0]}}]}
    """)
    let a = try #require(scene.root.sublayers?[0])
    let expected = Transform3D.makeRotation(30 * .pi / 180, 0, 1, 0).concatenating(.makePerspective(distance: 500))
    #expect(a.transform == expected)
    let b = try #require(scene.root.sublayers?[1])
    let e2 = Transform3D.makeScale(0.5, 0.5, 0.5).concatenating(.makeRotation(.pi / 2, 0, 1, 0)).concatenating(.makeTranslation(10, 0, 0))
    #expect(b.transform == e2)
}

@Test func keysCompileToKeyTimesWithHoldsAndEases() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [{"id": "a", "animations": [
      {"key": "slide", "type": "keyframe", "keyPath": "transform.translation.x", "beginTime": "2s",
       "keys": [{"t": 0, "v": -100, "ease": "easeOut"}, {"t": "500ms", "v": 0, "hold": true}, {"t": "2s", "v": 50}]}]}]}
    """)
    let layer = try #require(scene.root.sublayers?.first)
    let a = try #require(layer.animation(forKey: "slide") as? KeyframeAnimation)
    #expect(a.duration == 2)
    #expect(a.beginTime == 2)
    #expect(a.keyTimes == [0, 0.25, 1, 1])
    #expect(a.values?.map(\.animationValue) == [.number(-100), .number(0), .number(0), .number(50)])
    #expect(a.timingFunctions?.count == 3)
    #expect(a.timingFunctions?.first == TimingFunction(name: .easeOut))
    #expect(a.isRemovedOnCompletion == false, "files default removedOnCompletion to false")
}

@Test func anglesAreDegreesAndTimesTakeUnits() throws {
    #expect(SceneUnits.time("1:02.5", fps: 30) == 62.5)
    #expect(SceneUnits.time("01:02:03.5", fps: 30) == 3723.5)
    #expect(SceneUnits.time("48f", fps: 24) == 2)
    #expect(SceneUnits.time("250ms", fps: 30) == 0.25)
    #expect(SceneUnits.time("1:75", fps: 30) == nil)
    #expect(SceneUnits.degrees("0.25turn") == 90)
    let scene = try loadScene("""
    {"version": "1.0", "layers": [{"id": "a", "animations": [
      {"key": "spin", "type": "basic", "keyPath": "transform.rotation.z", "from": 0, "to": "0.5turn", "duration": "24f"}]}]}
    """)
    let a = try #require(scene.root.sublayers?.first?.animation(forKey: "spin") as? BasicAnimation)
    #expect(a.toValue?.animationValue == .number(.pi))
    #expect(a.duration == 0.8)
}

@Test func drawnLayerTypesGetTheirKeys() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [
      {"type": "shape", "path": "M0 0 L10 0 L10 10 Z", "fillColor": "none", "strokeColor": "white", "lineWidth": 2},
      {"type": "text", "string": "Hi", "font": "Sans Bold", "fontSize": 20, "alignmentMode": "center"},
      {"type": "gradient", "kind": "radial", "colors": ["red", "=alpha('red', 0)"], "locations": [0, 1]},
      {"type": "transform"}]}
    """)
    let s = try #require(scene.root.sublayers?[0] as? ShapeLayer)
    #expect(s.fillColor == nil && s.strokeColor == .white && s.lineWidth == 2 && s.path?.isEmpty == false)
    #expect(s.name == "shape-1")
    let t = try #require(scene.root.sublayers?[1] as? TextLayer)
    #expect(t.string == .plain("Hi") && t.font == "Sans Bold" && t.alignmentMode == .center)
    let g = try #require(scene.root.sublayers?[2] as? GradientLayer)
    #expect(g.type == .radial && g.colors == [.red, Color(red: 1, green: 0, blue: 0, alpha: 0)])
    #expect(scene.root.sublayers?[3] is TransformLayer)
}

@Test func mediaInputsAreProbedForExpressions() throws {
    let media = FakeMedia(["inset.mp4": SceneMediaInfo(size: Size(width: 640, height: 360), duration: 5, fps: 25, hasAudio: true)])
    let scene = try loadScene("""
    {"version": "1.0",
     "params": {"inset": {"type": "media", "required": true, "position": 0}},
     "inputs": {"inset": {"src": "$inset", "loop": true}},
     "layers": [{"id": "v", "type": "media", "input": "inset", "size": ["=W / 2", "=W / 2 / inputs.inset.aspect"],
                 "videoGravity": "resizeAspectFill"}]}
    """, arguments: ["inset.mp4"], media: media)
    #expect(scene.canvasSize == Size(width: 640, height: 360), "the first video input's size")
    #expect(scene.fps == 25)
    #expect(scene.audioInput == "inset")
    let v = try #require(scene.root.sublayers?.first)
    #expect(v.bounds.size == Size(width: 320, height: 180))
    #expect(v.contentsGravity == .resizeAspectFill)
    #expect(scene.inputs.first?.loop == true)
    #expect(scene.duration == nil, "a looping input gives no end")
    let held = try loadScene("""
    {"version": "1.0", "inputs": {"a": {"src": "inset.mp4"}}, "layers": []}
    """, media: media)
    #expect(held.duration == 5, "the latest end of an input that does not loop")
}

@Test func showAndSpringSettleCompile() throws {
    let scene = try loadScene("""
    {"version": "1.0", "layers": [{"id": "a", "show": ["1s", "3s"], "animations": [
      {"key": "in", "type": "spring", "keyPath": "position.x", "from": 0, "to": 100, "damping": 14, "duration": "settle"},
      {"key": "both", "type": "group", "duration": 2, "animations": [{"type": "basic", "keyPath": "opacity", "to": 0}]}]}]}
    """)
    let layer = try #require(scene.root.sublayers?.first)
    let show = try #require(layer.animation(forKey: "show") as? KeyframeAnimation)
    #expect(show.keyTimes == [0, 1.0 / 3, 1] && show.calculationMode == .discrete && show.duration == 3)
    let spring = try #require(layer.animation(forKey: "in") as? SpringAnimation)
    #expect(spring.duration == spring.settlingDuration && spring.duration > 0)
    let group = try #require(layer.animation(forKey: "both") as? AnimationGroup)
    #expect(group.animations?.count == 1 && group.duration == 2)
    #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [{\"show\": [\"3s\", \"1s\"]}]}")
        == ["t.json:1:40: layers[0].show: expected until after from, got [3, 1]"])
}

@Test func mediaInPointsAreRead() throws {
    let media = FakeMedia(["a.mp4": SceneMediaInfo(size: Size(width: 64, height: 48), duration: 5, fps: 25, hasAudio: false)])
    let scene = try loadScene("""
    {"version": "1.0", "inputs": {"m": {"src": "a.mp4", "start": "2s"}}, "layers": []}
    """, media: media)
    // Applied by the media (`Player.timeOffset`, SceneInputTests), so nothing to warn about.
    #expect(scene.warnings.isEmpty && scene.inputs.first?.start == 2)
}
