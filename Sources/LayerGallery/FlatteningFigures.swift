import LayerGraphics
import LayerKit

/// Figure 5.16: listing 5.7, an outer view turned 45° about z holding an inner view turned −45°: in 2D the
/// turns cancel and the inner square is upright again.
let flatteningInZFigure = Figure(name: "5.16-opposite-z", title: "Listing 5.7: outer layer turned 45° about z, inner −45°: in 2D the inner square is upright again",
                                 width: 200, height: 200) { _ in
    let view = NestedViews()
    // rotate the outer layer 45 degrees
    let outer = Transform3D.makeRotation(.pi / 4, 0, 0, 1)
    view.outerView.transform = outer
    // rotate the inner layer -45 degrees
    let inner = Transform3D.makeRotation(-.pi / 4, 0, 0, 1)
    view.innerView.transform = inner
    return view.layer
}

/// Figure 5.18: listing 5.8, the same about y with perspective on each layer: the turns do not cancel. The
/// outer layer flattens the inner one into its own plane before it turns, so the inner square is still
/// turned and distorted, not upright (figure 5.17 is what one might expect; 5.18 is what Core Animation shows).
let flatteningInYFigure = Figure(name: "5.18-opposite-y", title: "Listing 5.8: outer layer turned 45° about y, inner −45°, each with perspective: flattened, the inner square does not come back upright",
                                 width: 200, height: 200) { _ in
    let view = NestedViews()
    // rotate the outer layer 45 degrees
    var outer = Transform3D.identity
    outer.m34 = -1.0 / 500.0
    outer = outer.rotated(by: .pi / 4, x: 0, y: 1, z: 0)
    view.outerView.transform = outer
    // rotate the inner layer -45 degrees
    var inner = Transform3D.identity
    inner.m34 = -1.0 / 500.0
    inner = inner.rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
    view.innerView.transform = inner
    return view.layer
}

/// The views of figure 5.15: a white outer square with a blue inner square centred in it.
struct NestedViews {
    let layer = Layer()
    let outerView = Layer(), innerView = Layer()

    init() {
        layer.backgroundColor = Color(white: 0.85)
        outerView.bounds = Rect(x: 0, y: 0, width: 120, height: 120)
        outerView.position = Point(x: 100, y: 100)
        outerView.backgroundColor = .white
        outerView.borderWidth = 2
        outerView.borderColor = Color(white: 0.5)
        innerView.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        innerView.position = Point(x: 60, y: 60)
        innerView.backgroundColor = Color(red: 0.2, green: 0.45, blue: 0.9)
        outerView.addSublayer(innerView)
        layer.addSublayer(outerView)
    }
}
