import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// Every public number of a layer, of its colours, paths and animations, set to what a careless or hostile caller
// might give (NaN, infinities, 1e300, 1e155, denormals, negatives): a render must never trap (issue 15). Where the
// picture is defined it is checked too: a layer that cannot be placed draws nothing, and nothing else changes.

private let hostileValues: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e155, 1e-300, -1, 0, 3e9, 9e8, -9e8]

/// A card with every effect on (contents, corners, border, shadow, a sublayer, a mask) over a canvas.
private func hostileScene() -> (root: Layer, card: Layer) {
    let root = canvas(48, 48)
    let card = makeLayer(Rect(x: 8, y: 8, width: 32, height: 24), background: Palette.teal)
    card.contents = .image(testImage(width: 16, height: 12))
    card.cornerRadius = 6
    card.masksToBounds = true
    card.borderWidth = 2
    card.borderColor = Palette.orange
    card.shadowOpacity = 0.5
    card.shadowRadius = 4
    var perspective = Transform3D.identity
    perspective.m34 = -1 / 200
    card.transform = Transform3D.makeRotation(0.4, 0, 1, 0).concatenating(perspective)
    card.addSublayer(makeLayer(Rect(x: 4, y: 4, width: 10, height: 10), background: Palette.navy))
    let mask = makeLayer(Rect(x: 0, y: 0, width: 32, height: 24), background: .white)
    mask.cornerRadius = 4
    card.mask = mask
    root.addSublayer(card)
    return (root, card)
}

/// The numbers of a layer a caller can set, each as a way to set it on the card.
private let layerNumbers: [(String, @Sendable (Layer, Double) -> Void)] = {
    var setters: [(String, @Sendable (Layer, Double) -> Void)] = [
        ("opacity", { $0.opacity = $1 }),
        ("bounds.x", { $0.bounds.origin.x = $1 }), ("bounds.y", { $0.bounds.origin.y = $1 }),
        ("bounds.width", { $0.bounds.size.width = $1 }), ("bounds.height", { $0.bounds.size.height = $1 }),
        ("position.x", { $0.position.x = $1 }), ("position.y", { $0.position.y = $1 }),
        ("anchorPoint.x", { $0.anchorPoint.x = $1 }), ("anchorPoint.y", { $0.anchorPoint.y = $1 }),
        ("anchorPointZ", { $0.anchorPointZ = $1 }), ("zPosition", { $0.zPosition = $1 }),
        ("cornerRadius", { $0.cornerRadius = $1 }), ("borderWidth", { $0.borderWidth = $1 }),
        ("shadowOpacity", { $0.shadowOpacity = $1 }), ("shadowRadius", { $0.shadowRadius = $1 }),
        ("shadowOffset.width", { $0.shadowOffset.width = $1 }), ("shadowOffset.height", { $0.shadowOffset.height = $1 }),
        ("contentsScale", { $0.contentsScale = $1 }), ("minificationFilterBias", { $0.minificationFilterBias = $1 }),
        ("contentsRect.x", { $0.contentsRect.origin.x = $1 }), ("contentsRect.width", { $0.contentsRect.size.width = $1 }),
        ("contentsCenter.y", { $0.contentsCenter.origin.y = $1 }), ("contentsCenter.height", { $0.contentsCenter.size.height = $1 }),
        ("beginTime", { $0.beginTime = $1 }), ("speed", { $0.speed = $1 }), ("timeOffset", { $0.timeOffset = $1 }),
        ("backgroundColor.red", { $0.backgroundColor = Color(red: $1, green: 0.5, blue: 0.5) }),
        ("backgroundColor.alpha", { $0.backgroundColor = Color(red: 0.5, green: 0.5, blue: 0.5, alpha: $1) }),
        ("borderColor.green", { $0.borderColor = Color(red: 0.5, green: $1, blue: 0.5) }),
        ("shadowColor.alpha", { $0.shadowColor = Color(red: 0, green: 0, blue: 0, alpha: $1) }),
        ("shadowPath", { $0.shadowPath = Path(rect: Rect(x: 0, y: 0, width: $1, height: 20)) }),
        ("sublayer.position.x", { $0.sublayers?.first?.position.x = $1 }),
        ("mask.bounds.width", { $0.mask?.bounds.size.width = $1 }),
        ("mask.opacity", { $0.mask?.opacity = $1 }),
    ]
    /// The matrix with entry i (row-major) set to v.
    @Sendable func setting(_ t: Transform3D, _ i: Int, _ v: Double) -> Transform3D {
        let entries: [WritableKeyPath<Transform3D, Double>] = [\.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
                                                                \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44]
        var t = t
        t[keyPath: entries[i]] = v
        return t
    }
    for i in 0..<16 {
        setters.append(("transform.m\(i / 4 + 1)\(i % 4 + 1)", { $0.transform = setting($0.transform, i, $1) }))
        setters.append(("sublayerTransform.m\(i / 4 + 1)\(i % 4 + 1)", { $0.sublayerTransform = setting($0.sublayerTransform, i, $1) }))
    }
    return setters
}()

@Test(arguments: layerNumbers.indices)
func hostileLayerNumbersRenderWithoutTrapping(_ index: Int) {
    let (name, set) = layerNumbers[index]
    for value in hostileValues {
        let (root, card) = hostileScene()
        set(card, value)
        let surface = render(root)
        // Whatever the value, the canvas outside the card's reach is the canvas: nothing spills over the picture.
        let corner = surface.pixel(x: 0, y: 47)
        #expect(corner.bgra != 0, "\(name) = \(value): the canvas was not drawn")
    }
}

@Test func aLayerThatCannotBePlacedDrawsNothing() {
    // A NaN position or transform places the layer nowhere: it draws nothing (with its subtree), and the canvas
    // shows as if it were hidden.
    let (hiddenRoot, hiddenCard) = hostileScene()
    hiddenCard.isHidden = true
    let expected = pixels(render(hiddenRoot))
    for set in [{ (l: Layer) in l.position.x = .nan }, { $0.transform.m11 = .infinity }, { $0.bounds.size.width = .nan },
                { $0.opacity = .nan }, { $0.anchorPointZ = -.infinity }] as [(Layer) -> Void] {
        let (root, card) = hostileScene()
        set(card)
        #expect(pixels(render(root)) == expected)
    }
}

private func pixels(_ s: Surface) -> [UInt32] {
    (0..<s.height).flatMap { y in (0..<s.width).map { x in s.pixel(x: x, y: y).bgra } }
}

@Test(arguments: [Double.nan, .infinity, -1, 0, 1e300, 1e-300])
func hostileAnimationTimingRendersWithoutTrapping(_ value: Double) {
    let setters: [(BasicAnimation, Double) -> Void] = [
        { $0.duration = $1 }, { $0.speed = $1 }, { $0.beginTime = $1 }, { $0.timeOffset = $1 },
        { $0.repeatCount = $1 }, { $0.repeatDuration = $1 }, { $0.toValue = $1 },
    ]
    for set in setters {
        let (root, card) = hostileScene()
        let animation = BasicAnimation(keyPath: "opacity")
        animation.fromValue = 0.2
        animation.toValue = 0.9
        animation.duration = 2
        animation.repeatCount = 3
        set(animation, value)
        card.add(animation, forKey: "fade")
        for time in [0, 0.5, 1e9, -5] { _ = sharedCompositor.render(root.snapshot(at: time), width: 48, height: 48) }
    }
}

@Test(arguments: [(0, 0), (0, 10), (10, 0), (-4, 8), (-1, -1)])
func emptyOrNegativeSizesRenderAnEmptySurface(_ width: Int, _ height: Int) {
    let (root, _) = hostileScene()
    let surface = Compositor().render(root.snapshot(), width: width, height: height)
    #expect(surface.width == max(0, width) && surface.height == max(0, height))
}

@Test(arguments: [9e8, 1e-9, -9e8])
func deeplyScaledTreesRenderWithoutTrapping(_ scale: Double) {
    // Each matrix is within the limit, but their product is not: the compositor meets 10³⁶ and 10⁻³⁶ in its
    // world matrices and must still place, cull or skip the layers without trapping.
    let (root, card) = hostileScene()
    var parent = card
    for _ in 0..<4 {
        let child = makeLayer(Rect(x: 2, y: 2, width: 20, height: 20), background: Palette.yellow)
        child.transform = Transform3D.makeScale(scale, scale, 1)
        child.borderWidth = 1
        child.cornerRadius = 3
        child.shadowOpacity = 1
        parent.addSublayer(child)
        parent = child
    }
    card.sublayerTransform = Transform3D.makeScale(1, scale, scale)
    _ = render(root)
}

/// The animation kinds of issue 16 with hostile numbers in their values, key times, paths, spring parameters and
/// group timing; and implicit animations started from hostile values on a hosted tree: renders never trap.
@Test(arguments: hostileValues)
func hostileKeyframesSpringsGroupsAndImplicitChangesRenderWithoutTrapping(_ value: Double) {
    let (root, card) = hostileScene()
    let keyframes = KeyframeAnimation(keyPath: "position")
    keyframes.values = [Point(x: 0, y: 0), Point(x: value, y: 10), Point(x: 20, y: value)]
    keyframes.keyTimes = [0, value, 1]
    keyframes.duration = 1
    for mode in CalculationMode.allCases {
        keyframes.calculationMode = mode
        keyframes.tensionValues = [value, value, value]
        card.add(keyframes, forKey: "k-\(mode)")
    }
    var path = Path()
    path.move(to: Point(x: value, y: 0))
    path.addCurve(to: Point(x: 40, y: value), control1: Point(x: value, y: value), control2: Point(x: 0, y: 40))
    path.closeSubpath()
    let along = KeyframeAnimation(keyPath: "position")
    along.path = path
    along.rotationMode = .auto
    along.calculationMode = .paced
    along.duration = value
    card.add(along, forKey: "path")
    let spring = SpringAnimation(keyPath: "transform")
    spring.toValue = Transform3D.makeScale(value, 1, 1)
    spring.mass = value; spring.stiffness = value; spring.damping = value; spring.initialVelocity = value
    spring.duration = 1
    card.add(spring, forKey: "spring")
    let group = AnimationGroup()
    let inner = BasicAnimation(keyPath: "backgroundColor")
    inner.toValue = Color(red: value, green: 0, blue: 1)
    inner.duration = value
    group.animations = [inner, keyframes]
    group.duration = value
    group.speed = value
    card.add(group, forKey: "group")
    let host = ManualHost(root: root)
    for t in [0, 0.5, value, 2] { _ = sharedCompositor.render(host.snapshot(at: t), width: 48, height: 48) }
    card.opacity = value                  // implicit animations from a hosted tree, with hostile targets
    card.transform = Transform3D.makeRotation(value, 1, value, 0)
    card.position = Point(x: value, y: value)
    for t in [2.1, 2.2, 3] { _ = sharedCompositor.render(host.snapshot(at: t), width: 48, height: 48) }
}
