import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// True 3D (SEMANTICS.md, TransformLayer) on a 200×160 canvas (References/transform-layer). All strict:
// GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0). The canvas's sublayerTransform holds the
// perspective (eye 400 points in front of its centre), so the TransformLayer's context is the canvas's space.

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
private let area = "transform-layer"

private let red = Color(red: 0.85, green: 0.15, blue: 0.1)
private let blue = Color(red: 0.1, green: 0.3, blue: 0.85)

/// A 200×160 canvas whose sublayers are seen with perspective from `distance` points in front of its centre.
private func perspectiveCanvas(distance: Double = 400) -> Layer {
    let root = canvas(200, 160)
    var perspective = Transform3D.identity
    perspective.m34 = -1 / distance
    root.sublayerTransform = perspective
    return root
}

/// A transform layer of `size` centred on the canvas, its sublayers placed about its centre.
private func centredTransformLayer(size: Double = 100) -> TransformLayer {
    let t = TransformLayer()
    t.name = "transform layer"
    t.bounds = Rect(x: 0, y: 0, width: size, height: size)
    t.position = Point(x: 100, y: 80)
    return t
}

/// Red turned +45° about y (its right edge goes away) and blue −45° (its right edge comes near): they cross
/// on the vertical line through the centre, red in front on the left, blue in front on the right.
/// `turn` is the transform layer's own transform: it moves both planes together.
private func crossingPlanesScene(turn: Transform3D = .identity) -> Layer {
    let root = perspectiveCanvas()
    let t = centredTransformLayer()
    t.transform = turn
    for (color, angle, name) in [(red, Double.pi / 4, "red"), (blue, -Double.pi / 4, "blue")] {
        let plane = makeLayer(Rect(x: 0, y: 0, width: 100, height: 100), background: color, name: name)
        plane.borderWidth = 2
        plane.borderColor = Color(white: 0.15)
        plane.transform = .makeRotation(angle, 0, 1, 0)
        t.addSublayer(plane)
    }
    root.addSublayer(t)
    return root
}

@Test func transformLayerCrossingPlanesSplitAtTheirIntersection() {
    // strict: (2, 0). Seen straight on: each plane is in front on its own side of the crossing.
    let s = render(crossingPlanesScene())
    expectGolden(s, area: area, name: "crossing-planes", tolerance: strict)
    // By hand (x' = x / (1 − z/400) about the centre (100, 80), z = ∓x for ±45°): on the left red comes near and
    // spans to x ≈ −39.6 px, blue goes away and spans to x ≈ −31.7; on the right the reverse. Where both are,
    // the nearer one shows: red on the left, blue on the right. Sorting whole planes by depth (their centres are
    // both at z = 0) would show one colour on both sides.
    for dx in [8, 15, 25] {
        expectPixel(s, 100 - dx, 80, red.premultiplied, tolerance: 1, "left of the crossing, red is nearer (dx = \(dx))")
        expectPixel(s, 100 - dx, 60, red.premultiplied, tolerance: 1, "left of the crossing, above the middle (dx = \(dx))")
        expectPixel(s, 100 + dx, 80, blue.premultiplied, tolerance: 1, "right of the crossing, blue is nearer (dx = \(dx))")
        expectPixel(s, 100 + dx, 100, blue.premultiplied, tolerance: 1, "right of the crossing, below the middle (dx = \(dx))")
    }
    // Beyond the far plane's edge only the near one is there; beyond both, the canvas.
    expectPixel(s, 100 - 36, 80, red.premultiplied, tolerance: 1, "only red reaches x = 64")
    expectPixel(s, 100 + 36, 80, blue.premultiplied, tolerance: 1, "only blue reaches x = 136")
    expectPixel(s, 100 - 45, 80, Palette.canvas.premultiplied, "nothing at x = 55")
}

@Test func transformLayerCrossingPlanesTilted() {
    // strict: (2, 0). The same pair tilted 0.5 rad about x (top away), then 0.25 rad about z: the crossing line
    // leans clockwise through the centre, and each plane is still nearer on its own side.
    let s = render(crossingPlanesScene(turn: Transform3D.makeRotation(0.5, 1, 0, 0).concatenating(.makeRotation(0.25, 0, 0, 1))))
    expectGolden(s, area: area, name: "crossing-planes-tilted", tolerance: strict)
    expectPixel(s, 85, 80, red.premultiplied, tolerance: 1, "red nearer left of the crossing")
    expectPixel(s, 115, 80, blue.premultiplied, tolerance: 1, "blue nearer right of the crossing")
}

// MARK: - The cube

/// The six faces: name, colour, and the turn that carries the front face (normal +z) to it. Row vectors, so a
/// positive turn about y carries +z to +x (right) and a positive turn about x carries +z to −y (top, y down).
private let cubeFaces: [(name: String, color: Color, turn: Transform3D)] = [
    ("front", Color(red: 0.85, green: 0.15, blue: 0.1), .identity),
    ("back", Color(red: 0.2, green: 0.65, blue: 0.2), .makeRotation(.pi, 0, 1, 0)),
    ("right", Color(red: 0.1, green: 0.3, blue: 0.85), .makeRotation(.pi / 2, 0, 1, 0)),
    ("left", Color(red: 0.95, green: 0.8, blue: 0.1), .makeRotation(-.pi / 2, 0, 1, 0)),
    ("top", Color(red: 0.1, green: 0.75, blue: 0.8), .makeRotation(.pi / 2, 1, 0, 0)),
    ("bottom", Color(red: 0.75, green: 0.2, blue: 0.7), .makeRotation(-.pi / 2, 1, 0, 0)),
]

private let cubeSide = 60.0

/// A cube of side 60 in a transform layer at the canvas's centre, turned by `view` about its centre. Each face
/// has a dark border and a white square in its top-left corner (a flattened sublayer), so its orientation shows.
private func cubeScene(view: Transform3D, doubleSided: Bool = true) -> Layer {
    let root = perspectiveCanvas()
    let cube = centredTransformLayer(size: cubeSide)
    cube.transform = view
    for face in cubeFaces {
        let layer = makeLayer(Rect(x: 0, y: 0, width: cubeSide, height: cubeSide), background: face.color, name: face.name)
        layer.borderWidth = 3
        layer.borderColor = Color(white: 0.15)
        layer.isDoubleSided = doubleSided
        layer.transform = Transform3D.makeTranslation(0, 0, cubeSide / 2).concatenating(face.turn)
        layer.addSublayer(makeLayer(Rect(x: 7, y: 7, width: 12, height: 12), background: Color(white: 1), name: "marker"))
        cube.addSublayer(layer)
    }
    root.addSublayer(cube)
    return root
}

/// Where the centre of each face lands on the canvas, and whether that face looks at the eye: computed here
/// with the same maths as SEMANTICS.md (row vectors, m34 = −1/400 about the canvas centre), not by the compositor.
private func expectedFaceCentres(view: Transform3D) -> [(name: String, color: Color, x: Double, y: Double, visible: Bool)] {
    cubeFaces.map { face in
        let m = Transform3D.makeTranslation(0, 0, cubeSide / 2).concatenating(face.turn).concatenating(view)
        let c = m.apply(x: 0, y: 0, z: 0)
        let n = m.apply(x: 0, y: 0, z: 1) - c               // the face's normal, turned
        // The eye is at (0, 0, 400) relative to the centre: the face looks at it when the normal points there.
        let toEye = SIMD3(-c.x, -c.y, 400 - c.z)
        let visible = n.x * toEye.x + n.y * toEye.y + n.z * toEye.z > 0
        let w = 1 - c.z / 400
        return (face.name, face.color, 100 + c.x / w, 80 + c.y / w, visible)
    }
}

private func checkCube(_ s: Surface, view: Transform3D, sourceLocation: SourceLocation = #_sourceLocation) {
    let faces = expectedFaceCentres(view: view)
    #expect(faces.filter(\.visible).count == 3, "three faces look at the eye", sourceLocation: sourceLocation)
    for face in faces where face.visible {
        expectPixel(s, Int(face.x), Int(face.y), face.color.premultiplied, tolerance: 1,
                    "the \(face.name) face shows at its centre", sourceLocation: sourceLocation)
    }
}

/// Front-ish: turned 0.35 rad about y (the left face shows), then 0.25 rad about x (the bottom shows).
private let cubeFrontish = Transform3D.makeRotation(0.35, 0, 1, 0).concatenating(.makeRotation(0.25, 1, 0, 0))
/// From above and to the left: the top, left and front faces show.
private let cubeAboveLeft = Transform3D.makeRotation(0.6, 0, 1, 0).concatenating(.makeRotation(-0.55, 1, 0, 0))
/// From below and to the right: the bottom, right and front faces show.
private let cubeBelowRight = Transform3D.makeRotation(-0.6, 0, 1, 0).concatenating(.makeRotation(0.55, 1, 0, 0))

@Test func transformLayerCubeFrontish() {
    // strict: (2, 0)
    let s = render(cubeScene(view: cubeFrontish))
    expectGolden(s, area: area, name: "cube-frontish", tolerance: strict)
    checkCube(s, view: cubeFrontish)
}

@Test func transformLayerCubeFromAboveLeft() {
    // strict: (2, 0)
    let s = render(cubeScene(view: cubeAboveLeft))
    expectGolden(s, area: area, name: "cube-above-left", tolerance: strict)
    checkCube(s, view: cubeAboveLeft)
}

@Test func transformLayerCubeFromBelowRight() {
    // strict: (2, 0)
    let s = render(cubeScene(view: cubeBelowRight))
    expectGolden(s, area: area, name: "cube-below-right", tolerance: strict)
    checkCube(s, view: cubeBelowRight)
}

@Test func transformLayerCubeWithBackFacesCulled() {
    // isDoubleSided = false on every face: the back faces are culled inside the context, and the faces that
    // look at the eye are where the depth sort put them (same centres as the double-sided cube).
    for view in [cubeFrontish, cubeAboveLeft, cubeBelowRight] {
        let s = render(cubeScene(view: view, doubleSided: false))
        checkCube(s, view: view)
        let both = render(cubeScene(view: view))
        // Only antialiased edges may differ (there the double-sided cube's back faces show through a little):
        // no pixel whose neighbours all have its colour, in either picture. Where two front faces abut, their
        // bordered edges meet at one seam: the double-sided cube has a dark back-face border behind it and is
        // flat there, while the culled one shows a hair of the canvas through the seam (each edge's coverage
        // blended on its own) and is not: an edge, not a face in the wrong place.
        var interior = 0
        func flat(_ surface: Surface, _ x: Int, _ y: Int) -> Bool {
            let p = surface.pixel(x: x, y: y)
            return (-1...1).allSatisfy { dy in (-1...1).allSatisfy { dx in channelDifference(surface.pixel(x: x + dx, y: y + dy), p) <= 2 } }
        }
        for y in 1..<(s.height - 1) {
            for x in 1..<(s.width - 1) where channelDifference(s.pixel(x: x, y: y), both.pixel(x: x, y: y)) > 2 {
                if flat(both, x, y) && flat(s, x, y) { interior += 1 }
            }
        }
        #expect(interior == 0, "culled and sorted cubes differ at \(interior) pixels away from any edge")
    }
}


// MARK: - What a transform layer does not draw

@Test func transformLayerDrawsNothingOfItsOwn() {
    // strict: (2, 0). The transform layer (frame 40…160 × 30…130) has a background,
    // a border, a shadow and masksToBounds, none of which Core Animation draws for a CATransformLayer; its two
    // sublayers overlap and its opacity 0.5 applies to each separately (no group).
    let root = canvas(200, 160)
    let t = TransformLayer()
    t.frame = Rect(x: 40, y: 30, width: 120, height: 100)
    t.backgroundColor = Palette.yellow
    t.borderWidth = 6
    t.borderColor = Palette.navy
    t.shadowOpacity = 1
    t.masksToBounds = true
    t.opacity = 0.5
    // The first sublayer sticks out of the transform layer's bounds on the left: nothing clips it.
    let a = makeLayer(Rect(x: -30, y: 20, width: 90, height: 60), background: red, name: "red")
    let b = makeLayer(Rect(x: 40, y: 40, width: 70, height: 50), background: blue, name: "blue")
    t.sublayers = [a, b]
    root.addSublayer(t)
    let s = render(root)
    expectGolden(s, area: area, name: "draws-nothing-of-its-own", tolerance: strict)
    expectPixel(s, 45, 35, Palette.canvas.premultiplied, "no background, no border inside the bounds")
    expectPixel(s, 155, 125, Palette.canvas.premultiplied, "no border at the bottom-right corner")
    expectPixel(s, 100, 140, Palette.canvas.premultiplied, "no shadow below")
    let redOverCanvas = over(red, alpha: 0.5, Palette.canvas)
    expectPixel(s, 20, 70, redOverCanvas, tolerance: 1, "red outside the bounds is drawn (no masksToBounds) at half opacity")
    expectPixel(s, 70, 60, redOverCanvas, tolerance: 1, "red alone at half opacity")
    // Where they overlap, blue at 0.5 over red at 0.5 over the canvas: each child has its own opacity.
    let mixed = over(blue, alpha: 0.5, Color(red: Double(redOverCanvas.r) / 255, green: Double(redOverCanvas.g) / 255,
                                             blue: Double(redOverCanvas.b) / 255))
    expectPixel(s, 90, 85, mixed, tolerance: 2, "blue over red, both at half opacity")
    expectPixel(s, 130, 110, over(blue, alpha: 0.5, Palette.canvas), tolerance: 1, "blue alone at half opacity")
}

// MARK: - Nesting, and a transform layer as the root

@Test func transformLayerNestedExtendsTheSameContext() {
    // The above-left view split over two nested transform layers (the inner turns about y, the outer about x):
    // one context, so the very same picture as one transform layer with both turns.
    let nested = perspectiveCanvas()
    let outer = centredTransformLayer(size: cubeSide)
    outer.transform = .makeRotation(-0.55, 1, 0, 0)
    let single = cubeScene(view: cubeAboveLeft)
    let cube = single.sublayers![0]
    cube.removeFromSuperlayer()
    cube.transform = .makeRotation(0.6, 0, 1, 0)
    cube.position = Point(x: cubeSide / 2, y: cubeSide / 2)
    outer.addSublayer(cube)
    nested.addSublayer(outer)
    let a = render(nested), b = render(cubeScene(view: cubeAboveLeft))
    var differing = 0
    for y in 0..<a.height { for x in 0..<a.width where channelDifference(a.pixel(x: x, y: y), b.pixel(x: x, y: y)) > 2 { differing += 1 } }
    #expect(differing == 0, "nested transform layers differ from one in \(differing) pixels")

    // Opacities multiply down the nesting, each applied to the plane alone: 0.5 · 0.5 on the one square.
    let root = canvas(200, 160)
    let t1 = centredTransformLayer(), t2 = centredTransformLayer()
    t1.opacity = 0.5; t2.opacity = 0.5
    t2.position = Point(x: 50, y: 50)
    t2.addSublayer(makeLayer(Rect(x: 20, y: 20, width: 60, height: 60), background: red, name: "square"))
    t1.addSublayer(t2)
    root.addSublayer(t1)
    expectPixel(render(root), 100, 80, over(red, alpha: 0.25, Palette.canvas), tolerance: 1, "red at 0.25")
}

@Test func transformLayerAsTheRootOfARender() {
    // A transform layer rendered as the root: its context is the target's space. Perspective through its own
    // sublayerTransform (about its centre); the crossing planes show as in the canvas scene.
    let t = centredTransformLayer(size: 200)
    t.bounds = Rect(x: 0, y: 0, width: 200, height: 160)
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 400
    t.sublayerTransform = perspective
    for (color, angle, name) in [(red, Double.pi / 4, "red"), (blue, -Double.pi / 4, "blue")] {
        let plane = makeLayer(Rect(x: 50, y: 30, width: 100, height: 100), background: color, name: name)
        plane.transform = .makeRotation(angle, 0, 1, 0)
        t.addSublayer(plane)
    }
    let s = sharedCompositor.render(t.snapshot(), width: 200, height: 160)
    expectPixel(s, 85, 80, red.premultiplied, tolerance: 1, "red nearer left of the crossing")
    expectPixel(s, 115, 80, blue.premultiplied, tolerance: 1, "blue nearer right of the crossing")
    expectPixel(s, 100, 5, PremultipliedColor(r: 0, g: 0, b: 0, a: 0), "transparent outside the planes")
}

