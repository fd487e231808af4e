// The animation listings of chapters 7 and 8 of "iOS Core Animation: Advanced Techniques" in LayerKit, rendered by a
// `ManualHost` at the times of our choosing (a window or an export does the same on its own clock):
//   - listing 7.2: a colour changed inside a 1 s transaction animates implicitly;
//   - listing 8.5: a ship moved along a Bézier path, turned to face along it (`rotationMode = .auto`);
//   - a spring (CASpringAnimation) and listing 8.6's group of a path and a colour change;
//   - a push transition (CATransition) from one image to another.
// Each writes a few frames side by side into one PNG.
//
//   swift run Animations [OUT_DIRECTORY]     (default: out/)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

let outputDirectory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "out"
try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
let compositor = Compositor()

/// Renders `root` (size × size) at each time and writes the frames side by side.
func filmstrip(_ name: String, _ host: ManualHost, size: Int, times: [Double]) throws {
    let strip = Surface(width: size * times.count, height: size)
    for (i, t) in times.enumerated() {
        let frame = compositor.render(host.snapshot(at: t), width: size, height: size)
        for y in 0..<size {
            (strip.pixels + y * strip.width + i * size).update(from: frame.pixels + y * size, count: size)
        }
    }
    let path = "\(outputDirectory)/example-animations-\(name).png"
    try strip.writePNG(to: path)
    print("wrote \(path): \(times.map { String(format: "%.2f s", $0) }.joined(separator: ", "))")
}

/// A square canvas.
func screen(_ size: Double) -> Layer {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: size, height: size)
    root.position = Point(x: size / 2, y: size / 2)
    root.backgroundColor = .white
    return root
}

// Listing 7.2: "begin a new transaction, set the animation duration to 1 second, randomize the layer background
// color, commit the transaction". The layer is on screen (hosted) first; the change then animates by itself.
do {
    let root = screen(120)
    let colorLayer = Layer()
    colorLayer.frame = Rect(x: 10, y: 10, width: 100, height: 100)
    colorLayer.backgroundColor = .blue
    root.addSublayer(colorLayer)
    let host = ManualHost(root: root)
    _ = host.snapshot(at: 0)
    Transaction.begin()
    Transaction.animationDuration = 1.0
    colorLayer.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1)
    Transaction.commit()
    try filmstrip("implicit-colour", host, size: 120, times: [0, 0.25, 0.5, 0.75, 1])
}

/// A layer that draws a path (the book's views draw in `drawRect:`): stroked red for the curve, filled for the ship.
final class PathLayer: Layer {
    let path: Path, filled: Bool
    init(_ path: Path, filled: Bool) {
        self.path = path
        self.filled = filled
        super.init()
        setNeedsDisplay() // drawn once, at the first snapshot
    }
    override func draw(in ctx: DrawingContext) {
        ctx.addPath(path)
        if filled { ctx.setFillColor(Color(red: 0.1, green: 0.2, blue: 0.5)); ctx.fillPath() }
        else { ctx.setStrokeColor(.red); ctx.setLineWidth(3); ctx.strokePath() }
    }
}

/// The Bézier of listing 8.5, drawn as the book draws it, under a ship that will follow it.
func curveAndShip(_ root: Layer, path: Path) -> Layer {
    let curve = PathLayer(path, filled: false)
    curve.frame = root.bounds
    var hull = Path()
    hull.move(to: Point(x: 0, y: 0)); hull.addLine(to: Point(x: 32, y: 10)); hull.addLine(to: Point(x: 0, y: 20))
    hull.closeSubpath()
    let ship = PathLayer(hull, filled: true)
    ship.frame = Rect(x: 0, y: 0, width: 32, height: 20)
    root.addSublayer(curve)
    root.addSublayer(ship)
    return ship
}

var bezier = Path()
bezier.move(to: Point(x: 0, y: 100))
bezier.addCurve(to: Point(x: 200, y: 100), control1: Point(x: 50, y: 0), control2: Point(x: 150, y: 200))

// Listing 8.5: a CAKeyframeAnimation with the path, 4 s, rotationMode auto.
do {
    let root = screen(200)
    let ship = curveAndShip(root, path: bezier)
    let animation = KeyframeAnimation(keyPath: "position")
    animation.duration = 4.0
    animation.path = bezier
    animation.rotationMode = .auto
    ship.add(animation, forKey: nil)
    try filmstrip("ship", ManualHost(root: root), size: 200, times: [0.4, 1.2, 2, 2.8, 3.6])
}

// Listing 8.6: the same path and a colour change as one CAAnimationGroup of 4 s.
do {
    let root = screen(200)
    let ship = curveAndShip(root, path: bezier)
    ship.backgroundColor = .green
    let move = KeyframeAnimation(keyPath: "position")
    move.path = bezier
    move.rotationMode = .auto
    let colour = BasicAnimation(keyPath: "backgroundColor")
    colour.toValue = Color.red
    let group = AnimationGroup()
    group.animations = [move, colour]
    group.duration = 4.0
    ship.add(group, forKey: nil)
    try filmstrip("group", ManualHost(root: root), size: 200, times: [0.4, 1.2, 2, 2.8, 3.6])
}

// A spring drop (CASpringAnimation, after the book): damping 5, run until it settles.
do {
    let root = screen(120)
    let ball = Layer()
    ball.frame = Rect(x: 50, y: 10, width: 20, height: 20)
    ball.cornerRadius = 10
    ball.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1)
    root.addSublayer(ball)
    let host = ManualHost(root: root)
    _ = host.snapshot(at: 0)
    let drop = SpringAnimation(keyPath: "position.y")
    drop.fromValue = 20.0
    drop.toValue = 70.0
    drop.damping = 5
    drop.duration = drop.settlingDuration
    // The model takes the final value at once (no implicit animation); the spring shows the way there.
    Transaction.withoutActions { ball.position.y = 70 }
    ball.add(drop, forKey: "drop")
    try filmstrip("spring", host, size: 120, times: [0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2])
}

// Chapter 8's CATransition listing: one image pushed out by another, from the right, in 1 s. The old picture is
// what the layer showed last; the transition is added in the same transaction as the change of contents.
func picture(_ draw: (DrawingContext) -> Void) -> Image {
    let context = DrawingContext(size: Size(width: 100, height: 100), scale: 1)
    draw(context)
    return context.makeImage()
}
do {
    let root = screen(120)
    let imageView = Layer()
    imageView.frame = Rect(x: 10, y: 10, width: 100, height: 100)
    imageView.contents = .image(picture { ctx in
        ctx.setFillColor(Color(red: 0.2, green: 0.5, blue: 0.9)); ctx.fill(Rect(x: 0, y: 0, width: 100, height: 100))
        ctx.setFillColor(.white); ctx.fillEllipse(in: Rect(x: 20, y: 20, width: 60, height: 60))
    })
    root.addSublayer(imageView)
    let host = ManualHost(root: root)
    _ = host.snapshot(at: 0)
    Transaction.begin()
    let transition = Transition()
    transition.type = .push
    transition.subtype = .fromRight
    transition.duration = 1.0
    imageView.add(transition, forKey: nil)
    imageView.contents = .image(picture { ctx in
        ctx.setFillColor(Color(red: 0.95, green: 0.6, blue: 0.1)); ctx.fill(Rect(x: 0, y: 0, width: 100, height: 100))
        ctx.setFillColor(.white); ctx.fill(Rect(x: 25, y: 25, width: 50, height: 50))
    })
    Transaction.commit()
    try filmstrip("push", host, size: 120, times: [0, 0.25, 0.5, 0.75, 1])
}
