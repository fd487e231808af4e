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
        // Looks: the cells', then each cell's sub-cells' (a sub-particle's `cell` indexes past the cells).
        var looks = cells.map(Self.look)
        var subLooks: [Int] = []
        for cell in cells {
            subLooks.append(looks.count)
            looks += (cell.emitterCells ?? []).map(Self.look)
        }
        var subs: [EmitterParticle] = []
        for (i, cell) in cells.enumerated() where cell.isEnabled {
            let nowSubs = cell.emitterCells?.count ?? 0
            if !emit(cell, index: i, at: time, budget: &budget, into: &particles, subs: &subs,
                     subLooks: (subLooks[i], nowSubs)) { capped = true; break }
        }
        // Sub-particles are painted after the cells' own (unordered: sub-cell order, then birth order).
        let room = max(0, EmitterLayer.maximumParticleCount - particles.count)
        if subs.count > room { capped = true }
        particles += subs.prefix(room)
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
    private func emit(_ cell: EmitterCell, index: Int, at time: Double, budget: inout Int, into out: inout [EmitterParticle],
                      subs: inout [EmitterParticle], subLooks: (base: Int, count: Int)) -> Bool {
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
            // Sub-particles outlive their parent by up to their own longest life: a dead parent's may still show.
            let subCells = Array((born.emitterCells ?? []).prefix(subLooks.count).enumerated())
            let subReach = subCells.reduce(0.0) { r, c in
                c.element.isEnabled ? max(r, f(s.lifetime) * (f(c.element.lifetime) + abs(f(c.element.lifetimeRange)) / 2)) : r
            }
            guard longest > 0 else { continue }
            // The oldest that may still live, or have a living sub-particle: born after τ − longest (− reach).
            let first = max(start.rounded(.up), (start + rho * (tau - longest - subReach - st.from)).rounded(.down))
            guard last >= first else { continue }
            guard budget > 0 else { return false }
            let span = min(last - first + 1, Double(budget))
            budget -= Int(span)
            for step in 0..<Int(span) {
                let nD = first + Double(step)
                let age = tau - (st.from + (nD - start) / rho)
                let n = UInt64(nD)
                let key = random.particle(n)
                if subReach == 0 {
                    // Dead and without sub-particles: skip before drawing the rest (a lifetime range kills many).
                    let life = f(s.lifetime) * (f(born.lifetime) + (ParticleRandom.unit(key, RandomDraw.lifetime) - 0.5) * f(born.lifetimeRange))
                    if !(age < life) { continue }
                }
                let motion = ParticleMotion(key: key, cell: born, settings: s)
                if let p = motion.particle(at: age, cell: index, index: Int(n)) {
                    if out.count + subs.count >= EmitterLayer.maximumParticleCount { return false }
                    out.append(p)
                }
                if subReach > 0, age >= 0 {
                    for (j, sub) in subCells where sub.isEnabled {
                        if !emitSubs(sub, of: motion, parent: (index, n), age: age, settings: s, look: subLooks.base + j,
                                     subIndex: j, budget: &budget, into: &subs, alongside: out.count) { return false }
                    }
                }
            }
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

extension ParticleSystem {
    /// Appends the living sub-particles of sub-cell `sub` that one parent (`motion`, now `age` old) has emitted
    /// (SEMANTICS-LAYERS.md §7 "Sub-cells"): sub-particle m is born at the parent's age m/ρ (ρ = the sub-cell's rate ×
    /// the layer's), while the parent lives, from where the parent then is, aimed relative to its heading, with its
    /// scale and colour multiplied in; its draws are keyed by the cell, the sub-cell and the parent's index. Sub-cells
    /// of sub-cells are not emitted. False when the particle cap or the candidate budget was reached.
    func emitSubs(_ sub: EmitterCell, of motion: ParticleMotion, parent: (cell: Int, index: UInt64), age: Double,
                  settings s: EmitterSettings, look: Int, subIndex: Int, budget: inout Int,
                  into subs: inout [EmitterParticle], alongside parents: Int) -> Bool {
        let f = ParticleMotion.finite
        let layerRate = f(s.birthRate)
        let rho = min(max(f(sub.birthRate) * layerRate, 0), Self.maximumBirthRate)
        let longest = f(s.lifetime) * (f(sub.lifetime) + abs(f(sub.lifetimeRange)) / 2)
        guard rho > 0, longest > 0, motion.life > 0 else { return true }
        // Born by now (m/ρ ≤ age) and while the parent lived (m/ρ < its life); still alive (age − m/ρ < longest).
        let last = min((rho * age).rounded(.down), (rho * motion.life).rounded(.up) - 1, 0x1p52)
        let first = max(0, (rho * (age - longest)).rounded(.down))
        guard last >= first else { return true }
        guard budget > 0 else { return false }
        let span = min(last - first + 1, Double(budget))
        budget -= Int(span)
        let random = ParticleRandom(seed: settings.seed, path: [parent.cell, subIndex, Int(truncatingIfNeeded: parent.index)])
        for step in 0..<Int(span) {
            let mD = first + Double(step)
            let bornAt = mD / rho
            let c = motion.color(at: bornAt)
            let from = (position: motion.position(at: bornAt), heading: motion.heading(at: bornAt),
                        size: motion.size(at: bornAt), color: c)
            let child = ParticleMotion(key: random.particle(UInt64(mD)), cell: sub, settings: s, parent: from)
            guard let p = child.particle(at: age - bornAt, cell: look, index: Int(mD)) else { continue }
            if parents + subs.count >= EmitterLayer.maximumParticleCount { return false }
            subs.append(p)
        }
        return true
    }
}
