import LayerGraphics
import LayerKit

/// Figure 6.5: listing 6.5, two cubes each assembled in a `TransformLayer` (CATransformLayer) from six coloured
/// faces, the second turned −45° about x and y, under the container's perspective (m34 = −1/500). The book colours
/// the faces with `rand()`; a fixed sequence stands in for it so that the figure is the same on every run. The book's
/// container is 320 points wide with the cubes 100 points either side of its centre; to fit the gallery's 256-point
/// canvas each cube is scaled by 0.55 before its own transform and placed 70 points either side.
let transformLayerCubesFigure = Figure(name: "6.5-transform-layer-cubes",
                                       title: "Listing 6.5: two cubes assembled in CATransformLayers under one perspective, the right one turned -45° about x and y",
                                       width: 256, height: 160) { _ in
    let containerView = Layer()
    containerView.backgroundColor = .white
    containerView.bounds = Rect(x: 0, y: 0, width: 256, height: 160)
    var random = FaceColours()

    func face(withTransform transform: Transform3D) -> Layer {
        // create cube face layer
        let face = Layer()
        face.frame = Rect(x: -50, y: -50, width: 100, height: 100)
        // apply a random color
        face.backgroundColor = random.next()
        // apply the transform and return
        face.transform = transform
        return face
    }

    func cube(withTransform transform: Transform3D) -> Layer {
        // create cube layer
        let cube = TransformLayer()
        // add cube face 1
        var ct = Transform3D.makeTranslation(0, 0, 50)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 2
        ct = Transform3D.makeTranslation(50, 0, 0)
        ct = ct.rotated(by: .pi / 2, x: 0, y: 1, z: 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 3
        ct = Transform3D.makeTranslation(0, -50, 0)
        ct = ct.rotated(by: .pi / 2, x: 1, y: 0, z: 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 4
        ct = Transform3D.makeTranslation(0, 50, 0)
        ct = ct.rotated(by: -.pi / 2, x: 1, y: 0, z: 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 5
        ct = Transform3D.makeTranslation(-50, 0, 0)
        ct = ct.rotated(by: -.pi / 2, x: 0, y: 1, z: 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 6
        ct = Transform3D.makeTranslation(0, 0, -50)
        ct = ct.rotated(by: .pi, x: 0, y: 1, z: 0)
        cube.addSublayer(face(withTransform: ct))
        // center the cube layer within the container
        let containerSize = containerView.bounds.size
        cube.position = Point(x: containerSize.width / 2.0, y: containerSize.height / 2.0)
        // apply the transform and return
        cube.transform = transform
        return cube
    }

    // set up the perspective transform
    var pt = Transform3D.identity
    pt.m34 = -1.0 / 500.0
    containerView.sublayerTransform = pt
    // set up the transform for cube 1 and add it
    var c1t = Transform3D.identity
    c1t = c1t.translatedBy(x: -70, y: 0, z: 0)
    containerView.addSublayer(cube(withTransform: c1t.scaledBy(x: 0.55, y: 0.55, z: 0.55)))
    // set up the transform for cube 2 and add it
    var c2t = Transform3D.identity
    c2t = c2t.translatedBy(x: 70, y: 0, z: 0)
    c2t = c2t.rotated(by: -.pi / 4, x: 1, y: 0, z: 0)
    c2t = c2t.rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
    containerView.addSublayer(cube(withTransform: c2t.scaledBy(x: 0.55, y: 0.55, z: 0.55)))
    return containerView
}

/// The faces' colours: `rand()`'s role in the listing, from a fixed linear congruential sequence.
private struct FaceColours {
    private var state: UInt32 = 12345
    mutating func next() -> Color {
        func component() -> Double {
            state = state &* 1_103_515_245 &+ 12345
            return Double((state >> 8) & 0xFFFF) / 65535
        }
        let red = component(), green = component(), blue = component()
        return Color(red: red, green: green, blue: blue, alpha: 1)
    }
}
