// Listing 6.1 and the rounded-corner listing of "iOS Core Animation: Advanced Techniques" (section 6.1) in LayerKit:
// a stick figure stroked by a ShapeLayer added to a container with no frame, and a rect with three rounded corners
// (top-left square), side by side on one picture.
//
//   swift run ShapeLayer [OUT.png]     (default: out/shape-layer.png)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

final class ViewController {
    let view = Layer()
    let containerView = Layer()
    let cornersView = Layer()

    func viewDidLoad() {
        view.frame = Rect(x: 0, y: 0, width: 460, height: 260)
        view.backgroundColor = Color(white: 0.9)
        containerView.frame = Rect(x: 10, y: 10, width: 240, height: 240)
        containerView.backgroundColor = .white
        cornersView.frame = Rect(x: 260, y: 30, width: 200, height: 200)
        cornersView.backgroundColor = .white
        view.addSublayer(containerView)
        view.addSublayer(cornersView)
        addStickFigure()
        addRoundedCorners()
    }

    /// Listing 6.1.
    func addStickFigure() {
        // create path
        var path = Path()
        path.move(to: Point(x: 175, y: 100))
        path.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        path.move(to: Point(x: 150, y: 125))
        path.addLine(to: Point(x: 150, y: 175))
        path.addLine(to: Point(x: 125, y: 225))
        path.move(to: Point(x: 150, y: 175))
        path.addLine(to: Point(x: 175, y: 225))
        path.move(to: Point(x: 100, y: 150))
        path.addLine(to: Point(x: 200, y: 150))
        // create shape layer
        let shapeLayer = ShapeLayer()
        shapeLayer.strokeColor = .red
        shapeLayer.fillColor = .clear
        shapeLayer.lineWidth = 5
        shapeLayer.lineJoin = .round
        shapeLayer.lineCap = .round
        shapeLayer.path = path
        // add it to our view
        containerView.addSublayer(shapeLayer)
    }

    /// The rounded-corner listing: three corners rounded, the top-left square.
    func addRoundedCorners() {
        // define path parameters
        let rect = Rect(x: 50, y: 50, width: 100, height: 100)
        let radii = Size(width: 20, height: 20)
        let corners: RectCorner = [.topRight, .bottomRight, .bottomLeft]
        // create path
        let path = Path(roundedRect: rect, byRoundingCorners: corners, cornerRadii: radii)
        let shapeLayer = ShapeLayer()
        shapeLayer.fillColor = Color(red: 0.2, green: 0.45, blue: 0.85)
        shapeLayer.path = path
        cornersView.addSublayer(shapeLayer)
    }
}

let output = CommandLine.arguments.dropFirst().first ?? "out/shape-layer.png"
do {
    let controller = ViewController()
    controller.viewDidLoad()
    let directory = (output as NSString).deletingLastPathComponent
    if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    try Compositor().render(controller.view.snapshot(), width: 460, height: 260).writePNG(to: output)
    print("wrote \(output)")
} catch {
    FileHandle.standardError.write(Data("ShapeLayer: error: \(error)\n".utf8))
    exit(1)
}
