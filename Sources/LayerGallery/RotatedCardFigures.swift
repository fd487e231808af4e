import LayerGraphics
import LayerKit

/// Figure 5.8: listing 5.4, the snowman view turned 45° about y with no perspective: it only looks narrower.
let rotatedCardFigure = Figure(name: "5.8-rotate-y", title: "Listing 5.4: a layer turned 45° about the y axis without perspective looks merely narrower",
                               width: 200, height: 160) { _ in
    let view = SnowmanView()
    // rotate the layer 45 degrees along the Y axis
    let transform = Transform3D.makeRotation(.pi / 4, 0, 1, 0)
    view.layerView.transform = transform
    return view.layer
}

/// Figure 5.10: listing 5.5, the same turn with `m34 = -1/500`: the far (right) edge is shorter.
let perspectiveCardFigure = Figure(name: "5.10-perspective", title: "Listing 5.5: the same turn with perspective (m34 = -1/500): the far edge is shorter",
                                   width: 200, height: 160) { _ in
    let view = SnowmanView()
    // create a new transform
    var transform = Transform3D.identity
    // apply perspective
    transform.m34 = -1.0 / 500.0
    // rotate by 45 degrees along the Y axis
    transform = transform.rotated(by: .pi / 4, x: 0, y: 1, z: 0)
    // apply to layer
    view.layerView.transform = transform
    return view.layer
}

/// The book's screen for listings 5.4 and 5.5: one image view with the snowman, centred.
struct SnowmanView {
    let layer = Layer()
    let layerView = Layer()

    init(side: Double = 120, center: Point = Point(x: 100, y: 80)) {
        layer.backgroundColor = Color(white: 0.85)
        layerView.bounds = Rect(x: 0, y: 0, width: side, height: side)
        layerView.position = center
        layerView.contents = .image(Art.snowman)
        layer.addSublayer(layerView)
    }
}
