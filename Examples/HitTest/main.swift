// Listings 3.4 and 3.5 of "iOS Core Animation: Advanced Techniques" in LayerKit: which layer did a touch
// land on? First with convert + contains (3.4), then with hitTest (3.5); both must agree.
//
//   swift run HitTest            (prints one line per touch)
import Foundation
import LayerGraphics
import LayerKit

final class ViewController {
    /// The book's `self.view` (the screen) and `layerView` (a white 200×200 view in it).
    let view = Layer()
    let layerView = Layer()
    let blueLayer = Layer()

    func viewDidLoad() {
        view.frame = Rect(x: 0, y: 0, width: 320, height: 480)
        layerView.frame = Rect(x: 60, y: 140, width: 200, height: 200)
        layerView.backgroundColor = .white
        view.addSublayer(layerView)
        // create sublayer
        blueLayer.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        blueLayer.backgroundColor = .blue
        // add it to our view
        layerView.addSublayer(blueLayer)
    }

    /// Listing 3.4: convert the touch into each layer's coordinates and ask `contains`.
    func touchWithContains(_ touch: Point) -> String? {
        // convert point to the white layer's coordinates
        guard var point = layerView.convert(touch, from: view) else { return nil }
        // get layer using containsPoint:
        guard layerView.contains(point) else { return nil }
        // convert point to blueLayer's coordinates
        point = blueLayer.convert(point, from: layerView) ?? point
        return blueLayer.contains(point) ? "Inside Blue Layer" : "Inside White Layer"
    }

    /// Listing 3.5: `hitTest` finds the deepest layer itself (the point is in the superlayer's coordinates).
    func touchWithHitTest(_ touch: Point) -> String? {
        let layer = layerView.hitTest(touch)
        if layer === blueLayer { return "Inside Blue Layer" }
        if layer === layerView { return "Inside White Layer" }
        return nil
    }
}

let controller = ViewController()
controller.viewDidLoad()
var disagreements = 0
for touch in [Point(x: 160, y: 240), Point(x: 70, y: 150), Point(x: 259, y: 339), Point(x: 10, y: 10), Point(x: 110, y: 190)] {
    let a = controller.touchWithContains(touch), b = controller.touchWithHitTest(touch)
    if a != b { disagreements += 1 }
    print("touch at (\(Int(touch.x)), \(Int(touch.y))): \(a ?? "outside") / hitTest: \(b ?? "outside")")
}
if disagreements > 0 {
    FileHandle.standardError.write(Data("HitTest: error: contains and hitTest disagreed \(disagreements) times\n".utf8))
    exit(1)
}
