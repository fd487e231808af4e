import Foundation
import LayerGraphics

/// The emitter layer's own values a snapshot uses (presentation values of the animatable ones).
struct EmitterSettings {
    var birthRate, lifetime, velocity, scale, spin: Double
    var position: Point
    var zPosition: Double
    var size: Size
    var depth: Double
    var shape: EmitterLayer.Shape
    var mode: EmitterLayer.Mode
    var renderMode: EmitterLayer.RenderMode
    var seed: UInt32

    init(layer l: EmitterLayer) {
        birthRate = l.birthRate; lifetime = l.lifetime; velocity = l.velocity; scale = l.scale; spin = l.spin
        position = l.emitterPosition; zPosition = l.emitterZPosition; size = l.emitterSize; depth = l.emitterDepth
        shape = l.emitterShape; mode = l.emitterMode; renderMode = l.renderMode; seed = l.seed
    }
}

/// The particles alive at a time, in closed form (SEMANTICS-LAYERS.md §7): particle n of a cell is born at n/ρ on the
/// cell's clock, and everything about it is a function of its age and its own random draws, so nothing depends on
/// earlier frames. Work is bounded by `EmitterLayer.maximumParticleCount` whatever the values.
struct ParticleSystem {
    let settings: EmitterSettings
    let cells: [EmitterCell]

    /// Birth rates above this many a second are held there (a finite, exact n/ρ for every index we reach).
    static let maximumBirthRate = 1e9
    /// At most this many candidate births are examined per snapshot, all cells together (most are alive: only a
    /// lifetime range makes some of them dead), so thousands of cells cost no more than one.
    static var maximumCandidates: Int { 4 * EmitterLayer.maximumParticleCount }

    func payload(at time: Double) -> EmitterPayload {
        var particles: [EmitterParticle] = []
        var capped = false
        var budget = Self.maximumCandidates
        let looks = cells.map(Self.look)
        for (i, cell) in cells.enumerated() where cell.isEnabled {
            if !emit(cell, index: i, at: time, budget: &budget, into: &particles) { capped = true; break }
        }
        return EmitterPayload(particles: ordered(particles), cells: looks, isAdditive: settings.renderMode == .additive,
                              isCapped: capped)
    }

    /// A finite number, else 0 (NaN and infinities from hostile values never reach the maths).
    private static func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
    /// Within 0…1; NaN is 0.
    private static func unit(_ v: Double) -> Double { v >= 0 ? (v <= 1 ? v : 1) : 0 }

    private static func look(_ c: EmitterCell) -> EmitterCellLook {
        let s = c.contentsScale.isFinite && c.contentsScale > 0 ? min(max(c.contentsScale, 1e-3), 1e3) : 1
        return EmitterCellLook(contents: c.contents, contentsRect: c.contentsRect, contentsScale: s,
                               minificationFilter: c.minificationFilter, magnificationFilter: c.magnificationFilter,
                               minificationFilterBias: finite(c.minificationFilterBias))
    }

    /// Appends cell `index`'s live particles, examining at most `budget` candidates (and taking them from it); false
    /// when the particle cap or the budget was reached (the rest are skipped).
    private func emit(_ cell: EmitterCell, index: Int, at time: Double, budget: inout Int, into out: inout [EmitterParticle]) -> Bool {
        let s = settings, f = Self.finite
        // The cell's clock (its media timing on the layer's local time).
        let speed = max(0, f(cell.speed))
        let tau = (time - f(cell.beginTime)) * speed + f(cell.timeOffset)
        guard tau.isFinite, tau >= 0 else { return true }
        let rho = min(max(f(cell.birthRate) * f(s.birthRate), 0), Self.maximumBirthRate)
        let lifeScale = f(s.lifetime)
        let longest = lifeScale * (f(cell.lifetime) + abs(f(cell.lifetimeRange)) / 2)
        guard rho > 0, longest > 0 else { return true }
        // Indices born by τ: n/ρ ≤ τ, and within the cell's active interval, n/ρ < duration.
        let exactIndex = 0x1p52
        var last = min((rho * tau).rounded(.down), exactIndex)
        let duration = f(cell.duration)
        if duration > 0 { last = min(last, (rho * duration).rounded(.up) - 1) }
        // The oldest that may still live: born after τ − longest.
        let first = max(0, (rho * (tau - longest)).rounded(.down))
        guard last >= first else { return true }
        guard budget > 0 else { return false }
        let span = min(last - first + 1, Double(budget))
        budget -= Int(span)

        let random = ParticleRandom(seed: s.seed, path: [index])
        let base = cell.color ?? .white
        let c0 = (f(base.red), f(base.green), f(base.blue), f(base.alpha))
        let ranges = (f(cell.redRange), f(cell.greenRange), f(cell.blueRange), f(cell.alphaRange))
        let speeds = (f(cell.redSpeed), f(cell.greenSpeed), f(cell.blueSpeed), f(cell.alphaSpeed))
        let acc = (f(cell.xAcceleration), f(cell.yAcceleration), f(cell.zAcceleration))
        let centre = (f(s.position.x), f(s.position.y), f(s.zPosition))
        let (w, h, d) = (f(s.size.width), f(s.size.height), f(s.depth))
        let latitude = f(cell.emissionLatitude)
        let cosLat = cos(latitude), sinLat = sin(latitude)

        for step in 0..<Int(span) {
            let nD = first + Double(step)
            let n = UInt64(nD)
            let key = random.particle(n)
            @inline(__always) func draw(_ k: UInt64) -> Double { ParticleRandom.unit(key, k) - 0.5 }
            let age = tau - nD / rho
            let life = lifeScale * (f(cell.lifetime) + draw(RandomDraw.lifetime) * f(cell.lifetimeRange))
            guard age >= 0, age < life else { continue }
            if out.count >= EmitterLayer.maximumParticleCount { return false }

            let v = f(s.velocity) * (f(cell.velocity) + draw(RandomDraw.velocity) * f(cell.velocityRange))
            let longitude = f(cell.emissionLongitude) + draw(RandomDraw.longitude) * f(cell.emissionRange)
            let dir = (cosLat * cos(longitude), cosLat * sin(longitude), sinLat)
            let p0 = s.shape.offset(mode: s.mode, width: w, height: h, depth: d,
                                    ParticleRandom.unit(key, RandomDraw.positionX), ParticleRandom.unit(key, RandomDraw.positionY),
                                    ParticleRandom.unit(key, RandomDraw.positionZ), part: ParticleRandom.unit(key, RandomDraw.part))
            let half = 0.5 * age * age, travel = v * age
            let x = centre.0 + p0.0 + travel * dir.0 + half * acc.0
            let y = centre.1 + p0.1 + travel * dir.1 + half * acc.1
            let z = centre.2 + p0.2 + travel * dir.2 + half * acc.2
            let s0 = f(cell.scale) + draw(RandomDraw.scale) * f(cell.scaleRange)
            let size = f(s.scale) * max(0, s0 + f(cell.scaleSpeed) * age)
            let omega = f(s.spin) * (f(cell.spin) + draw(RandomDraw.spin) * f(cell.spinRange))
            let color = Color(red: Self.unit(c0.0 + draw(RandomDraw.red) * ranges.0 + speeds.0 * age),
                              green: Self.unit(c0.1 + draw(RandomDraw.green) * ranges.1 + speeds.1 * age),
                              blue: Self.unit(c0.2 + draw(RandomDraw.blue) * ranges.2 + speeds.2 * age),
                              alpha: Self.unit(c0.3 + draw(RandomDraw.alpha) * ranges.3 + speeds.3 * age))
            let angle = omega * age
            // Overflowing sums (a velocity of 10³⁰⁰) leave a particle nowhere: it is not drawn.
            guard x.isFinite, y.isFinite, z.isFinite, size.isFinite, angle.isFinite else { continue }
            out.append(EmitterParticle(x: x, y: y, z: z, angle: angle, scale: size, color: color, cell: index,
                                       index: Int(n), age: age))
        }
        return true
    }

    /// `renderMode`'s painting order; the input is in cell order, then birth order.
    private func ordered(_ particles: [EmitterParticle]) -> [EmitterParticle] {
        func sorted(by key: (EmitterParticle) -> Double) -> [EmitterParticle] {
            // Ties keep cell-then-birth order (an explicit tie-break: the sort need not be stable).
            let keys = particles.map(key)
            let order = particles.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            return order.map { particles[$0] }
        }
        switch settings.renderMode {
        case .unordered, .additive: return particles
        case .oldestFirst: return sorted { -$0.age }
        case .oldestLast: return sorted { $0.age }
        case .backToFront: return sorted { $0.z }
        }
    }
}
