import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport
@testable import LayerScene

/// A 160×90 canvas with a switch of three full-size colour cards (red, blue, green) and the given cuts.
private func switchScene(_ cuts: String, extra: String = "") -> String {
    """
    {"version": "1.0", "canvas": {"size": "160x90", "background": "black"},
     "layers": [{"id": "cam", "type": "switch", "frame": [0, 0, "100%", "100%"], \(extra)
                 "sublayers": [{"id": "red", "frame": [0, 0, "100%", "100%"], "backgroundColor": "red"},
                               {"id": "blue", "frame": [0, 0, "100%", "100%"], "backgroundColor": "blue"},
                               {"id": "green", "frame": [0, 0, "100%", "100%"], "backgroundColor": "#00ff00"}],
                 "cuts": \(cuts)}]}
    """
}

/// The switch's children as the snapshot at `t` shows them: (id, hidden, opacity, position).
private func cards(_ scene: LoadedScene, at t: Double) -> [String: LayerSnapshot] {
    let s = scene.root.snapshot(at: t)
    var out: [String: LayerSnapshot] = [:]
    for c in s.sublayers[0].sublayers { out[c.name ?? ""] = c }
    return out
}

private func visible(_ scene: LoadedScene, at t: Double) -> [String] {
    cards(scene, at: t).filter { !$0.value.isHidden }.keys.sorted()
}

@Test func aSwitchShowsOneSublayerAtATimeAsAPureFunctionOfTime() throws {
    let scene = try loadScene(switchScene("""
    [{"at": "2s", "show": "blue"}, {"at": 5, "show": "green"}, {"at": 7, "show": "red"}]
    """))
    #expect(visible(scene, at: 0) == ["red"], "the first sublayer before the first cut")
    #expect(visible(scene, at: 1.999) == ["red"])
    #expect(visible(scene, at: 2) == ["blue"])
    #expect(visible(scene, at: 6) == ["green"])
    #expect(visible(scene, at: 7) == ["red"])
    #expect(visible(scene, at: 100) == ["red"])
    // Seeking backwards (an export seek) shows the cut of that time again.
    #expect(visible(scene, at: 3) == ["blue"])
}

@Test func aFadeShowsBothLiveWithTheUpperOneFading() throws {
    let scene = try loadScene(switchScene("""
    [{"at": 1, "show": "blue", "transition": {"type": "fade", "duration": "2s"}},
     {"at": 4, "show": "red", "transition": {"type": "fade", "duration": 1}}]
    """))
    #expect(visible(scene, at: 0.5) == ["red"])
    var c = cards(scene, at: 2)
    #expect(visible(scene, at: 2) == ["blue", "red"])
    #expect(c["blue"]!.opacity == 0.5 && c["red"]!.opacity == 1, "blue is above red: it fades in over it")
    #expect(visible(scene, at: 3) == ["blue"] && cards(scene, at: 3)["blue"]!.opacity == 1)
    c = cards(scene, at: 4.25)
    #expect(c["blue"]!.opacity == 0.75 && c["red"]!.opacity == 1, "back to red, which is below: blue fades out over it")
    #expect(visible(scene, at: 5) == ["red"])
}

@Test func pushMovesBothAndClipsWhileItRuns() throws {
    let scene = try loadScene(switchScene("""
    [{"at": 1, "show": "blue", "transition": {"type": "push", "subtype": "fromRight", "duration": 1}},
     {"at": 3, "show": "red", "transition": {"type": "moveIn", "subtype": "fromTop", "duration": 1, "timingFunction": "linear"}},
     {"at": 5, "show": "green", "transition": {"type": "reveal", "subtype": "fromBottom", "duration": 1}}]
    """))
    var c = cards(scene, at: 1.25)
    #expect(c["blue"]!.position == Point(x: 80 + 120, y: 45) && c["red"]!.position == Point(x: 80 - 40, y: 45))
    #expect(scene.root.snapshot(at: 1.25).sublayers[0].masksToBounds)
    #expect(!scene.root.snapshot(at: 2.5).sublayers[0].masksToBounds, "clipped only while it moves")
    #expect(cards(scene, at: 2.5)["blue"]!.position == Point(x: 80, y: 45))
    // moveIn from the top: red (below blue in sibling order) comes down over the still blue, lifted above it.
    c = cards(scene, at: 3.5)
    #expect(c["red"]!.position == Point(x: 80, y: 45 - 45) && c["blue"]!.position == Point(x: 80, y: 45))
    #expect(c["red"]!.zPosition == 1 && c["blue"]!.zPosition == 0)
    #expect(cards(scene, at: 4.5)["red"]!.zPosition == 0)
    // reveal from the bottom: red slides away upwards over green, which stands still.
    c = cards(scene, at: 5.5)
    #expect(c["red"]!.position == Point(x: 80, y: 45 - 45) && c["green"]!.position == Point(x: 80, y: 45))
    #expect(c["red"]!.zPosition == 1)
}

@Test func cutsFallOnTheSwitchClockWhateverTheSublayersOwnTiming() throws {
    // Blue is a clip placed at 10 s on the timeline, running at double speed: its cut still happens at 2 s.
    let scene = try loadScene("""
    {"version": "1.0", "canvas": {"size": "160x90"},
     "layers": [{"id": "cam", "type": "switch", "size": [160, 90],
                 "sublayers": [{"id": "red"}, {"id": "blue", "beginTime": 10, "speed": 2, "timeOffset": 1}],
                 "cuts": [{"at": 2, "show": "blue", "transition": {"type": "fade", "duration": 2}}]}]}
    """)
    #expect(visible(scene, at: 1.9) == ["red"])
    #expect(visible(scene, at: 2.1) == ["blue", "red"])
    #expect(abs(cards(scene, at: 3)["blue"]!.opacity - 0.5) < 1e-9)
    #expect(visible(scene, at: 4) == ["blue"])
}

@Test func switchMistakesAreReportedWithTheirPlace() {
    #expect(sceneErrors(switchScene("""
    [{"at": 1, "show": "bleu"}, {"at": 2, "show": "green", "transition": {"type": "push", "duration": 2}},
     {"at": 3, "show": "red"}, {"at": 5, "show": "red", "transition": {"type": "dissolve"}}, {"show": "red"}]
    """)) == [
        "t.json:6:41: layers[0](\"cam\").cuts[0].show: expected the id of one of the switch's sublayers (red, blue, green), got \"bleu\"; did you mean \"blue\"?",
        "t.json:7:9: layers[0](\"cam\").cuts[2].at: expected a time at or after 4 (the previous cut and its transition), got 3",
        "t.json:7:76: layers[0](\"cam\").cuts[3].transition.type: expected one of fade, moveIn, push, reveal, got \"dissolve\"",
        "t.json:7:90: layers[0](\"cam\").cuts[4]: missing \"at\" (when the cut happens)",
    ])
    #expect(sceneErrors("{\"version\": \"1.0\", \"layers\": [{\"id\": \"x\", \"transition\": {\"type\": \"fade\"}}]}") == [
        "t.json:1:43: layers[0](\"x\").transition: a transition belongs in a switch layer's cuts: {\"type\": \"switch\", \"cuts\": [{\"at\": …, \"show\": …, \"transition\": {…}}]}",
    ])
}

// MARK: - Goldens

/// The scene rendered at `t` (160×90, one thread: the same pixels on every machine).
private func render(_ scene: LoadedScene, at t: Double) -> Surface {
    Compositor(threads: 1).render(scene.root.snapshot(at: t), width: 160, height: 90)
}

/// Two cards with a pattern each (so that motion shows): an orange card with a white disc, a navy one with a bar.
private let goldenScene = """
{"version": "1.0", "canvas": {"size": "160x90", "background": "black"},
 "layers": [{"id": "cam", "type": "switch", "frame": [0, 0, "100%", "100%"],
             "sublayers": [
               {"id": "a", "frame": [0, 0, "100%", "100%"], "backgroundColor": "#e07020",
                "sublayers": [{"size": [40, 40], "position": [50, 45], "cornerRadius": 20, "backgroundColor": "white"}]},
               {"id": "b", "frame": [0, 0, "100%", "100%"], "backgroundColor": "#203070",
                "sublayers": [{"frame": [100, 15, 20, 60], "backgroundColor": "#f0e040"}]}],
             "cuts": [{"at": 1, "show": "b", "transition": {"type": "fade", "duration": 2}},
                      {"at": 4, "show": "a", "transition": {"type": "push", "subtype": "fromRight", "duration": 2}}]}]}
"""

@Test func fadeAndPushGoldensMidWay() throws {
    let scene = try loadScene(goldenScene)
    let tolerance = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
    // Mid-fade: half orange, half navy (exact for opaque cards).
    if let m = GoldenImage.compare(render(scene, at: 2), area: "switch", name: "fade-midway", tolerance: tolerance) { Issue.record(Comment(rawValue: m)) }
    // Mid-push from the right: the navy card half gone to the left, the orange one half in from the right.
    if let m = GoldenImage.compare(render(scene, at: 5), area: "switch", name: "push-midway", tolerance: tolerance) { Issue.record(Comment(rawValue: m)) }
    // The cross-fade's arithmetic on one pixel: (1 − p)·old + p·new at p = 0.5.
    let px = render(scene, at: 2).pixel(x: 5, y: 5)
    #expect(abs(Int(px.r) - (0xe0 + 0x20) / 2) <= 2 && abs(Int(px.b) - (0x20 + 0x70) / 2) <= 2)
}
