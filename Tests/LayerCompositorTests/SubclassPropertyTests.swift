import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// The open property model end to end (ARCHITECTURE.md, "Each layer class owns its behaviour"): a layer class the
// library has never seen declares an animatable property, animations of it (explicit and implicit) run through
// LayerPresentation.extras, its payload carries the animated value into the snapshot, and the pixels show it.

/// A level meter: a green bar `level` × the width, drawn from its payload (not from the model).
final class MeterLayer: Layer {
    var level = 0.0 {
        didSet { didChangeValue(forKey: "level", from: oldValue) }
    }

    override class var animatableProperties: [AnimatableProperty] {
        super.animatableProperties + [AnimatableProperty("level") { (meter: MeterLayer) in meter.level }]
    }

    struct Payload: DrawnLayerPayload, Equatable {
        var level: Double
        func draw(in context: DrawingContext, bounds: Rect) {
            context.setFillColor(.green)
            context.fill(Rect(x: bounds.minX, y: bounds.minY, width: bounds.width * min(max(level, 0), 1), height: bounds.height))
        }
    }

    override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        guard case .number(let level)? = presentation.extras["level"] else { return nil }
        return Payload(level: level)
    }
}

@Suite("A subclass's own animatable property")
struct SubclassPropertyTests {
    /// A 100×10 meter on a 100×10 canvas.
    func scene() -> (Layer, MeterLayer) {
        let root = canvas(100, 10, background: .black)
        let meter = MeterLayer()
        meter.frame = Rect(x: 0, y: 0, width: 100, height: 10)
        root.addSublayer(meter)
        return (root, meter)
    }

    /// The first column from the left that is not green (the bar's end), on the middle row.
    func barEnd(_ root: Layer, at time: Double) -> Int {
        let surface = sharedCompositor.render(root.snapshot(at: time), width: 100, height: 10)
        return (0..<100).first { surface.pixel(x: $0, y: 5) != PremultipliedColor(r: 0, g: 255, b: 0, a: 255) } ?? 100
    }

    @Test func anExplicitAnimationOfTheDeclaredKeyDrawsTheAnimatedValue() {
        let (root, meter) = scene()
        let fill = BasicAnimation(keyPath: "level")
        fill.fromValue = 0.0
        fill.toValue = 1.0
        fill.duration = 1
        meter.add(fill, forKey: "fill")
        #expect(meter.level == 0, "the model is untouched")
        #expect(barEnd(root, at: 0.25) == 25)
        #expect(barEnd(root, at: 0.5) == 50)
        #expect(barEnd(root, at: 2) == 0, "removed on completion: the model's level again")
    }

    @Test func aChangeOfTheDeclaredKeyAnimatesImplicitlyOnAHostedTree() {
        let (root, meter) = scene()
        meter.level = 0.2
        #expect(meter.animationKeys() == nil, "not hosted yet: at once")
        #expect(barEnd(root, at: 0) == 20)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        meter.level = 0.8
        Transaction.commit()
        #expect(meter.animationKeys() == ["level"])
        #expect(barEnd(root, at: 0) == 20, "it begins at the next snapshot, from what was shown")
        #expect(barEnd(root, at: 0.5) == 50)
        #expect(barEnd(root, at: 1) == 80)
        #expect(meter.value(forKey: "level") == .number(0.8))
        #expect(MeterLayer.defaultAction(forKey: "level") != nil && Layer.defaultAction(forKey: "level") == nil)
    }
}
