import LayerGraphics
import LayerKit

/// The cube of listings 5.9 and 5.10: six 200-point faces folded about the centre of a container whose
/// sublayerTransform holds the perspective and the camera's turn (−45° about x, then −45° about y).
///
/// The book adds the faces to the container view directly; by default here they go into a `TransformLayer` filling
/// the container, as chapter 6 (listing 6.5) builds its cubes. With `literal` they go straight into the container,
/// as listing 5.9 has it. Both draw the same cube: a plain layer's sublayers are sorted by depth as planes too
/// (SEMANTICS.md, "Sibling order is depth order"), so faces 4–6 stay behind 1–3 either way.
struct CubeView {
    /// The book's numbers: faces of 200 points, 100 points from the centre, m34 = −1/500.
    static let side = 400.0, faceSide = 200.0
    /// listing 5.10's light
    static let lightDirection = SIMD3<Double>(0, 1, -0.5)
    static let ambientLight = 0.5

    let layer = Layer()
    let containerView = Layer()
    let cube = TransformLayer()
    let lit: Bool
    /// The faces are the container's own sublayers (listing 5.9 verbatim), not a transform layer's.
    let literal: Bool

    /// - Parameters:
    ///   - canvas: the figure's side; the 400-point container is shown scaled to fit it (a scale after flattening
    ///     changes the picture's size only).
    ///   - lit: listing 5.10's lighting layer on each face.
    ///   - literal: add the faces to the container itself, as the book does, instead of to a transform layer.
    ///   - makeFace: the layer of face `index` (0–5); the book's faces are white views with a numbered button.
    init(canvas: Double, lit: Bool, literal: Bool = false, makeFace: (Int) -> Layer = CubeView.numberedFace) {
        self.lit = lit
        self.literal = literal
        layer.backgroundColor = Color(white: 0.85)
        containerView.bounds = Rect(x: 0, y: 0, width: Self.side, height: Self.side)
        containerView.position = Point(x: canvas / 2, y: canvas / 2)
        containerView.transform = .makeScale(canvas / Self.side, canvas / Self.side, 1)
        cube.bounds = containerView.bounds
        cube.position = Point(x: Self.side / 2, y: Self.side / 2)
        if !literal { containerView.addSublayer(cube) }
        layer.addSublayer(containerView)

        // set up the container sublayer transform
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500.0
        perspective = perspective.rotated(by: -.pi / 4, x: 1, y: 0, z: 0)
        perspective = perspective.rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
        containerView.sublayerTransform = perspective
        // add cube face 1
        var transform = Transform3D.makeTranslation(0, 0, 100)
        addFace(makeFace(0), withTransform: transform)
        // add cube face 2
        transform = .makeTranslation(100, 0, 0)
        transform = transform.rotated(by: .pi / 2, x: 0, y: 1, z: 0)
        addFace(makeFace(1), withTransform: transform)
        // add cube face 3
        transform = .makeTranslation(0, -100, 0)
        transform = transform.rotated(by: .pi / 2, x: 1, y: 0, z: 0)
        addFace(makeFace(2), withTransform: transform)
        // add cube face 4
        transform = .makeTranslation(0, 100, 0)
        transform = transform.rotated(by: -.pi / 2, x: 1, y: 0, z: 0)
        addFace(makeFace(3), withTransform: transform)
        // add cube face 5
        transform = .makeTranslation(-100, 0, 0)
        transform = transform.rotated(by: -.pi / 2, x: 0, y: 1, z: 0)
        addFace(makeFace(4), withTransform: transform)
        // add cube face 6
        transform = .makeTranslation(0, 0, -100)
        transform = transform.rotated(by: .pi, x: 0, y: 1, z: 0)
        addFace(makeFace(5), withTransform: transform)
    }

    /// The faces in the order they were added (face 1 first).
    var faces: [Layer] { (literal ? containerView.sublayers : cube.sublayers) ?? [] }

    func addFace(_ face: Layer, withTransform transform: Transform3D) {
        // add the face to the container (or its transform layer)
        (literal ? containerView : cube).addSublayer(face)
        // center the face view within the container
        face.position = Point(x: Self.side / 2, y: Self.side / 2)
        // apply the transform
        face.transform = transform
        // apply lighting
        if lit { Self.applyLighting(to: face) }
    }

    /// Listing 5.10's `applyLightingToFace:`: a black layer over the face whose alpha is 1 + n·l − ambient,
    /// n the face's normal under its own transform and l the light direction (both unit length).
    static func applyLighting(to face: Layer) {
        // add lighting layer
        let layer = Layer()
        layer.name = "lighting"
        layer.frame = face.bounds
        face.addSublayer(layer)
        // get face normal
        let normal = faceNormal(face.transform)
        // get dot product with light direction
        let light = normalized(lightDirection)
        let dotProduct = (light * normal).sum()
        // set lighting layer opacity (UIColor clamps alpha to 0…1)
        let shadow = 1 + dotProduct - ambientLight
        layer.backgroundColor = Color(white: 0, alpha: min(max(shadow, 0), 1))
    }

    /// (0, 0, 1) through the 3×3 part of `t`, normalised: GLKMatrix3MultiplyVector3 on the matrix read from the
    /// CATransform3D's memory is the row-vector product (0, 0, 1) · M, i.e. M's third row.
    static func faceNormal(_ t: Transform3D) -> SIMD3<Double> {
        let v = SIMD3<Double>(0, 0, 1)
        let n = SIMD3(v.x * t.m11 + v.y * t.m21 + v.z * t.m31,
                      v.x * t.m12 + v.y * t.m22 + v.z * t.m32,
                      v.x * t.m13 + v.y * t.m23 + v.z * t.m33)
        return normalized(n)
    }

    static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let length = (v * v).sum().squareRoot()
        return length > 0 ? v / length : v
    }

    /// A face as the book's: a white 200-point square with its number.
    static func numberedFace(_ index: Int) -> Layer {
        let face = Layer()
        face.name = "face \(index + 1)"
        face.bounds = Rect(x: 0, y: 0, width: faceSide, height: faceSide)
        face.contents = .image(Art.face(index + 1, side: faceSide))
        return face
    }
}
