import LayerGraphics
import LayerKit

/// Listing 6.13's emitter in a 128-point container (the book's view controller's view): additive or unordered.
/// `Spark.png` is media/spark.png, a 32² soft white dot (its command is in media/README.md).
func fireEmitter(in containerView: Layer, renderMode: EmitterLayer.RenderMode, spark: Image) {
    // create particle emitter layer
    let emitter = EmitterLayer()
    emitter.frame = containerView.bounds
    containerView.addSublayer(emitter)
    // configure emitter
    emitter.renderMode = renderMode
    emitter.emitterPosition = Point(x: emitter.frame.width / 2, y: emitter.frame.height / 2)
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

/// Figures 6.13 and 6.14 side by side, at 2 s with seed 0: listing 6.13's fire, additive (left: the centre burns
/// white where hundreds of orange sparks add up) and unordered (right: the same sparks painted over each other, dimmer).
let fireFigure = Figure(name: "6.13-fire", title: "Listing 6.13: a CAEmitterLayer fire, additive (6.13) and unordered (6.14), at 2 s",
                        width: 256, height: 128, time: 2) { mediaDirectory in
    let spark = try PNG.read(path: mediaDirectory + "/spark.png")
    let screen = Layer()
    screen.backgroundColor = .black
    for (i, mode) in [EmitterLayer.RenderMode.additive, .unordered].enumerated() {
        let containerView = Layer()
        containerView.frame = Rect(x: Double(i) * 128, y: 0, width: 128, height: 128)
        containerView.masksToBounds = true
        screen.addSublayer(containerView)
        fireEmitter(in: containerView, renderMode: mode, spark: spark)
    }
    return screen
}
