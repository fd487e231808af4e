import LayerGraphics
import LayerKit

/// Figure 5.13: listing 5.6, two views side by side in a container whose sublayerTransform holds the
/// perspective, turned +45° and −45° about y: both recede towards the container's centre, one vanishing point.
let sharedVanishingPointFigure = Figure(name: "5.13-vanishing-point", title: "Listing 5.6: two layers turned ±45° about y under the container's sublayerTransform share one vanishing point",
                                        width: 256, height: 160) { _ in
    let containerView = Layer()
    containerView.backgroundColor = Color(white: 0.85)
    containerView.frame = Rect(x: 0, y: 0, width: 256, height: 160)
    let layerView1 = Layer(), layerView2 = Layer()
    for (view, x) in [(layerView1, 66.0), (layerView2, 190.0)] { // placed by Interface Builder in the book
        view.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        view.position = Point(x: x, y: 80)
        view.contents = .image(Art.snowman)
        containerView.addSublayer(view)
    }
    // apply perspective transform to container
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 500.0
    containerView.sublayerTransform = perspective
    // rotate layerView1 by 45 degrees along the Y axis
    let transform1 = Transform3D.makeRotation(.pi / 4, 0, 1, 0)
    layerView1.transform = transform1
    // rotate layerView2 by 45 degrees along the Y axis
    let transform2 = Transform3D.makeRotation(-.pi / 4, 0, 1, 0)
    layerView2.transform = transform2
    return containerView
}
