import LayerGraphics

/// The base of animations (CAAnimation): timing, a timing function, and whether it is removed when done.
///
/// Adding an animation to a layer copies it (as Core Animation does): changing it afterwards changes nothing.
/// Animations never change the model value of a layer; the snapshot's (presentation) value is what renders.
open class Animation: @unchecked Sendable {
    public var timing = MediaTiming()
    /// nil means linear (Core Animation's default for explicit animations).
    public var timingFunction: TimingFunction?
    /// When true (the default) the animation has no effect once its active time is over, whatever its fill mode.
    public var isRemovedOnCompletion = true
    /// Told when the animation starts and stops (CAAnimationDelegate). Held strongly, as Core Animation does.
    public var delegate: AnimationDelegate?
    /// What the host has told the delegate so far (on the attached copy).
    var didReportStart = false, didReportStop = false

    public init() {}

    // The timing properties under Core Animation's names.
    public var beginTime: Double { get { timing.beginTime } set { timing.beginTime = newValue } }
    public var duration: Double { get { timing.duration } set { timing.duration = newValue } }
    public var speed: Double { get { timing.speed } set { timing.speed = newValue } }
    public var timeOffset: Double { get { timing.timeOffset } set { timing.timeOffset = newValue } }
    public var repeatCount: Double { get { timing.repeatCount } set { timing.repeatCount = newValue } }
    public var repeatDuration: Double { get { timing.repeatDuration } set { timing.repeatDuration = newValue } }
    public var autoreverses: Bool { get { timing.autoreverses } set { timing.autoreverses = newValue } }
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
    case rotateX, rotateY, rotateZ
    /// *(ours)* A rotation about any axis through the anchor point.
    case rotate(axisX: Double, axisY: Double, axisZ: Double)
    case scale, scaleX, scaleY, scaleZ
    case translateX, translateY, translateZ

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
    public var keyPath: String {
        didSet { resolvedKey = ResolvedKeyPath(keyPath) }
    }
    /// `keyPath` resolved once, so that applying the animation compares no strings.
    private(set) var resolvedKey: ResolvedKeyPath
    /// The value is added to the model value (for transforms: applied before it, in the layer's own space).
    public var isAdditive = false
    /// Each iteration starts where the last one ended.
    public var isCumulative = false
    /// Makes a transform of numeric values (for the key paths `transform` and `sublayerTransform`).
    public var valueFunction: ValueFunction?

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
    public var fromValue: (any AnimatableValue)? { didSet { from = fromValue?.animationValue } }
    public var toValue: (any AnimatableValue)? { didSet { to = toValue?.animationValue } }
    public var byValue: (any AnimatableValue)? { didSet { by = byValue?.animationValue } }
    /// The three as values, converted once when set (not each frame).
    private var from: AnimationValue?, to: AnimationValue?, by: AnimationValue?

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
        switch (from, to, by) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return from.adding(by).map { (from, $0) }
        case let (nil, to?, by?): return to.subtracting(by).map { ($0, to) }
        case let (from?, nil, nil): return (from, current)
        case let (nil, to?, nil): return (current, to)
        case let (nil, nil, by?): return current.adding(by).map { (current, $0) }
        case (nil, nil, nil): return nil
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
