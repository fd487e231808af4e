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

/// The particles alive at a time, in closed form (SEMANTICS-LAYERS.md §7): a cell's births N(τ) = ∫ρ are summed over
/// the layer's birth timeline (segments of constant rate), particle n is born where N reaches n, and everything about
/// it is a function of the state it was born with, its age and its own random draws, so nothing depends on which
/// frames were drawn before. Work is bounded by `EmitterLayer.maximumParticleCount` whatever the values.
struct ParticleSystem {
    /// The values at the snapshot's time (the cells' clocks, the looks, the render mode and seed).
    let settings: EmitterSettings
    let cells: [EmitterCell]
    /// The birth history up to (at least) the snapshot's time, and the states its segments refer to.
    let segments: [BirthSegment]
    let states: [EmitterBirthState]

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
    /// `n` made a whole number when it is one but for rounding (sums of rate × time over many stretches), so a birth
    /// that falls on a stretch's end is not lost or doubled by the last bit.
    private static func snapped(_ n: Double) -> Double {
        let r = n.rounded()
        return abs(n - r) <= 1e-9 * max(1, abs(n)) ? r : n
    }
    /// Within 0…1; NaN is 0.
    private static func unit(_ v: Double) -> Double { v >= 0 ? (v <= 1 ? v : 1) : 0 }

    private static func look(_ c: EmitterCell) -> EmitterCellLook {
        let s = c.contentsScale.isFinite && c.contentsScale > 0 ? min(max(c.contentsScale, 1e-3), 1e3) : 1
        return EmitterCellLook(contents: c.contents, contentsRect: c.contentsRect, contentsScale: s,
                               minificationFilter: c.minificationFilter, magnificationFilter: c.magnificationFilter,
                               minificationFilterBias: finite(c.minificationFilterBias))
    }

    /// A stretch of one cell's clock with constant births: [from, to], the rate, and the state born in it.
    private struct Stretch { var from, to, rate: Double; var state: Int }

    /// Cell `index`'s stretches up to `tau` on its clock (`begin`, `speed`, `offset` map layer time to it). A frozen
    /// clock (speed 0) has one: the state at `time`, from 0 to τ.
    private func stretches(index: Int, time: Double, tau: Double, begin: Double, speed: Double, offset: Double) -> [Stretch] {
        func rate(_ s: BirthSegment) -> Double { index < s.rates.count ? s.rates[index] : 0 }
        guard speed > 0 else {
            guard let s = segments.last(where: { $0.start <= time }) ?? segments.first else { return [] }
            return [Stretch(from: 0, to: tau, rate: rate(s), state: s.state)]
        }
        var out: [Stretch] = []
        for s in segments {
            let from = max(0, (s.start - begin) * speed + offset)
            if from > tau { break }
            let to = min(tau, (s.end - begin) * speed + offset)
            guard to >= from else { continue }
            out.append(Stretch(from: from, to: to, rate: rate(s), state: s.state))
        }
        return out
    }

    /// Appends cell `index`'s live particles, examining at most `budget` candidates (and taking them from it); false
    /// when the particle cap or the budget was reached (the rest are skipped).
    private func emit(_ cell: EmitterCell, index: Int, at time: Double, budget: inout Int, into out: inout [EmitterParticle]) -> Bool {
        let f = Self.finite
        // The cell's clock (its media timing on the layer's local time, as it is now).
        let speed = max(0, f(cell.speed)), begin = f(cell.beginTime), offset = f(cell.timeOffset)
        let tau = (time - begin) * speed + offset
        guard tau.isFinite, tau >= 0 else { return true }
        // Births only within the cell's active interval: at cell times below `duration`.
        let duration = f(cell.duration)
        let limit = duration > 0 ? duration : .infinity
        let random = ParticleRandom(seed: settings.seed, path: [index])
        let exactIndex = 0x1p52
        var births = 0.0      // N at the start of the stretch
        let all = stretches(index: index, time: time, tau: tau, begin: begin, speed: speed, offset: offset)
        for (k, st) in all.enumerated() {
            if st.from >= limit { break }
            let to = min(st.to, limit)
            let rho = st.rate
            let start = births
            births = Self.snapped(births + rho * (to - st.from))
            let state = states[st.state]
            guard rho > 0, index < state.cells.count else { continue }
            // n is born where N reaches it, so a stretch holds the n with N(from) ≤ n < N(to): one born on a boundary
            // takes the later values. The stretch at τ also holds N(τ) (born now), unless the cell's duration ends
            // it: births are only before the duration.
            let isNow = k == all.count - 1 && st.to < limit
            let last = min(isNow ? births.rounded(.down) : births.rounded(.up) - 1, exactIndex)
            let born = state.cells[index], s = state.settings
            let longest = f(s.lifetime) * (f(born.lifetime) + abs(f(born.lifetimeRange)) / 2)
            guard longest > 0 else { continue }
            // The oldest that may still live: born after τ − longest.
            let first = max(start.rounded(.up), (start + rho * (tau - longest - st.from)).rounded(.down))
            guard last >= first else { continue }
            guard budget > 0 else { return false }
            let span = min(last - first + 1, Double(budget))
            budget -= Int(span)
            for step in 0..<Int(span) {
                let nD = first + Double(step)
                let age = tau - (st.from + (nD - start) / rho)
                guard let p = particle(UInt64(nD), age: age, cell: born, settings: s, index: index, random: random) else { continue }
                if out.count >= EmitterLayer.maximumParticleCount { return false }
                out.append(p)
            }
        }
        return true
    }

    /// Particle `n` at `age` from the values it was born with (`cell`, `s`); nil when it is dead or nowhere.
    private func particle(_ n: UInt64, age: Double, cell: EmitterCell, settings s: EmitterSettings, index: Int,
                          random: ParticleRandom) -> EmitterParticle? {
        let f = Self.finite
        let key = random.particle(n)
        @inline(__always) func draw(_ k: UInt64) -> Double { ParticleRandom.unit(key, k) - 0.5 }
        let life = f(s.lifetime) * (f(cell.lifetime) + draw(RandomDraw.lifetime) * f(cell.lifetimeRange))
        guard age >= 0, age < life else { return nil }
        let base = cell.color ?? .white
        let c0 = (f(base.red), f(base.green), f(base.blue), f(base.alpha))
        let ranges = (f(cell.redRange), f(cell.greenRange), f(cell.blueRange), f(cell.alphaRange))
        let speeds = (f(cell.redSpeed), f(cell.greenSpeed), f(cell.blueSpeed), f(cell.alphaSpeed))
        let acc = (f(cell.xAcceleration), f(cell.yAcceleration), f(cell.zAcceleration))
        let centre = (f(s.position.x), f(s.position.y), f(s.zPosition))
        let (w, h, d) = (f(s.size.width), f(s.size.height), f(s.depth))
        let latitude = f(cell.emissionLatitude)

        let v = f(s.velocity) * (f(cell.velocity) + draw(RandomDraw.velocity) * f(cell.velocityRange))
        let longitude = f(cell.emissionLongitude) + draw(RandomDraw.longitude) * f(cell.emissionRange)
        let dir = (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
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
        guard x.isFinite, y.isFinite, z.isFinite, size.isFinite, angle.isFinite else { return nil }
        return EmitterParticle(x: x, y: y, z: z, angle: angle, scale: size, color: color, cell: index, index: Int(n), age: age)
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
