// Listing 6.13 of "iOS Core Animation: Advanced Techniques", line by line in LayerKit: a fire of additive orange
// sparks bursting from the middle of a black view. Writes a few frames (0.5 s apart) to PNG files; each is computed
// from its time alone, so the frames are the same on every run and in any order.
//
//   swift run Emitter [SPARK.png] [OUT_DIRECTORY]      (defaults: media/spark.png, out)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

final class ViewController {
    /// The book's `containerView`: a black 240×240 view.
    let containerView = Layer()

    init() {
        containerView.frame = Rect(x: 0, y: 0, width: 240, height: 240)
        containerView.backgroundColor = .black
    }

    /// Listing 6.13's `viewDidLoad`.
    func viewDidLoad(spark: Image) {
        // create particle emitter layer
        let emitter = EmitterLayer()
        emitter.frame = containerView.bounds
        containerView.addSublayer(emitter)
        // configure emitter
        emitter.renderMode = .additive
        emitter.emitterPosition = Point(x: emitter.frame.width / 2.0, y: emitter.frame.height / 2.0)
        // create a particle template
        let cell = EmitterCell()
        cell.contents = spark
        cell.birthRate = 150
        cell.lifetime = 5.0
        cell.color = Color(red: 1, green: 0.5, blue: 0.1, alpha: 1.0)
        cell.alphaSpeed = -0.4
        cell.velocity = 50
        cell.velocityRange = 50
        cell.emissionRange = .pi * 2.0
        // add particle template to emitter
        emitter.emitterCells = [cell]
    }
}

let arguments = CommandLine.arguments.dropFirst()
let sparkPath = arguments.first ?? "media/spark.png"
let directory = arguments.dropFirst().first ?? "out"
do {
    let controller = ViewController()
    controller.viewDidLoad(spark: try PNG.read(path: sparkPath))
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let compositor = Compositor()
    for (i, time) in [0.5, 1.0, 2.0, 4.0].enumerated() {
        let path = "\(directory)/example-emitter-\(i).png"
        try compositor.render(controller.containerView.snapshot(at: time), width: 240, height: 240).writePNG(to: path)
        print("wrote \(path) (t = \(time) s)")
    }
} catch {
    FileHandle.standardError.write(Data("Emitter: error: \(error)\n".utf8))
    exit(1)
}
