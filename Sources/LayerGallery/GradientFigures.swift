import LayerGraphics
import LayerKit

/// The container view of chapter 6's gradient listings: a white 200-point view centred on a light grey screen
/// (placed by Interface Builder in the book), and the screen.
private func gradientContainer() -> (screen: Layer, containerView: Layer) {
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.85)
    let containerView = Layer()
    containerView.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
    containerView.position = Point(x: 120, y: 120)
    containerView.backgroundColor = .white
    screen.addSublayer(containerView)
    return (screen, containerView)
}

/// Figure 6.6: listing 6.6, a red-to-blue gradient along the diagonal from the top-left to the bottom-right corner.
let diagonalGradientFigure = Figure(name: "6.6-diagonal-gradient", title: "Listing 6.6: a CAGradientLayer from red to blue, (0, 0) to (1, 1)",
                                    width: 240, height: 240) { _ in
    let (screen, containerView) = gradientContainer()
    // create gradient layer and add it to our container view
    let gradientLayer = GradientLayer()
    gradientLayer.frame = containerView.bounds
    containerView.addSublayer(gradientLayer)
    // set gradient colors
    gradientLayer.colors = [.red, .blue]
    // set gradient start and end points
    gradientLayer.startPoint = Point(x: 0, y: 0)
    gradientLayer.endPoint = Point(x: 1, y: 1)
    return screen
}

/// Figure 6.7: listing 6.7, red, yellow and green at locations 0, 0.25 and 0.5 on the same diagonal: the colours
/// crowd the top-left corner and the lower-right half is solid green.
let gradientLocationsFigure = Figure(name: "6.7-gradient-locations", title: "Listing 6.7: red, yellow and green at locations 0, 0.25 and 0.5",
                                     width: 240, height: 240) { _ in
    let (screen, containerView) = gradientContainer()
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
    return screen
}
