import LayerGraphics
import LayerKit

/// Figure 6.8: listing 6.8, a ReplicatorLayer making a ring of ten squares, each turned 36° further about a point
/// below the replicator's centre and a tenth less green and blue (white fading to red). The book's container is a
/// full screen with the pivot 200 points below its centre; here everything is scaled to fit 256 points: the replicator is
/// placed so its pivot, 88 points below its centre, is the canvas's centre and the whole ring shows.
let replicatorRingFigure = Figure(name: "6.8-replicator-ring", title: "Listing 6.8: ten instances turned about a pivot, fading to red",
                                  width: 256, height: 256) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.15)
    let containerView = Layer()
    containerView.frame = Rect(x: 0, y: -88, width: 256, height: 256)
    screen.addSublayer(containerView)
    // create a replicator layer and add it to our view
    let replicator = ReplicatorLayer()
    replicator.frame = containerView.bounds
    containerView.addSublayer(replicator)
    // configure the replicator
    replicator.instanceCount = 10
    // apply a transform for each instance (each call applies before the previous ones)
    var transform = Transform3D.identity
    transform = Transform3D.makeTranslation(0, 88, 0).concatenating(transform)
    transform = Transform3D.makeRotation(.pi / 5, 0, 0, 1).concatenating(transform)
    transform = Transform3D.makeTranslation(0, -88, 0).concatenating(transform)
    replicator.instanceTransform = transform
    // apply a color shift for each instance
    replicator.instanceBlueOffset = -0.1
    replicator.instanceGreenOffset = -0.1
    // create a sublayer and place it inside the replicator
    let layer = Layer()
    layer.frame = Rect(x: 108, y: 108, width: 40, height: 40)
    layer.backgroundColor = .white
    replicator.addSublayer(layer)
    return screen
}

/// Figure 6.9: listing 6.9's `ReflectionView`, a view backed by a ReplicatorLayer of two instances: the second is
/// flipped about the view's centre (Scale(1, −1, 0), applied first) and moved down by its height plus 2 points,
/// at 40 % alpha (`instanceAlphaOffset` −0.6). The view holds the snowman picture.
let reflectionFigure = Figure(name: "6.9-reflection", title: "Listing 6.9: ReflectionView, a mirrored copy below at 40 % alpha",
                              width: 200, height: 256) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.2)
    // the ReflectionView's layer
    let reflectionView = ReplicatorLayer()
    reflectionView.frame = Rect(x: 40, y: 6, width: 120, height: 120)
    reflectionView.contentsScale = 1
    // configure replicator
    reflectionView.instanceCount = 2
    // move reflection instance below original and flip vertically
    var transform = Transform3D.identity
    let verticalOffset = reflectionView.bounds.size.height + 2
    transform = Transform3D.makeTranslation(0, verticalOffset, 0).concatenating(transform)
    transform = Transform3D.makeScale(1, -1, 0).concatenating(transform)
    reflectionView.instanceTransform = transform
    // reduce alpha of reflection layer
    reflectionView.instanceAlphaOffset = -0.6
    // the image view inside it
    let imageView = Layer()
    imageView.frame = reflectionView.bounds
    imageView.contents = .image(Art.snowman)
    reflectionView.addSublayer(imageView)
    screen.addSublayer(reflectionView)
    return screen
}
