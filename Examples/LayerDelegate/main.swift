// Listing 2.5 of "iOS Core Animation: Advanced Techniques", line by line in LayerKit: a blue layer whose
// delegate draws a thick red circle into its backing store (CALayerDelegate's drawLayer:inContext:).
//
//   swift run LayerDelegate [OUT.png]      (default: out/layer-delegate.png)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

final class ViewController: LayerDelegate {
    /// The book's `layerView`: a white 200×200 view whose layer hosts ours.
    let layerView = Layer()

    func viewDidLoad() {
        layerView.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        layerView.backgroundColor = .white

        // create sublayer
        let blueLayer = Layer()
        blueLayer.frame = Rect(x: 50, y: 50, width: 100, height: 100)
        blueLayer.backgroundColor = .blue
        // set controller as layer delegate
        blueLayer.delegate = self
        // ensure that layer backing image uses correct scale (a 2× screen)
        blueLayer.contentsScale = 2
        // add layer to our view
        layerView.addSublayer(blueLayer)
        // force layer to redraw
        blueLayer.display()
    }

    func draw(_ layer: Layer, in ctx: DrawingContext) {
        // draw a thick red circle
        ctx.setLineWidth(10)
        ctx.setStrokeColor(.red)
        ctx.strokeEllipse(in: layer.bounds)
    }
}

let output = CommandLine.arguments.dropFirst().first ?? "out/layer-delegate.png"
do {
    let controller = ViewController()
    controller.viewDidLoad()
    // The screen is 2×: render the tree at twice its size, as the device would.
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 600, height: 600)
    root.sublayerTransform = .makeScale(2, 2, 1)
    root.backgroundColor = Color(white: 0.85) // the screen around the white view
    root.addSublayer(controller.layerView)
    controller.layerView.position = Point(x: 300, y: 300) // centred (the sublayer scale acts about the root's centre)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Compositor().render(root.snapshot(), width: 600, height: 600).writePNG(to: output)
    print("wrote \(output)")
} catch {
    FileHandle.standardError.write(Data("LayerDelegate: error: \(error)\n".utf8))
    exit(1)
}
