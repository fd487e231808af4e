import Foundation
import LayerGraphics
@testable import LayerKit
import Testing

// The model side of GradientLayer (SEMANTICS-LAYERS.md §3 and §0.1): defaults, what its payload carries (stops
// resolved and sanitised), and its animatable keys.

@Suite("GradientLayer: model and payload")
struct GradientPayloadTests {
    /// The payload of a snapshot of `layer` (the snapshot hosts it: later changes go through `set`, without actions).
    func payload(_ layer: GradientLayer, at time: Double = 0) -> GradientPayload? {
        layer.snapshot(at: time).payload as? GradientPayload
    }

    func set(_ change: () -> Void) { Transaction.withoutActions(change) }

    @Test func defaultsAreCoreAnimations() {
        let g = GradientLayer()
        #expect(g.colors == nil && g.locations == nil && g.type == .axial)
        #expect(g.startPoint == Point(x: 0.5, y: 0) && g.endPoint == Point(x: 0.5, y: 1))
        #expect(payload(g)?.drawsGradient == false, "no colours: nothing")
    }

    @Test func nilLocationsSpreadEvenlyButEmptyOnesAreAMismatch() {
        let g = GradientLayer()
        g.colors = [.red, .green, .blue]
        #expect(payload(g)?.locations == [0, 0.5, 1])
        set { g.locations = [] }
        #expect(payload(g)?.drawsGradient == false, "a count other than the colours' [book]")
        set { g.locations = [0, 0.25, 0.5] }
        #expect(payload(g)?.locations == [0, 0.25, 0.5])
        set {
            g.colors = [.red]
            g.locations = nil
        }
        #expect(payload(g)?.locations == [0], "one colour: a solid fill")
    }

    @Test func hostileValuesAreSanitised() {
        let p = GradientPayload(colors: [Color(red: .nan, green: 2, blue: -1, alpha: 0.5), .blue, .red, .green],
                                locations: [.nan, 0.5, 0.2, -.infinity], startPoint: .zero, endPoint: Point(x: 1, y: 1), type: .axial)
        #expect(p.colors[0] == Color(red: 0, green: 1, blue: 0, alpha: 0.5))
        #expect(p.locations == [0, 0.5, 0.5, 0.5], "NaN first is 0, decreasing ones are raised to their predecessor")
        let huge = GradientPayload(colors: [.red, .blue], locations: [-1e300, 1e300], startPoint: .zero, endPoint: Point(x: 1, y: 1), type: .axial)
        #expect(huge.locations == [-1e9, 1e9])
        for bad in [Point(x: .nan, y: 0), Point(x: 0, y: .infinity), Point(x: 2e9, y: 0)] {
            let p = GradientPayload(colors: [.red, .blue], locations: nil, startPoint: bad, endPoint: .zero, type: .radial)
            #expect(!p.drawsGradient, "\(bad): no gradient")
        }
    }

    @Test func coloursLocationsAndPointsAreAnimatableAndTypeIsNot() {
        let keys = GradientLayer.animatableProperties.map(\.key)
        #expect(Set(keys).isSuperset(of: ["colors", "locations", "startPoint", "endPoint"]))
        #expect(!keys.contains("type"))
        let g = GradientLayer()
        g.colors = [.red, .blue]
        #expect(g.value(forKey: "colors") == .colors([.red, .blue]))
        #expect(g.value(forKey: "startPoint") == .point(Point(x: 0.5, y: 0)))
        #expect(Layer().value(forKey: "colors") == nil)
    }

    @Test func anAnimationOfEndPointReachesThePayload() {
        let g = GradientLayer()
        g.colors = [.red, .blue]
        let move = BasicAnimation(keyPath: "endPoint")
        move.fromValue = Point(x: 0, y: 0)
        move.toValue = Point(x: 1, y: 0)
        move.duration = 1
        g.add(move, forKey: "move")
        #expect(payload(g, at: 0.25)?.endPoint == Point(x: 0.25, y: 0))
        #expect(g.endPoint == Point(x: 0.5, y: 1), "the model is untouched")
    }

    @Test func colourAndNumberArraysInterpolateElementWiseOrSwitchHalfWay() {
        let a = AnimationValue.colors([.red, .black]), b = AnimationValue.colors([.blue, .white])
        #expect(a.interpolated(to: b, 0.5) == .colors([Color(red: 0.5, green: 0, blue: 0.5), Color(white: 0.5)]))
        let c = AnimationValue.colors([.blue])
        #expect(a.interpolated(to: c, 0.49) == a && a.interpolated(to: c, 0.5) == c)
        #expect(AnimationValue.numbers([0, 1]).interpolated(to: .numbers([1, 3]), 0.25) == .numbers([0.25, 1.5]))
        #expect(AnimationValue.numbers([0]).interpolated(to: .numbers([1, 3]), 0.75) == .numbers([1, 3]))
        #expect(([] as [Color]).animationValue == .colors([]) && ([] as [Double]).animationValue == .numbers([]),
                "an empty array keeps its element type")
    }
}
