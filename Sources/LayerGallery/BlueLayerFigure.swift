import LayerGraphics
import LayerKit

/// Figure 1.5: listing 1.1, a blue sublayer added to the layer of a white 200-point view on a light grey screen.
let blueLayerFigure = Figure(name: "1.5-blue-layer", title: "Listing 1.1: a blue CALayer (50, 50, 100, 100) added to a white view's layer",
                             width: 240, height: 240) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.85)
    let layerView = Layer() // the white view of figure 1.3, centred by Interface Builder in the book
    layerView.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
    layerView.position = Point(x: 120, y: 120)
    layerView.backgroundColor = .white
    screen.addSublayer(layerView)
    // create sublayer
    let blueLayer = Layer()
    blueLayer.frame = Rect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
    blueLayer.backgroundColor = .blue
    // add it to our view
    layerView.addSublayer(blueLayer)
    return screen
}
