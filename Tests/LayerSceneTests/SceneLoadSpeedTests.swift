import Foundation
import LayerKit
import Testing
@testable import LayerScene

/// Issue 19's load speed figure: a 200-layer scene, generated here with `repeat` and expressions, loaded and
/// checked. Prints the time (the figure for the note); asserts only that the tree is what the file says, since a
/// shared machine's timing proves nothing.
@Test func aTwoHundredLayerSceneLoadsAndChecks() throws {
    // 20 rows × 9 cells (with an animation each) + 20 rows, = 200 layers.
    let text = """
    {"version": "1.0",
     "params": {"gap": {"type": "number", "default": 4, "min": 0}, "tint": {"type": "color", "default": "#3080ff"},
                "period": {"type": "time", "default": "3s"}},
     "let": {"rowH": "=(H - 21 * gap) / 20", "cellW": "=(W - 10 * gap) / 9"},
     "canvas": {"size": "1920x1080", "background": "#101018"},
     "layers": [{
       "id": "row", "repeat": {"count": 20, "as": "r"},
       "frame": ["=gap", "=gap + r * (rowH + gap)", "=W - 2 * gap", "$rowH"],
       "backgroundColor": "=alpha(tint, 0.1 + (r % 5) / 10)", "cornerRadius": "=min(8, rowH / 4)",
       "sublayers": [{
         "id": "cell-${r}", "repeat": {"count": 9, "as": "c"},
         "frame": ["=c * (cellW + gap)", 0, "$cellW", "100%"],
         "backgroundColor": "=c % 2 == 0 ? tint : alpha(tint, 0.5)", "borderWidth": "=c == 4 ? 2 : 0", "borderColor": "white",
         "transform": [{"rotateZ": "=(r * 9 + c) % 7 - 3"}, {"scale": "=0.9 + (c % 3) / 20"}],
         "animations": [{"key": "pulse", "type": "basic", "keyPath": "opacity", "from": 1, "to": "=0.4 + (c % 4) / 10",
                         "duration": "=period / 2 + c / 10", "autoreverses": true, "repeatCount": "infinity",
                         "beginTime": "=(r + c) * 0.05", "timingFunction": "easeInEaseOut"}]
       }]
     }]}
    """
    let options = SceneLoadOptions(file: "speed.json", directory: "/scenes")
    var check = options
    check.checkOnly = true
    // One warm-up, then the best of five for each (the figure is a machine's best, as benchmarks report).
    _ = try SceneLoader.load(text: text, options: options)
    var load = Double.infinity, checked = Double.infinity
    var scene: LoadedScene?
    for _ in 0..<5 {
        var t0 = DispatchTime.now().uptimeNanoseconds
        scene = try SceneLoader.load(text: text, options: options)
        load = min(load, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        t0 = DispatchTime.now().uptimeNanoseconds
        _ = try SceneLoader.load(text: text, options: check)
        checked = min(checked, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    let rows = try #require(scene?.root.sublayers)
    let cells = rows.flatMap { $0.sublayers ?? [] }
    #expect(rows.count == 20 && cells.count == 180)
    #expect(cells[13].name == "cell-1-4" && cells[13].borderWidth == 2 && cells[13].animation(forKey: "pulse") != nil)
    print(String(format: "scene load speed: 200 layers (%d bytes): load %.2f ms, scene check %.2f ms (best of 5, release)", text.utf8.count, load, checked))
}
