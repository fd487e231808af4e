import LayerGraphics

/// What a host knows about the tree it renders (SEMANTICS-ANIMATION.md §1): the tree media time of its last
/// snapshot, its clock between snapshots, whether that clock can go back, and what waits on later snapshots.
final class HostRecord {
    /// The tree media time `T` of the last snapshot.
    var time: Double
    /// A host whose clock runs between snapshots (a window): its time now. Nil for hosts whose clock stands on the
    /// frame last built (an export, a still, a `ManualHost`).
    var clock: (() -> Double)?
    /// A clock that never goes back (a test's `ManualHost(monotonic: true)`): finished animations are detached.
    /// Media hosts (window, export) seek, so they keep finished animations attached and only ignore them.
    let isMonotonic: Bool
    /// Animations with a delegate, told when they start and stop.
    var watched: [StartedAnimation] = []
    var completions: [PendingCompletion] = []

    init(time: Double, monotonic: Bool) { self.time = time; isMonotonic = monotonic }

    /// The host's media time now (§3 "beginTime 0"): what an animation added now begins at, what `presentation()`
    /// shows and `currentMediaTime()` says — the clock's time in a window, the frame last built elsewhere.
    var now: Double { clock?() ?? time }
}

/// A host driven by hand: an app or a test that renders a tree at times of its choosing
/// (SEMANTICS-ANIMATION.md §1). Windows (`PlaybackSession`) and exports (`Exporter`) host their trees the same way.
public final class ManualHost {
    /// The tree this host drives.
    public let root: Layer
    private let record: HostRecord

    /// Hosts `root` at `time`.
    /// - Parameters:
    ///   - root: the tree to host.
    ///   - monotonic: the clock never goes back, so finished animations are detached (gone from
    ///     `animationKeys()`), as in an app on Core Animation's own clock.
    ///   - time: the host's clock at the start, in seconds.
    public init(root: Layer, monotonic: Bool = false, time: Double = 0) {
        self.root = root
        record = HostRecord(time: time, monotonic: monotonic)
        root.hostState = record
    }

    /// The tree media time of the last snapshot (Core Animation's `CACurrentMediaTime()` for this tree: a manual
    /// host's clock stands on the frame it last built).
    public var currentTime: Double { record.time }

    /// The tree at `time`, committing what was changed since the last snapshot.
    public func snapshot(at time: Double) -> LayerSnapshot { root.snapshot(at: time) }
}

extension Layer {
    /// The host record of this layer's tree (on its root, or the root of the layer it masks); nil when not hosted.
    func hostRecord() -> HostRecord? {
        var layer: Layer = self
        while true {
            if let record = layer.hostState { return record }
            if let parent = layer.superlayer ?? layer.maskedLayer { layer = parent } else { return nil }
        }
    }

    /// The layers from the root of the tree down to this one.
    private var ancestry: [Layer] {
        var chain: [Layer] = [self]
        while let parent = chain[chain.count - 1].superlayer ?? chain[chain.count - 1].maskedLayer { chain.append(parent) }
        return chain.reversed()
    }

    /// `t` on `layer`'s clock converted to this layer's clock; `nil` is the tree media time (the root's parent
    /// clock), as CALayer's `convertTime(_:from:)`.
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        let tree = layer.map { $0.treeTime(fromLocal: t) } ?? t
        var time = tree
        for l in ancestry { time = l.localTime(fromParentTime: time) }
        return time
    }

    /// `t` on this layer's clock converted to `layer`'s clock (`nil`: the tree media time).
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        let tree = treeTime(fromLocal: t)
        return layer.map { $0.convertTime(tree, from: nil) } ?? tree
    }

    /// This layer's local time back up to the tree media time: through each layer, `(t − timeOffset)/speed +
    /// beginTime`; a layer with speed 0 gives its `beginTime` (§3).
    private func treeTime(fromLocal t: Double) -> Double {
        var time = t
        for l in ancestry.reversed() {
            time = l.speed == 0 ? l.beginTime : (time - l.timeOffset) / l.speed + l.beginTime
        }
        return time
    }

    /// The layer's values at the tree's current media time (its host's now: the frame last built, or a window's
    /// clock), exactly what a render at that time draws; nil when the layer has never been in a snapshot or its
    /// tree is not hosted (CALayer's `presentation()`).
    ///
    /// A `LayerPresentation` value, not a layer as CALayer's presentation layer is: read its properties
    /// (`layer.presentation()?.position`, `.opacity`, `.value(forKeyPath: "transform.rotation.z")`); it has no tree and no
    /// methods of a layer: hit-test and convert with the model layer (`hitTest(_:)`, `convert(_:from:)`).
    public func presentation() -> LayerPresentation? {
        guard wasPresented, let host = hostRecord() else { return nil }
        return presentation(at: convertTime(host.now, from: nil))
    }

    /// The model: this layer (CALayer's `model()`; our presentations are values, not layers).
    public func model() -> Layer { self }

    /// What a host does before it takes a snapshot at `time` (§4 "Commit in a host"): commit the thread's implicit
    /// transaction (its `beginTime` 0 animations already begin at the host's time when they were added, §3).
    func prepareHostedSnapshot(at time: Double) {
        let record: HostRecord
        if let existing = hostState { record = existing } else {
            // A tree rendered by hand is hosted from then on, as a still render hosts it (§1).
            record = HostRecord(time: time, monotonic: false)
            hostState = record
        }
        TransactionStack.current.commitImplicit()
        record.time = time
    }

    /// Declares that this tree's host runs on `clock` between its snapshots (a window's playback clock): an
    /// animation added with `beginTime` 0 then begins at `clock()`, and `presentation()` and `currentMediaTime()`
    /// read it (§3). Nil: the host's time is the frame it built last (an export, a still). Call it on the root;
    /// the tree is hosted from then on.
    public func setHostClock(_ clock: (() -> Double)?) {
        if hostState == nil { hostState = HostRecord(time: clock?() ?? 0, monotonic: false) }
        hostState?.clock = clock
    }

    /// What a host does after a snapshot at `time`: tell delegates, run completion blocks whose animations are all
    /// over, and (monotonic hosts only) detach finished animations.
    func finishHostedSnapshot(at time: Double) {
        guard let record = hostState else { return }
        record.watched.removeAll { watched in
            guard let layer = watched.layer else { return true }
            let animation = watched.animation
            let local = layer.convertTime(time, from: nil)
            guard let delegate = animation.delegate else { return true }
            if !animation.didReportStart, local >= animation.beginTime {
                animation.didReportStart = true
                delegate.animationDidStart(animation)
            }
            if animation.didReportStart, animation.hasEnded(at: local) {
                delegate.animationDidStop(animation, finished: true)
                return true
            }
            return false
        }
        record.completions.removeAll { pending in
            let over = pending.animations.allSatisfy { started in
                guard let layer = started.layer, layer.isAttached(started.animation) else { return true }
                return started.animation.hasEnded(at: layer.convertTime(time, from: nil))
            }
            if over { pending.block() }
            return over
        }
        if record.isMonotonic { detachFinishedAnimations(at: time) }
    }

    private func detachFinishedAnimations(at parentTime: Double) {
        let local = localTime(fromParentTime: parentTime)
        animationEntries.removeAll { $0.animation.isRemovedOnCompletion && $0.animation.hasEnded(at: local) }
        for layer in storedSublayers { layer.detachFinishedAnimations(at: local) }
        mask?.detachFinishedAnimations(at: local)
    }

    func isAttached(_ animation: Animation) -> Bool { animationEntries.contains { $0.animation === animation } }
}

extension MediaTiming {
    /// A begin time that means the clock's zero even on a hosted tree, where 0 means "now" (§3; the value CAML
    /// files and AVFoundation's `AVCoreAnimationBeginTimeAtZero` use).
    public static let beginTimeAtZero = 1e-100
}

extension Layer {
    /// The tree media time now, Core Animation's `CACurrentMediaTime()` for this layer's tree (there is no global
    /// clock: a window, an export and a still each have their own): a window's clock, else the time of the host's
    /// last snapshot; nil when the tree is not hosted. "Now" on this layer's own clock is
    /// `convertTime(currentMediaTime()!, from: nil)`.
    public func currentMediaTime() -> Double? { hostRecord()?.now }
}
