// Listings 6.6 and 6.7 of "iOS Core Animation: Advanced Techniques", line by line in LayerKit: a red-to-blue
// diagonal gradient, and red, yellow and green crowded into the top-left by `locations` (0, 0.25, 0.5). Both
// are drawn side by side into one picture.
//
//   swift run GradientLayer [OUT.png]      (default: out/gradient-layer.png)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

final class ViewController {
    /// The book's `containerView`: a white 200×200 view (placed by Interface Builder in the book).
    let containerView = Layer()

    init() {
        containerView.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        containerView.backgroundColor = .white
    }

    /// Listing 6.6.
    func simpleGradient() {
        // create gradient layer and add it to our container view
        let gradientLayer = GradientLayer()
        gradientLayer.frame = containerView.bounds
        containerView.addSublayer(gradientLayer)
        // set gradient colors
        gradientLayer.colors = [.red, .blue]
        // set gradient start and end points
        gradientLayer.startPoint = Point(x: 0, y: 0)
        gradientLayer.endPoint = Point(x: 1, y: 1)
    }

    /// Listing 6.7.
    func gradientWithLocations() {
        // create gradient layer and add it to our container view
        let gradientLayer = GradientLayer()
        gradientLayer.frame = containerView.bounds
        containerView.addSublayer(gradientLayer)
        // set gradient colors
        gradientLayer.colors = [.red, Color(red: 1, green: 1, blue: 0), Color(red: 0, green: 1, blue: 0)]
        // set locations
        gradientLayer.locations = [0.0, 0.25, 0.5]
        // set gradient start and end points
        gradientLayer.startPoint = Point(x: 0, y: 0)
        gradientLayer.endPoint = Point(x: 1, y: 1)
    }
}

let output = CommandLine.arguments.dropFirst().first ?? "out/gradient-layer.png"
do {
    let first = ViewController(), second = ViewController()
    first.simpleGradient()
    second.gradientWithLocations()
    // The screen: the two container views side by side on light grey.
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 460, height: 240)
    root.backgroundColor = Color(white: 0.85)
    first.containerView.position = Point(x: 120, y: 120)
    second.containerView.position = Point(x: 340, y: 120)
    root.addSublayer(first.containerView)
    root.addSublayer(second.containerView)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Compositor().render(root.snapshot(), width: 460, height: 240).writePNG(to: output)
    print("wrote \(output)")
} catch {
    FileHandle.standardError.write(Data("GradientLayer: error: \(error)\n".utf8))
    exit(1)
}
