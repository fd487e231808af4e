import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// beginTime 0 on a hosted tree is the host's "now" at the commit (SEMANTICS-ANIMATION.md §3): after a frame at 0,
// an animation or transition added before the frame at 0.5 began at 0, so that frame shows it half-way, and
// `presentation(at:)` says what the render draws. (It used to begin at the next snapshot's time: the frame at 0.5
// showed its first state while `presentation(at: 0.5)` already said half-way.)

@Suite("beginTime 0 is the host's now")
struct BeginTimeNowTests {
    /// A black 40×20 canvas with a white 20×20 card at x 10…30, hosted and rendered once at 0.
    private func shownAtZero() -> (ManualHost, Layer) {
        let root = canvas(40, 20, background: .black)
        let card = makeLayer(Rect(x: 10, y: 0, width: 20, height: 20), background: .white)
        root.addSublayer(card)
        let host = ManualHost(root: root)
        _ = sharedCompositor.render(host.snapshot(at: 0), width: 40, height: 20)
        return (host, card)
    }

    @Test func anAnimationAddedAfterAFrameBeginsAtThatFrame() {
        let (host, card) = shownAtZero()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0; fade.toValue = 0.0; fade.duration = 1; fade.timingFunction = .linear
        card.add(fade, forKey: "fade")
        #expect(card.animation(forKey: "fade")?.beginTime == 0, "the host's now: the frame last built")
        #expect(card.presentation()?.opacity == 1, "now, before any other frame: the animation's first state")
        let predicted = card.presentation(at: 0.5)
        #expect(predicted.opacity == 0.5, "a 1 s animation begun at 0 is half-way at 0.5")
        let snapshot = host.snapshot(at: 0.5)
        #expect(snapshot.sublayers[0].opacity == predicted.opacity, "the frame at 0.5 is what presentation(at: 0.5) said")
        #expect(card.presentation()?.opacity == 0.5, "and presentation() now that the frame at 0.5 is built")
        let surface = sharedCompositor.render(snapshot, width: 40, height: 20)
        expectPixel(surface, 20, 10, over(.white, alpha: predicted.opacity, .black), tolerance: 1, "half-faded white")
        expectPixel(surface, 5, 10, PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "the canvas beside it")
    }

    @Test func aTransitionAddedAfterAFrameBeginsAtThatFrame() {
        let (host, card) = shownAtZero()
        Transaction.begin()
        Transaction.disableActions = true // the transition alone, no implicit colour animation beside it
        let transition = Transition()
        transition.type = .fade
        transition.duration = 1
        card.add(transition, forKey: nil)
        card.backgroundColor = .blue
        Transaction.commit()
        #expect(card.animation(forKey: "transition")?.beginTime == 0)
        let surface = sharedCompositor.render(host.snapshot(at: 0.5), width: 40, height: 20)
        expectPixel(surface, 20, 10, PremultipliedColor(r: 128, g: 128, b: 255, a: 255), tolerance: 1,
                    "half white (shown at 0), half blue: the 1 s fade is half-way at 0.5")
    }

    @Test func aLaterFrameTimeIsTheNewNow() {
        let (host, card) = shownAtZero()
        _ = host.snapshot(at: 2)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0; fade.toValue = 0.0; fade.duration = 1; fade.timingFunction = .linear
        card.add(fade, forKey: nil)
        #expect(card.animation(forKey: "animation-0")?.beginTime == 2)
        #expect(host.snapshot(at: 2.25).sublayers[0].opacity == 0.75)
    }
}
