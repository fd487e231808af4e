import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// Transition (SEMANTICS-ANIMATION.md §9): the old appearance (the layer's node in the last snapshot, frozen) turning
// into the new one, by fade, moveIn, push or reveal, clipped to the bounds; the layer's own placement and group
// effects are the live ones.

@Suite("Transitions")
struct TransitionTests {
    let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
    let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
    let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)

    /// A black 40×20 canvas with a 20×20 card at x 10…30, red, shown once at 0; then, in one transaction, a 1 s
    /// linear transition of `type` and the card turned blue.
    func scene(_ type: TransitionType, _ subtype: TransitionSubtype? = .fromRight, start: Double = 0,
               end: Double = 1) -> (ManualHost, Layer) {
        let root = canvas(40, 20, background: .black)
        let card = makeLayer(Rect(x: 10, y: 0, width: 20, height: 20), background: .red)
        root.addSublayer(card)
        let host = ManualHost(root: root)
        _ = host.snapshot(at: 0)
        Transaction.begin()
        Transaction.disableActions = true // the transition alone (no implicit colour animation beside it)
        let transition = Transition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = 1
        transition.startProgress = start
        transition.endProgress = end
        card.add(transition, forKey: "anything")
        card.backgroundColor = .blue
        Transaction.commit()
        _ = host.snapshot(at: 0) // the first frame after the change (the transition began at 0, the frame last built)
        return (host, card)
    }

    func render(_ host: ManualHost, at t: Double) -> Surface {
        sharedCompositor.render(host.snapshot(at: t), width: 40, height: 20)
    }

    @Test func fadeMixesOldAndNewPerPixel() {
        let (host, card) = scene(.fade)
        #expect(card.animationKeys() == ["transition"], "a transition is always under \"transition\"")
        let s = render(host, at: 0.5)
        expectPixel(s, 20, 10, PremultipliedColor(r: 128, g: 0, b: 128, a: 255), tolerance: 1, "half red, half blue")
        expectPixel(s, 5, 10, black)
        expectPixel(render(host, at: 0), 20, 10, red, "p = 0: the old")
        expectPixel(render(host, at: 2), 20, 10, blue, "over: the new, live")
    }

    @Test func pushMovesBothAndClipsToTheBounds() {
        let (host, _) = scene(.push)
        let s = render(host, at: 0.5)
        expectPixel(s, 12, 10, red, "the old, pushed half-way out to the left")
        expectPixel(s, 28, 10, blue, "the new, half-way in from the right")
        expectPixel(s, 5, 10, black, "nothing outside the bounds")
        expectPixel(s, 35, 10, black, "nothing outside the bounds")
    }

    @Test func moveInSlidesTheNewOverTheStillOld() {
        let (host, _) = scene(.moveIn)
        let s = render(host, at: 0.25)
        expectPixel(s, 24, 10, red, "the old where the new has not reached")
        expectPixel(s, 26, 10, blue, "the new, a quarter of the way in")
        expectPixel(s, 35, 10, black)
    }

    @Test func revealSlidesTheOldOffTheStillNew() {
        let (host, _) = scene(.reveal, .fromTop)
        // fromTop: the old leaves towards the bottom (e = (0, −1), the old at −p·E·e).
        let s = render(host, at: 0.25)
        expectPixel(s, 20, 3, blue, "the new, uncovered at the top")
        expectPixel(s, 20, 12, red, "the old, moved down a quarter")
    }

    @Test func withoutAnEarlierSnapshotTheOldIsTransparent() {
        let root = canvas(40, 20, background: .black)
        let card = makeLayer(Rect(x: 10, y: 0, width: 20, height: 20), background: .blue)
        root.addSublayer(card)
        let transition = Transition()
        transition.duration = 1
        card.add(transition, forKey: nil)
        let s = sharedCompositor.render(root.snapshot(at: 0.5), width: 40, height: 20)
        expectPixel(s, 20, 10, PremultipliedColor(r: 0, g: 0, b: 128, a: 255), tolerance: 1, "half of the new over black")
    }

    @Test func progressRunsFromStartToEndProgress() {
        // Start 0.5, end 0.2 (before the start: the start): half-way all along.
        let (host, card) = scene(.fade, start: 0.5, end: 0.2)
        for t in [0.1, 0.9] {
            expectPixel(render(host, at: t), 20, 10, PremultipliedColor(r: 128, g: 0, b: 128, a: 255), tolerance: 1, "at \(t) s")
        }
        #expect(card.animation(forKey: "transition") is Transition)
    }

    @Test func afterItsFirstTransitionALayerFadesFromWhatWasShownWhateverTheOrder() {
        let (host, card) = scene(.fade)
        _ = render(host, at: 2) // the first transition is over: blue is shown
        Transaction.begin()
        Transaction.disableActions = true
        card.backgroundColor = .green // changed before the transition is added
        let again = Transition()
        again.duration = 1
        card.add(again, forKey: nil)
        Transaction.commit()
        _ = host.snapshot(at: 2)
        expectPixel(render(host, at: 2.5), 20, 10, PremultipliedColor(r: 0, g: 128, b: 128, a: 255), tolerance: 1,
                    "half blue (shown last), half green")
    }
}
