/// A basic animation that moves like a damped spring (CASpringAnimation), SEMANTICS-ANIMATION.md §8: the value is
/// `from + (to − from)·y(τ)` with `y` the spring's motion (`SpringSolver`) and `τ` seconds into the iteration. The
/// timing function is ignored.
///
/// `duration` is not the settling time: it defaults as any animation's (0 → the transaction's 0.25 s) and the
/// spring is cut at its end. Write `spring.duration = spring.settlingDuration` to let it come to rest.
open class SpringAnimation: BasicAnimation, @unchecked Sendable {
    /// > 0; 1 by default.
    public var mass = 1.0 { didSet { solver = nil } }
    /// > 0; 100 by default.
    public var stiffness = 100.0 { didSet { solver = nil } }
    /// ≥ 0; 10 by default.
    public var damping = 10.0 { didSet { solver = nil } }
    /// In units of the distance per second; positive is towards the end value.
    public var initialVelocity = 0.0 { didSet { solver = nil } }
    /// When false (Core Animation's default), a damping above critical moves as critical damping does.
    public var allowsOverdamping = false { didSet { solver = nil } }

    /// Built once for the parameters, not each frame.
    private var solver: SpringSolver?

    private var spring: SpringSolver {
        if let solver { return solver }
        let made = SpringSolver(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                                allowsOverdamping: allowsOverdamping)
        solver = made
        return made
    }

    /// Seconds until the spring stays within 0.001 of the distance of its end (`.infinity` without damping).
    public var settlingDuration: Double { spring.settlingDuration }

    open override func copy() -> Animation {
        let c = SpringAnimation(keyPath: keyPath)
        c.copyBasic(from: self)
        c.mass = mass; c.stiffness = stiffness; c.damping = damping
        c.initialVelocity = initialVelocity; c.allowsOverdamping = allowsOverdamping
        return c
    }

    override func fraction(at b: BasicTime) -> Double { spring.value(at: b.time) }
}
