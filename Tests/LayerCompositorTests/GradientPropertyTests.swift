import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// Each property of a gradient layer and its rules (SEMANTICS-LAYERS.md §3): locations, clamping, hard edges, one
// colour, the degenerate points, the draw order against background, contents, sublayers and border, and animations
// of colours, locations and points, explicit and implicit.

@Suite("GradientLayer: properties and animation")
struct GradientPropertyTests {
    let redBlue: [Color] = [.red, .blue]

    /// The colour of the middle column at row y of a 100-tall default (top → bottom) gradient.
    func column(_ s: Surface, _ y: Int) -> PremultipliedColor { s.pixel(x: 5, y: y) }

    @Test func locationsPlaceTheStopsAndTheEndsAreClamped() {
        let (root, _) = gradientScene(10, 100) {
            $0.colors = redBlue
            $0.locations = [0.3, 0.7]
        }
        let s = render(root)
        let worst = worstDifference(s) { _, y in expectedColor(redBlue, [0.3, 0.7], t: (Double(y) + 0.5) / 100) }
        #expect(worst.difference <= 1, "worst at \(worst)")
        expectPixel(s, 5, 10, Color.red.premultiplied, "before the first location: the first colour")
        expectPixel(s, 5, 90, Color.blue.premultiplied, "after the last: the last colour")
    }

    @Test func equalLocationsMakeAHardEdgeAndADecreasingOneIsRaised() {
        for locations in [[0.5, 0.5], [0.5, 0.2]] {
            let (root, _) = gradientScene(10, 100) {
                $0.colors = redBlue
                $0.locations = locations
            }
            let s = render(root)
            expectPixel(s, 5, 49, Color.red.premultiplied, "\(locations): above the edge")
            expectPixel(s, 5, 50, Color.blue.premultiplied, "\(locations): the later stop from the edge on")
        }
    }

    @Test func oneColourIsASolidFillAndNoColoursDrawNothing() {
        let (root, gradient) = gradientScene(20, 20, background: Palette.canvas) { $0.colors = [Palette.teal] }
        // Teal's green is 140.25: the dither makes it 140 or 141.
        #expect(worstDifference(render(root)) { _, _ in Palette.teal.premultiplied }.difference <= 1)
        // The tree is hosted once rendered: changes without actions show at once.
        Transaction.withoutActions { gradient.colors = [] }
        #expect(worstDifference(render(root)) { _, _ in Palette.canvas.premultiplied }.difference == 0)
        Transaction.withoutActions { gradient.colors = nil }
        #expect(worstDifference(render(root)) { _, _ in Palette.canvas.premultiplied }.difference == 0)
    }

    @Test func equalPointsShowTheLastColour() {
        for type in GradientLayer.GradientType.allCases where type != .conic {
            let (root, _) = gradientScene(20, 20) {
                $0.type = type
                $0.colors = redBlue
                $0.startPoint = Point(x: 0.3, y: 0.3)
                $0.endPoint = Point(x: 0.3, y: 0.3)
            }
            let s = render(root)
            // Radial: t is infinite off the centre (both semi-axes 0), so the last colour everywhere but the centre.
            let worst = worstDifference(s, where: { x, y in x != 6 || y != 6 }) { _, _ in Color.blue.premultiplied }
            #expect(worst.difference == 0, "\(type): worst at \(worst)")
        }
    }

    @Test func aRadialGradientWithOneZeroSemiAxisShowsTheLastColourOffItsCentreLine() {
        // The default points give rx = 0: a radial gradient needs both points set.
        let (root, _) = gradientScene(21, 20) {
            $0.type = .radial
            $0.colors = redBlue
        }
        let s = render(root)
        // The centre line x = 10.5 runs through pixel 10's centre: t = |Δy|/ry there; elsewhere the last colour.
        #expect(worstDifference(s, where: { x, _ in x != 10 }) { _, _ in Color.blue.premultiplied }.difference == 0)
        let line = worstDifference(s, where: { x, _ in x == 10 }) { _, y in expectedColor(redBlue, [0, 1], t: (Double(y) + 0.5) / 20) }
        #expect(line.difference <= 1, "worst at \(line)")
    }

    @Test func theGradientLiesOverTheBackgroundAndBelowContentsSublayersAndBorder() {
        let (root, gradient) = gradientScene(40, 40) {
            $0.colors = [Color.red.withAlpha(0.5), Color.red.withAlpha(0.5)]
            $0.backgroundColor = .blue
            $0.borderWidth = 4
            $0.borderColor = .green
        }
        gradient.contents = .image(Image(width: 4, height: 4) { px in
            for i in 0..<16 { px[i] = i < 8 ? Color.white.premultiplied.bgra : 0 }
        })
        gradient.contentsGravity = .resize
        let sub = makeLayer(Rect(x: 25, y: 25, width: 10, height: 10), background: Palette.orange)
        gradient.addSublayer(sub)
        let s = render(root)
        expectPixel(s, 10, 30, over(.red, alpha: 0.5, .blue), tolerance: 1, "half-transparent red over the blue background")
        expectPixel(s, 10, 10, Color.white.premultiplied, "the contents above the gradient")
        expectPixel(s, 30, 30, Palette.orange.premultiplied, "the sublayer above")
        expectPixel(s, 1, 30, Color.green.premultiplied, "the border above everything")
    }

    @Test func roundedCornersAreFilledWithoutMasksToBounds() {
        let (root, gradient) = gradientScene(60, 60, background: Palette.canvas) {
            $0.colors = redBlue
            $0.cornerRadius = 20
        }
        #expect(!gradient.masksToBounds)
        let s = render(root)
        expectPixel(s, 1, 1, Palette.canvas.premultiplied, "outside the rounded corner: the canvas")
        expectPixel(s, 58, 58, Palette.canvas.premultiplied, "and at every corner")
        expectPixel(s, 30, 1, expectedColor(redBlue, [0, 1], t: 1.5 / 60), tolerance: 1, "the top edge between the corners")
        // The corner circle (centre (20, 20), radius 20) passes 0.19 inside pixel (6, 5)'s centre: about 70% covered.
        let rim = s.pixel(x: 6, y: 5)
        #expect(rim.b > 40 && rim.b < 200, "the rim is antialiased, between the gradient's blue (23) and the canvas's (235): \(rim)")
        gradient.maskedCorners = [.layerMaxXMaxYCorner]
        let one = render(root)
        expectPixel(one, 1, 1, expectedColor(redBlue, [0, 1], t: 1.5 / 60), tolerance: 1, "an unmasked corner stays square")
        expectPixel(one, 58, 58, Palette.canvas.premultiplied, "the masked one is round")
    }

    @Test func anExplicitAnimationOfColoursMixesThemElementWise() {
        let (root, gradient) = gradientScene(10, 10) { $0.colors = [.red, .red] }
        let fade = BasicAnimation(keyPath: "colors")
        fade.fromValue = AnimationValue.colors([.red, .red])
        fade.toValue = AnimationValue.colors([.blue, .blue])
        fade.duration = 1
        gradient.add(fade, forKey: "fade")
        let s = root.snapshot(at: 0.5)
        let surface = sharedCompositor.render(s, width: 10, height: 10)
        expectPixel(surface, 5, 5, PremultipliedColor(r: 128, g: 0, b: 128, a: 255), tolerance: 1, "half-way between")
        #expect(gradient.colors == [.red, .red], "the model is untouched")
    }

    @Test func colourArraysOfDifferentCountsSwitchHalfWay() {
        let (root, gradient) = gradientScene(10, 10) { $0.colors = [.red] }
        let change = BasicAnimation(keyPath: "colors")
        change.fromValue = AnimationValue.colors([.red])
        change.toValue = AnimationValue.colors([.blue, .blue])
        change.duration = 1
        gradient.add(change, forKey: "change")
        expectPixel(sharedCompositor.render(root.snapshot(at: 0.4), width: 10, height: 10), 5, 5, Color.red.premultiplied)
        expectPixel(sharedCompositor.render(root.snapshot(at: 0.6), width: 10, height: 10), 5, 5, Color.blue.premultiplied)
    }

    @Test func anAnimationOfLocationsMovesTheStops() {
        let (root, gradient) = gradientScene(10, 100) {
            $0.colors = redBlue
            $0.locations = [0.2, 0.2]
        }
        let move = BasicAnimation(keyPath: "locations")
        move.fromValue = AnimationValue.numbers([0.2, 0.2])
        move.toValue = AnimationValue.numbers([0.6, 0.6])
        move.duration = 1
        gradient.add(move, forKey: "move")
        let s = sharedCompositor.render(root.snapshot(at: 0.5), width: 10, height: 100)
        expectPixel(s, 5, 39, Color.red.premultiplied, "the hard edge is at t = 0.4 half-way")
        expectPixel(s, 5, 40, Color.blue.premultiplied)
    }

    @Test func aShimmerAnimatesLocationsOutsideTheUnitRange() {
        let white = Color.white, grey = Color(white: 0.5)
        let (root, gradient) = gradientScene(100, 10) {
            $0.colors = [grey, white, grey]
            $0.locations = [-0.4, -0.2, 0]
            $0.startPoint = Point(x: 0, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        let sweep = BasicAnimation(keyPath: "locations")
        sweep.fromValue = AnimationValue.numbers([-0.4, -0.2, 0])
        sweep.toValue = AnimationValue.numbers([1, 1.2, 1.4])
        sweep.duration = 1
        gradient.add(sweep, forKey: "shimmer")
        // Half-way the locations are 0.3, 0.5, 0.7: the white highlight is at x = 50.
        let s = sharedCompositor.render(root.snapshot(at: 0.5), width: 100, height: 10)
        let worst = worstDifference(s) { x, _ in expectedColor([grey, white, grey], [0.3, 0.5, 0.7], t: (Double(x) + 0.5) / 100) }
        #expect(worst.difference <= 1, "worst at \(worst)")
    }

    @Test func pointsAndColoursAnimateImplicitlyOnAHostedTree() {
        let (root, gradient) = gradientScene(100, 10) {
            $0.colors = redBlue
            $0.startPoint = Point(x: 0, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        _ = root.snapshot(at: 0)   // hosted from now on
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        gradient.endPoint = Point(x: 0.5, y: 0.5)
        gradient.locations = [0, 1]
        Transaction.commit()
        #expect(Set(gradient.animationKeys() ?? []) == ["endPoint", "locations"])
        _ = root.snapshot(at: 0)
        // Half-way the end is at x = 0.75: t = (x + 0.5)/75.
        let s = sharedCompositor.render(root.snapshot(at: 0.5), width: 100, height: 10)
        let worst = worstDifference(s) { x, _ in expectedColor(redBlue, [0, 1], t: (Double(x) + 0.5) / 75) }
        #expect(worst.difference <= 1, "worst at \(worst)")
        #expect(GradientLayer.defaultAction(forKey: "colors") != nil && GradientLayer.defaultAction(forKey: "type") == nil)
    }

    @Test func aGroupOpacityAppliesToTheGradient() {
        let (root, gradient) = gradientScene(10, 10, background: .white) { $0.colors = [.blue, .blue] }
        gradient.opacity = 0.5
        expectPixel(render(root), 5, 5, over(.blue, alpha: 0.5, .white), tolerance: 1)
    }
}
