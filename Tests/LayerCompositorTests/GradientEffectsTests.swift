import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// A gradient layer with the base effects (SEMANTICS-LAYERS.md §0.4): under a 3D perspective transform (evaluated
// per pixel through the inverse map, so exact), as a mask (the shimmer), casting a shadow that follows its alpha,
// clipped by an ancestor; hostile values; goldens (References/gradients, strict: the dither is deterministic).

private let area = "gradients"
private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)

@Suite("GradientLayer: effects, hostile values and goldens")
struct GradientEffectsTests {
    let redBlue: [Color] = [.red, .blue]

    /// A 100×100 red → blue gradient along x, turned 50° about y under a perspective of 300 points, on a 160×120 canvas.
    func perspectiveScene() -> (root: Layer, gradient: GradientLayer) {
        let root = canvas(160, 120)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 300
        root.sublayerTransform = perspective
        let gradient = GradientLayer()
        gradient.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        gradient.position = Point(x: 80, y: 60)
        gradient.transform = .makeRotation(50 * .pi / 180, 0, 1, 0)
        gradient.colors = redBlue
        gradient.startPoint = Point(x: 0, y: 0.5)
        gradient.endPoint = Point(x: 1, y: 0.5)
        gradient.cornerRadius = 12
        root.addSublayer(gradient)
        return (root, gradient)
    }

    @Test func underPerspectiveEachPixelShowsTheColourOfItsOwnPointInTheLayer() throws {
        let (root, gradient) = perspectiveScene()
        let s = render(root)
        var checked = 0, worst = 0
        for y in stride(from: 0, to: 120, by: 3) {
            for x in 0..<160 {
                guard let p = gradient.convert(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), from: root) else { continue }
                // Well inside the layer (clear of its edge and rounded corners): coverage is full there.
                guard p.x > 14, p.x < 86, p.y > 14, p.y < 86 else { continue }
                worst = max(worst, channelDifference(s.pixel(x: x, y: y), expectedColor(redBlue, [0, 1], t: p.x / 100)))
                checked += 1
            }
        }
        #expect(checked > 500)
        #expect(worst <= 1, "t at the pixel centre's own point, through the inverse of the perspective map")
        expectGolden(s, area: area, name: "perspective", tolerance: strict)
    }

    @Test func aGradientMaskFadesItsLayerOutAsItsAlphaFalls() {
        // The shimmer's mask: opaque → clear → opaque, its locations moved across.
        let root = canvas(100, 20, background: .white)
        let card = makeLayer(Rect(x: 0, y: 0, width: 100, height: 20), background: Palette.navy)
        let mask = GradientLayer()
        mask.frame = card.bounds
        mask.colors = [.black, Color.black.withAlpha(0), .black]
        mask.locations = [0.3, 0.5, 0.7]
        mask.startPoint = Point(x: 0, y: 0.5)
        mask.endPoint = Point(x: 1, y: 0.5)
        card.mask = mask
        root.addSublayer(card)
        let s = render(root)
        let worst = worstDifference(s) { x, _ in
            let alpha = straightColor([.black, Color.black.withAlpha(0), .black], [0.3, 0.5, 0.7], t: (Double(x) + 0.5) / 100).alpha
            return over(Palette.navy, alpha: alpha, .white)
        }
        #expect(worst.difference <= 2, "the navy card shows through the mask's alpha; worst at \(worst)")
        expectPixel(s, 49, 10, over(Palette.navy, alpha: 0.025, .white), tolerance: 2, "nearly clear in the middle (t = 0.495)")
        expectGolden(s, area: area, name: "mask", tolerance: strict)
    }

    @Test func theShadowFollowsTheGradientsAlpha() {
        let root = canvas(120, 64, background: .white)
        let gradient = GradientLayer()
        gradient.frame = Rect(x: 8, y: 0, width: 40, height: 64)
        gradient.colors = [.black, Color.black.withAlpha(0)]
        gradient.shadowOpacity = 1
        gradient.shadowColor = .black
        gradient.shadowOffset = Size(width: 60, height: 0)
        gradient.shadowRadius = 0
        root.addSublayer(gradient)
        let s = render(root)
        // The shadow (x 68…108) is the layer's own alpha, 1 − t at row y: over white, grey (1 − α)·255.
        let worst = worstDifference(s, where: { x, _ in x >= 70 && x < 106 }) { _, y in
            over(.black, alpha: 1 - (Double(y) + 0.5) / 64, .white)
        }
        #expect(worst.difference <= 3, "worst at \(worst)")
        expectPixel(s, 60, 30, PremultipliedColor(r: 255, g: 255, b: 255, a: 255), "nothing between the layer and its shadow")
    }

    @Test func anAncestorsMasksToBoundsClipsTheGradient() {
        let root = canvas(80, 80)
        let card = makeLayer(Rect(x: 10, y: 10, width: 60, height: 60))
        card.cornerRadius = 30
        card.masksToBounds = true
        let gradient = GradientLayer()
        gradient.frame = Rect(x: -10, y: -10, width: 80, height: 80)
        gradient.colors = redBlue
        card.addSublayer(gradient)
        root.addSublayer(card)
        let s = render(root)
        expectPixel(s, 12, 12, Palette.canvas.premultiplied, "outside the card's circle")
        expectPixel(s, 40, 40, expectedColor(redBlue, [0, 1], t: 40.5 / 80), tolerance: 1, "inside it (the gradient's own y is 40.5)")
        expectGolden(s, area: area, name: "clipped", tolerance: strict)
    }

    @Test func rendersAreTheSameOnOneThreadAndOnTwo() {
        let (root, _) = perspectiveScene()
        let one = render(root, compositor: Compositor(threads: 1)), two = render(root, compositor: Compositor(threads: 2))
        #expect(worstDifference(one) { x, y in two.pixel(x: x, y: y) }.difference == 0)
    }

    @Test func hostileValuesDrawNothingOrSomethingSensibleAndNeverTrap() {
        func scene(_ configure: (GradientLayer) -> Void) -> Surface {
            let (root, _) = gradientScene(32, 32, background: Palette.canvas) {
                $0.colors = redBlue
                configure($0)
            }
            return render(root)
        }
        let background = { (_: Int, _: Int) in Palette.canvas.premultiplied }
        #expect(worstDifference(scene { $0.startPoint = Point(x: .nan, y: 0) }, background).difference == 0, "NaN start: no gradient")
        #expect(worstDifference(scene { $0.endPoint = Point(x: 0, y: .infinity) }, background).difference == 0, "infinite end")
        #expect(worstDifference(scene { $0.endPoint = Point(x: 1e300, y: -1e300) }, background).difference == 0, "huge end")
        #expect(worstDifference(scene { $0.colors = [] }, background).difference == 0, "empty colours")
        #expect(worstDifference(scene { $0.locations = [] }, background).difference == 0, "empty locations: counts differ")
        // A first location at −10³⁰⁰ (held at −10⁹) stretches red → blue over a billion points: blue to the eye.
        let far = scene { $0.locations = [-1e300, 1] }
        #expect(worstDifference(far) { _, _ in Color.blue.premultiplied }.difference <= 1)
        let nan = scene {
            $0.locations = [.nan, .nan]
            $0.colors = [Color(red: .nan, green: 2, blue: -1, alpha: .infinity), .blue]
        }
        #expect(nan.pixel(x: 16, y: 16) == Color.blue.premultiplied, "NaN locations raised to 0 (a hard edge there); channels clamped")
        for type in GradientLayer.GradientType.allCases {
            _ = scene {
                $0.type = type
                $0.startPoint = Point(x: 1e9, y: -1e9)
                $0.endPoint = Point(x: 1e9, y: 1e-300)
                $0.locations = [-.infinity, .infinity]
            }
        }
    }

    @Test func tenThousandStopsAreDrawnInOrder() {
        let n = 10_000
        // A grey ramp made of 10,000 stops: the colour at t is grey t, whichever stops it falls between.
        let colors = (0..<n).map { Color(white: Double($0) / Double(n - 1)) }
        let (root, gradient) = gradientScene(8, 100) { $0.colors = colors }
        let ramp = worstDifference(render(root)) { _, y in expectedColor([.black, .white], [0, 1], t: (Double(y) + 0.5) / 100) }
        #expect(ramp.difference <= 1, "worst at \(ramp)")
        // Decreasing locations: each is raised to the first, 1, so before it the first colour everywhere.
        Transaction.withoutActions { gradient.locations = (0..<n).map { 1 - Double($0) / Double(n - 1) } }
        #expect(worstDifference(render(root)) { _, _ in Color.black.premultiplied }.difference == 0)
    }

    @Test(arguments: GradientLayer.GradientType.allCases)
    func eachTypeMatchesItsGolden(_ type: GradientLayer.GradientType) {
        let (root, _) = gradientScene(96, 96, background: Palette.canvas) {
            $0.type = type
            $0.colors = [Color(red: 0.95, green: 0.3, blue: 0.2), Color(red: 1, green: 0.85, blue: 0.2).withAlpha(0.6),
                         Color(red: 0.1, green: 0.4, blue: 0.9), Color(red: 0.95, green: 0.3, blue: 0.2)]
            $0.locations = [0, 0.3, 0.7, 1]
            $0.startPoint = type == .axial ? Point(x: 0.1, y: 0.2) : Point(x: 0.5, y: 0.5)
            $0.endPoint = type == .axial ? Point(x: 0.9, y: 0.7) : Point(x: 1, y: 0.8)
            $0.cornerRadius = 18
            $0.borderWidth = 2
            $0.borderColor = Palette.navy
        }
        expectGolden(render(root), area: area, name: "type-\(type.rawValue)", tolerance: strict)
    }
}
