import LayerGraphics
import LayerKit

/// Figure 6.1: listing 6.1, a stick figure stroked by a CAShapeLayer added to a white container view with no frame
/// (its path is in the container's space).
let stickFigureFigure = Figure(name: "6.1-stick-figure", title: "Listing 6.1: a stick figure drawn by a ShapeLayer (red stroke, clear fill, width 5, round joins and caps)",
                               width: 240, height: 240) { _ in
    let containerView = Layer()
    containerView.backgroundColor = .white
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
    return containerView
}

/// Section 6.1, "Rounded corners": a rect (50, 50, 100, 100) with three corners rounded by radii 20 (the top-left
/// square), drawn by a ShapeLayer in its default black fill on a white view.
let roundedCornersFigure = Figure(name: "6.x-rounded-corners", title: "A ShapeLayer path rounding three corners of a rect: top-right, bottom-right, bottom-left",
                                  width: 200, height: 200) { _ in
    let view = Layer()
    view.backgroundColor = .white
    // define path parameters
    let rect = Rect(x: 50, y: 50, width: 100, height: 100)
    let radii = Size(width: 20, height: 20)
    let corners: RectCorner = [.topRight, .bottomRight, .bottomLeft]
    // create path
    let path = Path(roundedRect: rect, byRoundingCorners: corners, cornerRadii: radii)
    let shapeLayer = ShapeLayer()
    shapeLayer.path = path
    view.addSublayer(shapeLayer)
    return view
}

/// The same section's other use: a ShapeLayer as a view's mask, its two top corners rounded by radii as large as the
/// view (clamped to half its size), so the top is a half ellipse and the bottom stays square. The default black fill
/// makes the inside opaque; no colours are needed.
let roundedCornersMaskFigure = Figure(name: "6.x-rounded-corners-mask", title: "A ShapeLayer as a mask: a snowman card whose two top corners are rounded by radii the size of the card",
                                      width: 200, height: 200) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.85)
    let card = Layer()
    card.frame = Rect(x: 40, y: 30, width: 120, height: 140)
    card.backgroundColor = Color(red: 0.25, green: 0.5, blue: 0.85)
    card.contents = .image(Art.snowman)
    card.contentsGravity = .resizeAspect
    screen.addSublayer(card)
    let mask = ShapeLayer()
    mask.frame = card.bounds
    mask.path = Path(roundedRect: card.bounds, byRoundingCorners: [.topLeft, .topRight], cornerRadii: card.frame.size)
    card.mask = mask
    return screen
}
