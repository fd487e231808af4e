import LayerGraphics
import LayerKit

// Chapters 7 and 8 of the book (implicit and explicit animations), one frame each: the listings' trees, hosted
// and changed as the listings change them, drawn at a time inside the animation.

/// A layer that draws with a closure (the book's views draw in `drawRect:`; a delegate would need an object).
final class DrawnLayer: Layer {
    let drawing: @Sendable (DrawingContext, Rect) -> Void
    init(_ drawing: @escaping @Sendable (DrawingContext, Rect) -> Void) {
        self.drawing = drawing
        super.init()
    }
    override func draw(in context: DrawingContext) { drawing(context, bounds) }
}

/// Listing 7.2's idea: a colour change in a transaction of 1 s, shown half-way (the default curve, not linear).
let implicitColourFigure = Figure(name: "7-implicit-colour", title: "Listing 7.2: a layer's colour changed in a 1 s CATransaction, at 0.5 s",
                                  width: 160, height: 160, time: 0.5) { _ in
    let screen = Layer()
    screen.backgroundColor = .white
    let colorLayer = Layer()
    colorLayer.frame = Rect(x: 30, y: 30, width: 100, height: 100)
    colorLayer.backgroundColor = .blue
    screen.addSublayer(colorLayer)
    _ = screen.snapshot(at: 0) // on screen: changes from now on animate
    Transaction.begin()
    Transaction.animationDuration = 1
    colorLayer.backgroundColor = .red
    Transaction.commit()
    _ = screen.snapshot(at: 0) // the frame that shows the change first (it began at 0, the frame last built)
    return screen
}

/// The cubic Bézier of listing 8.4 (scaled to the figure) and the ship's outline.
private func shipPath() -> Path {
    var p = Path()
    p.move(to: Point(x: 0, y: 150))
    p.addCurve(to: Point(x: 240, y: 150), control1: Point(x: 60, y: 0), control2: Point(x: 180, y: 300))
    return p
}

private func addCurveAndShip(to screen: Layer) -> Layer {
    let curve = DrawnLayer { context, _ in
        context.setStrokeColor(.red)
        context.setLineWidth(3)
        context.addPath(shipPath())
        context.strokePath()
    }
    curve.frame = Rect(x: 0, y: 0, width: 240, height: 240)
    curve.setNeedsDisplay()
    screen.addSublayer(curve)
    let ship = DrawnLayer { context, b in
        var hull = Path()
        hull.move(to: Point(x: b.minX, y: b.minY))
        hull.addLine(to: Point(x: b.maxX, y: b.midY))
        hull.addLine(to: Point(x: b.minX, y: b.maxY))
        hull.closeSubpath()
        context.setFillColor(Color(red: 0.1, green: 0.2, blue: 0.5))
        context.addPath(hull)
        context.fillPath()
    }
    ship.frame = Rect(x: 0, y: 0, width: 40, height: 24)
    ship.position = Point(x: 0, y: 150)
    ship.setNeedsDisplay()
    screen.addSublayer(ship)
    return ship
}

/// Listing 8.5: a ship moved along the Bézier in 4 s, turned to the tangent (`rotationMode = .auto`), at 1.3 s.
let shipAlongPathFigure = Figure(name: "8-ship-along-path", title: "Listing 8.5: CAKeyframeAnimation along a Bézier with rotationMode auto, at 1.3 s",
                                 width: 240, height: 240, time: 1.3) { _ in
    let screen = Layer()
    screen.backgroundColor = .white
    let ship = addCurveAndShip(to: screen)
    let animation = KeyframeAnimation(keyPath: "position")
    animation.duration = 4
    animation.path = shipPath()
    animation.rotationMode = .auto
    ship.add(animation, forKey: nil)
    return screen
}

/// Listing 8.6's group: the ship's path and a colour change of its background together, at 2.6 s of 4.
let animationGroupFigure = Figure(name: "8-animation-group", title: "Listing 8.6: CAAnimationGroup of a keyframe path and a colour change, at 2.6 s",
                                  width: 240, height: 240, time: 2.6) { _ in
    let screen = Layer()
    screen.backgroundColor = .white
    let ship = addCurveAndShip(to: screen)
    ship.backgroundColor = .green
    let move = KeyframeAnimation(keyPath: "position")
    move.path = shipPath()
    move.rotationMode = .auto
    let colour = BasicAnimation(keyPath: "backgroundColor")
    colour.toValue = Color.red
    let group = AnimationGroup()
    group.animations = [move, colour]
    group.duration = 4
    ship.add(group, forKey: nil)
    return screen
}

/// A spring (CASpringAnimation, iOS 9, after the book), as a filmstrip: the same drop at 0.1 s steps, left to right.
let springFigure = Figure(name: "8-spring", title: "CASpringAnimation (damping 5): one drop at 0.1 s steps, left to right",
                          width: 240, height: 160) { _ in
    let screen = Layer()
    screen.backgroundColor = .white
    for frame in 0..<12 {
        let ball = Layer()
        ball.frame = Rect(x: 4 + Double(frame) * 19.5, y: 0, width: 16, height: 16)
        ball.cornerRadius = 8
        ball.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1)
        let drop = SpringAnimation(keyPath: "position.y")
        drop.fromValue = 20.0
        drop.toValue = 110.0
        drop.damping = 5
        drop.duration = drop.settlingDuration
        drop.fillMode = .both
        drop.isRemovedOnCompletion = false
        drop.timeOffset = Double(frame) * 0.1 // frame k shows the drop at k · 0.1 s
        ball.add(drop, forKey: "drop")
        screen.addSublayer(ball)
    }
    let floor = Layer()
    floor.frame = Rect(x: 0, y: 118, width: 240, height: 1)
    floor.backgroundColor = Color(white: 0.6)
    screen.addSublayer(floor)
    return screen
}

/// Chapter 8's CATransition: one picture pushed out by another from the right in 1 s, at 0.4 s.
let pushTransitionFigure = Figure(name: "8-push-transition", title: "CATransition push from the right between two pictures, at 0.4 s of 1 s",
                                  width: 160, height: 160, time: 0.4) { _ in
    func picture(_ draw: (DrawingContext) -> Void) -> Image {
        let context = DrawingContext(size: Size(width: 120, height: 120), scale: 1)
        draw(context)
        return context.makeImage()
    }
    let screen = Layer()
    screen.backgroundColor = .white
    let imageView = Layer()
    imageView.frame = Rect(x: 20, y: 20, width: 120, height: 120)
    imageView.contents = .image(picture { ctx in
        ctx.setFillColor(Color(red: 0.2, green: 0.5, blue: 0.9)); ctx.fill(Rect(x: 0, y: 0, width: 120, height: 120))
        ctx.setFillColor(.white); ctx.fillEllipse(in: Rect(x: 25, y: 25, width: 70, height: 70))
    })
    imageView.borderWidth = 2
    imageView.borderColor = Color(white: 0.2)
    screen.addSublayer(imageView)
    _ = screen.snapshot(at: 0)
    Transaction.begin()
    let transition = Transition()
    transition.type = .push
    transition.subtype = .fromRight
    transition.duration = 1
    imageView.add(transition, forKey: nil)
    imageView.contents = .image(picture { ctx in
        ctx.setFillColor(Color(red: 0.95, green: 0.6, blue: 0.1)); ctx.fill(Rect(x: 0, y: 0, width: 120, height: 120))
        ctx.setFillColor(.white); ctx.fill(Rect(x: 30, y: 30, width: 60, height: 60))
    })
    Transaction.commit()
    _ = screen.snapshot(at: 0) // the first frame that shows the change (it began at 0, the frame last built)
    return screen
}
