import Foundation
import LayerGraphics

/// One particle's values fixed at its birth (its random draws, the cell's and layer's values then), and its state at
/// any age in closed form (SEMANTICS-LAYERS.md §7 "At birth", "At age a"). A sub-particle's is made from its parent's
/// state at the sub-particle's birth: it starts where the parent is, aims relative to the parent's heading and
/// multiplies the parent's scale and colour (§7 "Sub-cells").
struct ParticleMotion {
    var origin: (Double, Double, Double)
    var velocity: (Double, Double, Double)
    var acceleration: (Double, Double, Double)
    var life: Double
    /// size(a) = sizeFactor × max(0, scale0 + scaleSpeed·a).
    var sizeFactor, scale0, scaleSpeed: Double
    var omega: Double
    var color0: SIMD4<Double>, colorSpeed: SIMD4<Double>
    /// Multiplies the colour (a parent's colour for a sub-particle; white otherwise).
    var tint: SIMD4<Double>

    /// A finite number, else 0 (NaN and infinities from hostile values never reach the maths).
    @inline(__always) static func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }

    /// The particle drawn with `key` from `cell` and the layer values `s`. A top-level particle (no `parent`) is born
    /// on the emitter's shape and aims at the cell's longitude; a sub-particle is born at `parent`'s place and aims
    /// at the cell's longitude turned by the parent's heading.
    init(key: UInt64, cell: EmitterCell, settings s: EmitterSettings,
         parent: (position: (Double, Double, Double), heading: Double, size: Double, color: SIMD4<Double>)? = nil) {
        let f = Self.finite
        @inline(__always) func draw(_ k: UInt64) -> Double { ParticleRandom.unit(key, k) - 0.5 }
        life = f(s.lifetime) * (f(cell.lifetime) + draw(RandomDraw.lifetime) * f(cell.lifetimeRange))
        let v = f(s.velocity) * (f(cell.velocity) + draw(RandomDraw.velocity) * f(cell.velocityRange))
        let longitude = f(cell.emissionLongitude) + draw(RandomDraw.longitude) * f(cell.emissionRange) + (parent?.heading ?? 0)
        let latitude = f(cell.emissionLatitude)
        velocity = (v * cos(latitude) * cos(longitude), v * cos(latitude) * sin(longitude), v * sin(latitude))
        acceleration = (f(cell.xAcceleration), f(cell.yAcceleration), f(cell.zAcceleration))
        if let parent {
            origin = parent.position
            sizeFactor = parent.size
            tint = parent.color
        } else {
            let p0 = s.shape.offset(mode: s.mode, width: f(s.size.width), height: f(s.size.height), depth: f(s.depth),
                                    ParticleRandom.unit(key, RandomDraw.positionX), ParticleRandom.unit(key, RandomDraw.positionY),
                                    ParticleRandom.unit(key, RandomDraw.positionZ), part: ParticleRandom.unit(key, RandomDraw.part))
            origin = (f(s.position.x) + p0.0, f(s.position.y) + p0.1, f(s.zPosition) + p0.2)
            sizeFactor = f(s.scale)
            tint = SIMD4(repeating: 1)
        }
        scale0 = f(cell.scale) + draw(RandomDraw.scale) * f(cell.scaleRange)
        scaleSpeed = f(cell.scaleSpeed)
        omega = f(s.spin) * (f(cell.spin) + draw(RandomDraw.spin) * f(cell.spinRange))
        let base = cell.color ?? .white
        color0 = SIMD4(f(base.red) + draw(RandomDraw.red) * f(cell.redRange), f(base.green) + draw(RandomDraw.green) * f(cell.greenRange),
                       f(base.blue) + draw(RandomDraw.blue) * f(cell.blueRange), f(base.alpha) + draw(RandomDraw.alpha) * f(cell.alphaRange))
        colorSpeed = SIMD4(f(cell.redSpeed), f(cell.greenSpeed), f(cell.blueSpeed), f(cell.alphaSpeed))
    }

    func position(at a: Double) -> (Double, Double, Double) {
        let half = 0.5 * a * a
        return (origin.0 + velocity.0 * a + half * acceleration.0, origin.1 + velocity.1 * a + half * acceleration.1,
                origin.2 + velocity.2 * a + half * acceleration.2)
    }

    /// The direction of motion in the layer's plane at age a (radians from +x towards +y; 0 when standing still).
    func heading(at a: Double) -> Double {
        let vx = velocity.0 + acceleration.0 * a, vy = velocity.1 + acceleration.1 * a
        return vx == 0 && vy == 0 ? 0 : atan2(vy, vx)
    }

    func size(at a: Double) -> Double { sizeFactor * max(0, scale0 + scaleSpeed * a) }

    /// Straight components, each within 0…1 (NaN is 0), the parent's colour multiplied in.
    func color(at a: Double) -> SIMD4<Double> {
        let c = (color0 + colorSpeed * a) * tint
        return SIMD4(Self.unit(c.x), Self.unit(c.y), Self.unit(c.z), Self.unit(c.w))
    }

    private static func unit(_ v: Double) -> Double { v >= 0 ? (v <= 1 ? v : 1) : 0 }

    /// The particle at age `a`, drawn with look `cell`; nil when it is not alive then or has left every finite place.
    func particle(at a: Double, cell: Int, index: Int) -> EmitterParticle? {
        guard a >= 0, a < life else { return nil }
        let (x, y, z) = position(at: a)
        let size = size(at: a), angle = omega * a
        // Overflowing sums (a velocity of 10³⁰⁰) leave a particle nowhere: it is not drawn.
        guard x.isFinite, y.isFinite, z.isFinite, size.isFinite, angle.isFinite else { return nil }
        let c = color(at: a)
        return EmitterParticle(x: x, y: y, z: z, angle: angle, scale: size,
                               color: Color(red: c.x, green: c.y, blue: c.z, alpha: c.w), cell: cell, index: index, age: a)
    }
}
