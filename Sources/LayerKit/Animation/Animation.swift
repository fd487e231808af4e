import LayerGraphics

/// The base of animations (CAAnimation): timing, a timing function, and whether it is removed when done.
///
/// Adding an animation to a layer copies it (as Core Animation does): changing it afterwards changes nothing.
/// Animations never change the model value of a layer; the snapshot's (presentation) value is what renders.
///
/// An animation belongs to the thread that builds its tree, as a layer does: the stored properties read each frame
/// are `@exclusivity(unchecked)` (the run-time checks were an eighth of a snapshot's time, `layerplay bench --snapshot`).
open class Animation: @unchecked Sendable {
    /// The media-timing values (begin time, duration, speed, repeats, fill mode) that the properties below read and write.
    @exclusivity(unchecked) public var timing = MediaTiming()
    /// nil means linear (Core Animation's default for explicit animations).
    @exclusivity(unchecked) public var timingFunction: TimingFunction?
    /// When true (the default) the animation has no effect once its active time is over, whatever its fill mode.
    @exclusivity(unchecked) public var isRemovedOnCompletion = true
    /// Told when the animation starts and stops (CAAnimationDelegate). Held strongly, as Core Animation does.
    public var delegate: AnimationDelegate?
    /// What the host has told the delegate so far (on the attached copy).
    var didReportStart = false, didReportStop = false

    /// An animation with the default timing: 0.25 s once, no fill, removed on completion.
    public init() {}

    // The timing properties under Core Animation's names.
    /// When the animation starts, in its parent's time (0: when it is added).
    public var beginTime: Double { get { timing.beginTime } set { timing.beginTime = newValue } }
    /// Seconds of one iteration (0: the default 0.25 s).
    public var duration: Double { get { timing.duration } set { timing.duration = newValue } }
    /// How fast its time runs relative to its parent's (2: twice as fast).
    public var speed: Double { get { timing.speed } set { timing.speed = newValue } }
    /// Seconds added to its local time (starts it part way through).
    public var timeOffset: Double { get { timing.timeOffset } set { timing.timeOffset = newValue } }
    /// How many iterations (fractions allowed; `.infinity` for ever).
    public var repeatCount: Double { get { timing.repeatCount } set { timing.repeatCount = newValue } }
    /// How long it repeats, in seconds, instead of a count.
    public var repeatDuration: Double { get { timing.repeatDuration } set { timing.repeatDuration = newValue } }
    /// Whether each iteration plays forwards and then backwards.
    public var autoreverses: Bool { get { timing.autoreverses } set { timing.autoreverses = newValue } }
    /// Whether its values hold before it starts and after it ends.
    public var fillMode: FillMode { get { timing.fillMode } set { timing.fillMode = newValue } }

    /// A copy with the same settings (subclasses extend it).
    open func copy() -> Animation {
        let c = Animation()
        c.copySettings(from: self)
        return c
    }

    func copySettings(from other: Animation) {
        timing = other.timing
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        delegate = other.delegate
    }

    /// Changes the presentation values for `time` on the layer's clock. The base class animates nothing.
    open func apply(to presentation: inout LayerPresentation, at time: Double) {}

    /// Where the animation is at `time` on its parent's clock (SEMANTICS-ANIMATION.md §3), or nil when it has no
    /// effect then.
    public func basicTime(at time: Double) -> BasicTime? {
        timing.basicTime(at: time, isRemovedOnCompletion: isRemovedOnCompletion)
    }

    /// The timing function applied to a progress (keyframe animations with per-segment functions skip it).
    func ease(_ progress: Double) -> Double { (timingFunction ?? .linear).evaluate(progress) }

    /// The timing function applied to where the animation is at `time`, or nil when it has no effect then.
    public func easedProgress(at time: Double) -> (iteration: Double, fraction: Double)? {
        basicTime(at: time).map { ($0.iteration, ease($0.progress)) }
    }

    /// Whether the animation has ended for good at `time` (past its active span and removed on completion, or with no
    /// forwards fill).
    public func isFinished(at time: Double) -> Bool {
        timing.isFinished(at: time, isRemovedOnCompletion: isRemovedOnCompletion)
    }

    /// Whether `time` is past the active span (whatever the fill mode): the animation has run its course.
    func hasEnded(at time: Double) -> Bool {
        time - timing.beginTime >= timing.activeDuration
    }
}

/// Hears when an animation starts and stops (CAAnimationDelegate). Both have empty defaults.
public protocol AnimationDelegate: AnyObject {
    /// At the first snapshot at or after the animation's begin time.
    func animationDidStart(_ animation: Animation)
    /// At the first snapshot past its active span (`finished` true), or when it is removed first (false).
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation) {}
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// Turns a number into a transform for animations of `transform` with numeric values (CAValueFunction).
public enum ValueFunction: Sendable, Equatable {
    /// A rotation about the x, y or z axis by the value in radians.
    case rotateX, rotateY, rotateZ
    /// *(ours)* A rotation about any axis through the anchor point.
    case rotate(axisX: Double, axisY: Double, axisZ: Double)
    /// A scale of all three axes, or of one, by the value.
    case scale, scaleX, scaleY, scaleZ
    /// A translation along x, y or z by the value.
    case translateX, translateY, translateZ

    /// The transform for the value `v`.
    public func transform(_ v: Double) -> Transform3D {
        switch self {
        case .rotateX: return .makeRotation(v, 1, 0, 0)
        case .rotateY: return .makeRotation(v, 0, 1, 0)
        case .rotateZ: return .makeRotation(v, 0, 0, 1)
        case let .rotate(x, y, z): return .makeRotation(v, x, y, z)
        case .scale: return .makeScale(v, v, v)
        case .scaleX: return .makeScale(v, 1, 1)
        case .scaleY: return .makeScale(1, v, 1)
        case .scaleZ: return .makeScale(1, 1, v)
        case .translateX: return .makeTranslation(v, 0, 0)
        case .translateY: return .makeTranslation(0, v, 0)
        case .translateZ: return .makeTranslation(0, 0, v)
        }
    }

    /// The function Core Animation applies to an additive animation of a transform component key path.
    static func forComponent(_ k: TransformKeyPath) -> ValueFunction {
        switch k {
        case .rotationX: return .rotateX
        case .rotationY: return .rotateY
        case .rotationZ, .rotation: return .rotateZ
        case .scaleX: return .scaleX
        case .scaleY: return .scaleY
        case .scaleZ: return .scaleZ
        case .scale: return .scale
        case .translationX: return .translateX
        case .translationY: return .translateY
        case .translationZ: return .translateZ
        }
    }
}

/// An animation of one property of a layer, named by its key path (CAPropertyAnimation).
open class PropertyAnimation: Animation, @unchecked Sendable {
    /// The animated property's key path (`"position"`, `"transform.rotation.z"`, `"shadowOpacity"`…).
    public var keyPath: String {
        didSet { resolvedKey = ResolvedKeyPath(keyPath) }
    }
    /// `keyPath` resolved once, so that applying the animation compares no strings.
    @exclusivity(unchecked) private(set) var resolvedKey: ResolvedKeyPath
    /// The value is added to the model value (for transforms: applied before it, in the layer's own space).
    @exclusivity(unchecked) public var isAdditive = false
    /// Each iteration starts where the last one ended.
    @exclusivity(unchecked) public var isCumulative = false
    /// Makes a transform of numeric values (for the key paths `transform` and `sublayerTransform`).
    @exclusivity(unchecked) public var valueFunction: ValueFunction?

    /// An animation of the property at `keyPath`.
    public init(keyPath: String) {
        self.keyPath = keyPath
        resolvedKey = ResolvedKeyPath(keyPath)
        super.init()
    }

    func copyProperties(from other: PropertyAnimation) {
        copySettings(from: other)
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
        valueFunction = other.valueFunction
    }

    /// The value between the iteration's endpoints (nil when they cannot be interpolated), with cumulative
    /// repeats added; subclasses give the endpoints.
    open func value(iteration: Double, fraction: Double, current: AnimationValue) -> AnimationValue? { nil }

    /// The fraction of the way from the start value to the end value at basic time `b` (the timing function applied;
    /// a spring computes its own).
    func fraction(at b: BasicTime) -> Double { ease(b.progress) }

    open override func apply(to presentation: inout LayerPresentation, at time: Double) {
        guard let b = basicTime(at: time) else { return }
        let iteration = b.iteration, fraction = fraction(at: b)
        // An additive animation of a transform component (transform.rotation.y) turns the number into a
        // matrix applied before the model transform, as Core Animation's implicit value function does.
        if case .component(let sublayer, let component) = resolvedKey, isAdditive {
            guard case .number(let n)? = value(iteration: iteration, fraction: fraction, current: .number(0)) else { return }
            presentation.concatenateBefore(ValueFunction.forComponent(component).transform(n), sublayer: sublayer)
            return
        }
        guard let current = presentation.value(for: resolvedKey) else { return }
        guard var v = value(iteration: iteration, fraction: fraction, current: isAdditive ? current.zero : current) else { return }
        if let function = valueFunction, case .number(let n) = v { v = .transform(function.transform(n)) }
        if isAdditive {
            guard let sum = current.adding(v) else { return }
            v = sum
        }
        presentation.set(v, for: resolvedKey)
    }
}

/// An animation between two values (CABasicAnimation). With `fromValue` and `toValue` it goes from one to
/// the other; `byValue` with either gives the other; a single value animates from or to the current value.
open class BasicAnimation: PropertyAnimation, @unchecked Sendable {
    /// The values it goes between (any `AnimatableValue`: `0.5`, `Point(…)`, `Color.red`, a `Transform3D`…).
    public var fromValue: (any AnimatableValue)? { didSet { resolveEnds() } }
    /// The value it goes to.
    public var toValue: (any AnimatableValue)? { didSet { resolveEnds() } }
    /// The change it makes, relative to `fromValue` or `toValue` or the current value.
    public var byValue: (any AnimatableValue)? { didSet { resolveEnds() } }

    /// Which ends are fixed and which follow the running value, worked out once when a value is set (not each frame).
    private enum Ends {
        case none
        case fixed(AnimationValue, AnimationValue)
        case fromCurrent(to: AnimationValue)
        case toCurrent(from: AnimationValue)
        case currentBy(AnimationValue)
    }
    @exclusivity(unchecked) private var ends: Ends = .none

    /// Whether both ends are numbers (or colours), fixed or following the running value: such an animation (most of
    /// them) is applied without building an `AnimationValue` per frame (`layerplay bench --snapshot`).
    @exclusivity(unchecked) private var numeric = false
    @exclusivity(unchecked) private var colored = false

    open override func apply(to presentation: inout LayerPresentation, at time: Double) {
        if numeric, valueFunction == nil {
            guard let t = basicTime(at: time) else { return }
            // The running value the missing ends follow: 0 when additive (the sum is taken after).
            let current = isAdditive ? 0 : presentation.number(for: resolvedKey)
            if let (a, b) = numberEnds(current: current) {
                var v = a + (b - a) * fraction(at: t)
                if isCumulative && t.iteration > 0 { v += (b - a) * t.iteration }
                if presentation.apply(number: v, additive: isAdditive, for: resolvedKey) { return }
            }
        } else if colored, !isCumulative {
            guard let t = basicTime(at: time) else { return }
            let current = isAdditive ? Color.clear : presentation.color(for: resolvedKey)
            if let (a, b) = colorEnds(current: current),
               presentation.apply(color: AnimationValue.mixColors(a, b, fraction(at: t)), additive: isAdditive, for: resolvedKey) { return }
        }
        super.apply(to: &presentation, at: time)
    }

    private func numberEnds(current: Double?) -> (Double, Double)? {
        switch ends {
        case .fixed(.number(let a), .number(let b)): return (a, b)
        case .fromCurrent(.number(let b)): return current.map { ($0, b) }
        case .toCurrent(.number(let a)): return current.map { (a, $0) }
        case .currentBy(.number(let by)): return current.map { ($0, $0 + by) }
        default: return nil
        }
    }

    private func colorEnds(current: Color?) -> (Color, Color)? {
        switch ends {
        case .fixed(.color(let a), .color(let b)): return (a, b)
        case .fromCurrent(.color(let b)): return current.map { ($0, b) }
        case .toCurrent(.color(let a)): return current.map { (a, $0) }
        default: return nil
        }
    }

    private func resolveEnds() {
        switch (fromValue?.animationValue, toValue?.animationValue, byValue?.animationValue) {
        case let (from?, to?, _): ends = .fixed(from, to)
        case let (from?, nil, by?): ends = from.adding(by).map { .fixed(from, $0) } ?? .none
        case let (nil, to?, by?): ends = to.subtracting(by).map { .fixed($0, to) } ?? .none
        case let (from?, nil, nil): ends = .toCurrent(from: from)
        case let (nil, to?, nil): ends = .fromCurrent(to: to)
        case let (nil, nil, by?): ends = .currentBy(by)
        case (nil, nil, nil): ends = .none
        }
        switch ends {
        case .fixed(.number, .number), .fromCurrent(.number), .toCurrent(.number), .currentBy(.number): numeric = true; colored = false
        case .fixed(.color, .color), .fromCurrent(.color), .toCurrent(.color): numeric = false; colored = true
        default: numeric = false; colored = false
        }
    }

    open override func copy() -> Animation {
        let c = BasicAnimation(keyPath: keyPath)
        c.copyBasic(from: self)
        return c
    }

    func copyBasic(from other: BasicAnimation) {
        copyProperties(from: other)
        fromValue = other.fromValue; toValue = other.toValue; byValue = other.byValue
    }

    /// The interpolation's endpoints for the current (presentation) value, per Core Animation's rules.
    func endpoints(current: AnimationValue) -> (AnimationValue, AnimationValue)? {
        switch ends {
        case .fixed(let from, let to): return (from, to)
        case .toCurrent(let from): return (from, current)
        case .fromCurrent(let to): return (current, to)
        case .currentBy(let by): return current.adding(by).map { (current, $0) }
        case .none: return nil
        }
    }

    open override func value(iteration: Double, fraction: Double, current: AnimationValue) -> AnimationValue? {
        guard let (from, to) = endpoints(current: current) else { return nil }
        var v = from.interpolated(to: to, fraction)
        if isCumulative && iteration > 0, let delta = to.subtracting(from), let repeated = delta.scaled(by: iteration) {
            v = v.adding(repeated) ?? v
        }
        return v
    }
}
