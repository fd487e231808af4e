import LayerGraphics
@testable import LayerKit
import Testing

// Transactions, actions and implicit animations (SEMANTICS-ANIMATION.md §4), hosts and their clock (§1, §3).

/// A root with one sublayer, hosted by a manual host and rendered once at `time`.
private func hostedTree(at time: Double = 1, monotonic: Bool = false) -> (ManualHost, Layer, Layer) {
    let root = Layer(), card = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
    card.bounds = Rect(x: 0, y: 0, width: 40, height: 20)
    card.position = Point(x: 50, y: 50)
    root.addSublayer(card)
    let host = ManualHost(root: root, monotonic: monotonic)
    _ = host.snapshot(at: time)
    return (host, root, card)
}

private func opacity(_ host: ManualHost, at t: Double) -> Double { host.snapshot(at: t).sublayers[0].opacity }

private final class Recorder: AnimationDelegate {
    var events: [String] = []
    func animationDidStart(_ animation: Animation) { events.append("start") }
    func animationDidStop(_ animation: Animation, finished: Bool) { events.append(finished ? "stop" : "cancel") }
}

private final class ActionRecorder: Action {
    var runs: [(String, AnimationValue?)] = []
    func run(forKey event: String, object layer: Layer, previousValue: AnimationValue?) { runs.append((event, previousValue)) }
}

private final class Answering: LayerDelegate {
    let answer: Action?
    init(_ answer: Action?) { self.answer = answer }
    func action(for layer: Layer, forKey event: String) -> Action? { answer }
}

@Suite("Transactions and implicit animations")
struct TransactionTests {
    @Test func aChangeToAHostedLayerAnimatesFromWhatWasShownWithTheDefaultCurve() {
        let (host, _, card) = hostedTree(at: 1)
        card.opacity = 0.2
        #expect(card.opacity == 0.2, "the model changes at once")
        #expect(card.animationKeys() == ["opacity"])
        #expect(opacity(host, at: 1) == 1, "it begins now, at the time of the frame last built, from the value shown")
        let eased = TimingFunction.default.evaluate(0.5)
        #expect(abs(opacity(host, at: 1.125) - (1 + (0.2 - 1) * eased)) < 1e-12)
        #expect(opacity(host, at: 1.25) == 0.2)
        #expect(opacity(host, at: 5) == 0.2)
    }

    @Test func layersThatAreNotHostedOrWereNeverShownChangeAtOnce() {
        let layer = Layer()
        layer.opacity = 0.5
        #expect(layer.animationKeys() == nil, "a tree that is not hosted runs no actions")
        let (host, root, _) = hostedTree()
        let late = Layer()
        root.addSublayer(late)
        late.opacity = 0.3
        #expect(late.animationKeys() == nil, "a layer in no snapshot yet has nothing to animate from")
        _ = host.snapshot(at: 1)
        late.opacity = 0.6
        #expect(late.animationKeys() == ["opacity"])
    }

    @Test func disableActionsAndWithoutActionsShowChangesAtOnce() {
        let (host, _, card) = hostedTree()
        Transaction.begin()
        Transaction.disableActions = true
        card.opacity = 0.4
        Transaction.commit()
        Transaction.withoutActions { card.position = Point(x: 10, y: 10) }
        #expect(card.animationKeys() == nil)
        #expect(opacity(host, at: 1) == 0.4)
        #expect(host.snapshot(at: 1).sublayers[0].position == Point(x: 10, y: 10))
    }

    @Test func theTransactionSetsDurationAndTimingFunctionAndNests() {
        let (host, _, card) = hostedTree(at: 0)
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.animationTimingFunction = .linear
        Transaction.begin()
        #expect(Transaction.animationDuration == 2, "an inner scope reads the outer scope's setting")
        Transaction.animationDuration = 1
        card.position = Point(x: 150, y: 50)
        Transaction.commit()
        card.opacity = 0
        Transaction.commit()
        #expect(Transaction.animationDuration == 0.25, "outside every scope, the default again")
        // The animations began at 0, the time of the frame last built (§3).
        let s = host.snapshot(at: 0.5)
        #expect(s.sublayers[0].position.x == 100, "linear, 1 s: half-way at 0.5 s")
        #expect(s.sublayers[0].opacity == 0.75, "linear, 2 s: a quarter of the way at 0.5 s")
    }

    @Test func aSecondChangeReplacesTheFirstAndStartsFromWhereItWasShown() {
        let (host, _, card) = hostedTree(at: 0)
        Transaction.animationTimingFunction = .linear // the implicit transaction's setting, until the next snapshot
        card.position = Point(x: 150, y: 50)
        _ = host.snapshot(at: 0)
        let shown = host.snapshot(at: 0.125).sublayers[0].position.x
        #expect(shown == 100)
        Transaction.animationTimingFunction = .linear
        card.position = Point(x: 50, y: 50)
        #expect(card.animationKeys() == ["position"])
        #expect(host.snapshot(at: 0.125).sublayers[0].position.x == 100, "the new animation starts where the old one was")
        #expect(host.snapshot(at: 0.25).sublayers[0].position.x == 75)
    }

    @Test func theActionSearchAsksTheDelegateThenActionsThenStyleThenTheClass() {
        let (host, _, card) = hostedTree()
        defer { withExtendedLifetime(host) {} } // the host holds the root, which keeps the tree
        let custom = ActionRecorder(), styled = ActionRecorder()
        card.actions = ["opacity": custom]
        card.opacity = 0.5
        #expect(custom.runs.count == 1 && custom.runs[0].0 == "opacity")
        #expect(custom.runs[0].1 == .number(1), "the action hears the value shown before the change")
        #expect(card.animationKeys() == nil)

        card.actions = ["opacity": NullAction.shared]
        card.style = ["actions": ["opacity": styled] as [String: Action]]
        card.opacity = 0.6
        #expect(styled.runs.isEmpty, "NullAction in actions ends the search before the style")
        card.actions = nil
        card.opacity = 0.7
        #expect(styled.runs.count == 1)
        card.style = ["style": ["actions": ["opacity": NullAction.shared] as [String: Action]] as [String: Any]]
        card.opacity = 0.8
        #expect(card.animationKeys() == nil, "the style's own style is searched too")

        let delegate = Answering(NullAction.shared)
        card.style = nil
        withExtendedLifetime(delegate) { // a layer holds its delegate weakly
            card.delegate = delegate
            card.opacity = 0.1
            #expect(card.animationKeys() == nil, "the delegate's NullAction: no action")
        }
        let passing = Answering(nil)
        withExtendedLifetime(passing) {
            card.delegate = passing
            card.opacity = 0.2
            #expect(card.animationKeys() == ["opacity"], "nil from the delegate continues the search")
        }
        #expect(Layer.defaultAction(forKey: "isHidden") == nil && Layer.defaultAction(forKey: "position") != nil)
    }

    @Test func completionRunsWhenEveryAnimationOfTheScopeHasFinished() {
        let (host, _, card) = hostedTree(at: 0)
        var runs = 0
        Transaction.begin()
        Transaction.completionBlock = { runs += 1 }
        card.opacity = 0.5
        Transaction.begin()
        Transaction.animationDuration = 1
        card.position = Point(x: 0, y: 0)
        Transaction.commit()
        Transaction.commit()
        _ = host.snapshot(at: 0)
        _ = host.snapshot(at: 0.5)
        #expect(runs == 0, "the nested scope's 1 s animation is still running")
        _ = host.snapshot(at: 1)
        #expect(runs == 1)
        _ = host.snapshot(at: 0)
        _ = host.snapshot(at: 2)
        #expect(runs == 1, "once, even when a media host seeks back and replays")

        var empty = 0
        Transaction.begin()
        Transaction.completionBlock = { empty += 1 }
        Transaction.commit()
        #expect(empty == 1, "no animation: at the commit")
    }

    @Test func beginTimeZeroIsNowOnAHostedTreeAndZeroOtherwise() {
        let loose = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
        loose.add(a, forKey: "fade")
        #expect(loose.animation(forKey: "fade")?.beginTime == 0)
        #expect(loose.snapshot(at: 0.5).opacity == 0.5, "not hosted when added: the clock's zero")

        let (host, _, card) = hostedTree(at: 3)
        card.add(a, forKey: "fade")
        #expect(card.animation(forKey: "fade")?.beginTime == 3, "hosted: now, the time of the frame last built")
        #expect(card.presentation()?.opacity == 0, "what a render at 3 draws: the first state")
        _ = host.snapshot(at: 4)
        #expect(card.animation(forKey: "fade")?.beginTime == 3, "never the next snapshot's time")
        #expect(opacity(host, at: 3.25) == 0.25)
        a.beginTime = MediaTiming.beginTimeAtZero
        card.add(a, forKey: "zero")
        #expect(opacity(host, at: 4.5) == 1, "beginTimeAtZero: zero, hosted or not (over at 1: the model's 1 shows)")
        #expect(opacity(host, at: 0.5) == 0.5, "beginTimeAtZero: half-way at 0.5 (fade not begun yet)")
    }

    @Test func aWindowsClockIsNowBetweenItsFrames() {
        let (_, root, card) = hostedTree(at: 0)
        var clock = 0.25 // a window renders ahead of its clock: its next frame may be at 0.5
        root.setHostClock { clock }
        defer { root.setHostClock(nil) }
        #expect(card.currentMediaTime() == 0.25)
        Transaction.animationTimingFunction = .linear
        card.opacity = 0
        #expect(card.animation(forKey: "opacity")?.beginTime == 0.25, "the clock's now, not the frame last built (0)")
        #expect(card.presentation()?.opacity == 1)
        clock = 0.375
        #expect(card.presentation()?.opacity == 0.5, "presentation() follows the clock")
        #expect(root.snapshot(at: 0.375).sublayers[0].opacity == 0.5, "as a frame at that time draws")
    }

    @Test func delegatesHearStartAndStop() {
        let (host, _, card) = hostedTree(at: 0)
        let recorder = Recorder()
        let a = BasicAnimation(keyPath: "opacity")
        a.toValue = 0.0; a.duration = 1; a.delegate = recorder
        card.add(a, forKey: "fade")
        _ = host.snapshot(at: 0)
        #expect(recorder.events == ["start"])
        _ = host.snapshot(at: 0.5)
        _ = host.snapshot(at: 1)
        #expect(recorder.events == ["start", "stop"])
        card.add(a, forKey: "again")
        _ = host.snapshot(at: 1.2)
        card.removeAnimation(forKey: "again")
        #expect(recorder.events == ["start", "stop", "start", "cancel"])
    }

    @Test func presentationIsNilUntilShownAndThenTheHostsTime() {
        let layer = Layer()
        #expect(layer.presentation() == nil)
        let (host, _, card) = hostedTree(at: 0)
        Transaction.animationTimingFunction = .linear
        card.opacity = 0
        #expect(card.presentation()?.opacity == 1, "before the next snapshot: what was shown at 0")
        _ = host.snapshot(at: 0)
        _ = host.snapshot(at: 0.125)
        #expect(card.presentation()?.opacity == 0.5)
        #expect(card.model() === card && card.opacity == 0)
    }

    @Test func convertTimeGoesThroughEachLayersTiming() {
        let (host, root, card) = hostedTree()
        defer { withExtendedLifetime(host) {} }
        root.speed = 2; root.beginTime = 1
        card.timeOffset = 3; card.speed = 0.5
        // Down: root local = (t − 1)·2; card local = root local · 0.5 + 3.
        #expect(card.convertTime(5, from: nil) == ((5 - 1) * 2) * 0.5 + 3)
        #expect(abs(card.convertTime(card.convertTime(5, from: nil), to: nil) - 5) < 1e-12)
        #expect(root.convertTime(2, from: card) == (2 - 3) / 0.5)
        card.speed = 0
        #expect(card.convertTime(7, to: nil) == (0 / 2) + 1, "through a frozen layer: its beginTime")
    }

    @Test func monotonicHostsDetachFinishedAnimationsAndMediaHostsKeepThem() {
        for monotonic in [true, false] {
            let (host, _, card) = hostedTree(at: 0, monotonic: monotonic)
            card.opacity = 0.5
            _ = host.snapshot(at: 0.1)
            _ = host.snapshot(at: 1)
            #expect((card.animationKeys() == nil) == monotonic)
            #expect(opacity(host, at: 1) == 0.5)
        }
    }
}
