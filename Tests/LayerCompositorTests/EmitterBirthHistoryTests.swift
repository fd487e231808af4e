import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §7 "Births" and "Model changes": a particle keeps the values in effect at its birth, and a
// changing rate is integrated, so a seek still shows what playing shows.

@Suite("Emitter birth history")
struct EmitterBirthHistoryTests {
    /// Snapshots `layer` at 60 fps from `from` up to `to` (both included), as a player would.
    func play(_ layer: Layer, from: Double = 0, to: Double) {
        var frame = (from * 60).rounded()
        while frame / 60 <= to + 1e-9 { _ = particles(layer, at: frame / 60); frame += 1 }
    }

    /// Runs `change` with implicit animations off: a snapshotted layer is presented, and would animate a change.
    func set(_ change: () -> Void) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        change()
        Transaction.commit()
    }

    @Test func settingTheBirthRateToZeroStopsBirthsAndTheLivingFinish() {
        let (layer, _) = emitter { c in c.birthRate = 10; c.lifetime = 100; c.velocity = 10 }
        play(layer, to: 2)
        let before = particles(layer, at: 2)
        #expect(before.count == 21)
        set { layer.birthRate = 0 }
        _ = particles(layer, at: 2)   // seen at 2: it holds from 2 on, so the one due at 2 is not born
        let after = particles(layer, at: 3)
        #expect(after.count == 20, "no births from the change on, no death either")
        for p in after {
            let old = before.first { $0.index == p.index }!
            #expect(abs(p.x - (old.x + 10)) < 1e-9, "particle \(p.index) moves on at its speed for one more second")
        }
        #expect(particles(layer, at: 1).count == 11, "a seek back before the change shows the old rate")
        _ = particles(layer, at: 3)
        set { layer.birthRate = 1 }
        _ = particles(layer, at: 3)
        #expect(particles(layer, at: 4).count == 20 + 11, "births resume at 3: 3.0 … 4.0")
    }

    @Test func aChangedVelocityOrLifetimeLeavesTheLivingParticlesAsTheyAre() throws {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 100; c.velocity = 10 }
        play(layer, to: 1)
        set { layer.velocity = 3; layer.lifetime = 0.01 }    // ℓ = 1 s for the ones born from now on
        _ = particles(layer, at: 1)
        let ps = particles(layer, at: 2.5)
        let first = try #require(ps.first { $0.index == 0 })
        #expect(abs(first.x - (50 + 10 * 2.5)) < 1e-9, "born at 0 with velocity 10, and still alive at 2.5")
        #expect(!ps.contains { $0.index == 1 }, "born at 1, the change's time, with the new values: lived 1 s")
        let third = try #require(ps.first { $0.index == 2 })
        #expect(abs(third.x - (50 + 30 * 0.5)) < 1e-9, "born at 2 with velocity 3 × 10")
        #expect(particles(layer, at: 3.5).map(\.index) == [0, 3], "particle 2 lived 1 s; 3 is 0.5 s old")
    }

    @Test func anAnimatedRateIsIntegrated() throws {
        // ρ(τ) = 100·τ over the first second: N(τ) = 50·τ², so particle n is born at √(n/50).
        func ramp() -> EmitterLayer {
            let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 100 }
            let a = BasicAnimation(keyPath: "birthRate")
            a.fromValue = 0.0; a.toValue = 100.0; a.duration = 1
            layer.add(a, forKey: "ramp")
            return layer
        }
        let layer = ramp()
        let ps = particles(layer, at: 1)
        #expect(abs(ps.count - 50) <= 1, "∫₀¹ 100τ dτ = 50 births")
        for n in [2, 8, 18, 32] {
            let p = try #require(ps.first { $0.index == n })
            #expect(abs(p.age - (1 - (Double(n) / 50).squareRoot())) < 2e-3, "particle \(n) born at √(n/50)")
        }
        // After the ramp the model's rate (1 a second) holds: two more by 3 s.
        #expect(particles(layer, at: 3).count == ps.count + 2)
        let played = ramp()
        play(played, to: 1.5)
        #expect(particles(played, at: 1.5) == particles(ramp(), at: 1.5), "a seek shows what playing shows")
    }

    @Test func anAnimatedVelocityOnlyChangesTheParticlesBornWhileItRuns() throws {
        let (layer, _) = emitter { c in c.birthRate = 10; c.lifetime = 100; c.velocity = 10 }
        let fast = BasicAnimation(keyPath: "velocity")
        fast.fromValue = 3.0; fast.toValue = 3.0; fast.duration = 10; fast.beginTime = 1
        layer.add(fast, forKey: "fast")
        let ps = particles(layer, at: 2)
        let early = try #require(ps.first { $0.index == 5 })   // born at 0.5
        #expect(abs(early.x - (50 + 10 * 1.5)) < 1e-9)
        let late = try #require(ps.first { $0.index == 15 })   // born at 1.5
        #expect(abs(late.x - (50 + 30 * 0.5)) < 1e-9)
        let moved = BasicAnimation(keyPath: "emitterCells.spark.emissionLongitude")
        moved.fromValue = Double.pi / 2; moved.toValue = Double.pi / 2; moved.duration = 10; moved.beginTime = 1.75
        layer.add(moved, forKey: "down")
        let after = particles(layer, at: 2)
        #expect(after.first { $0.index == 15 }.map { abs($0.y - 50) < 1e-9 } == true, "born before the turn: along x")
        let turned = try #require(after.first { $0.index == 18 })   // born at 1.8
        #expect(abs(turned.y - (50 + 30 * 0.2)) < 1e-6 && abs(turned.x - 50) < 1e-6, "born after it: down")
    }

    @Test func anAnimationRemovedAfterItRanLeavesWhatItWrote() {
        let (layer, _) = emitter { c in c.birthRate = 10; c.lifetime = 100 }
        let burst = BasicAnimation(keyPath: "birthRate")
        burst.fromValue = 5.0; burst.toValue = 5.0; burst.duration = 1
        layer.add(burst, forKey: "burst")
        play(layer, to: 2)
        let shown = particles(layer, at: 2)
        #expect(shown.count == 50 + 10 + 1, "1 s at 50 a second, then 1 s at 10, and the one born at 2")
        layer.removeAnimation(forKey: "burst")   // as removal on completion does
        #expect(particles(layer, at: 2) == shown)
    }

    @Test func aModelChangeIsStampedAtTheSnapshotThatSawIt() {
        // The same change seen at 2 by two layers, one played there and one sought: the same particles after.
        let (played, _) = emitter { c in c.birthRate = 30; c.lifetime = 2; c.velocity = 10; c.velocityRange = 10 }
        let (sought, _) = emitter { c in c.birthRate = 30; c.lifetime = 2; c.velocity = 10; c.velocityRange = 10 }
        play(played, to: 2)
        _ = particles(sought, at: 2)
        set { for l in [played, sought] { l.velocity = 4; l.birthRate = 0.5 } }
        play(played, from: 2, to: 3)
        _ = particles(sought, at: 2)
        #expect(particles(played, at: 3) == particles(sought, at: 3))
        let (late, _) = emitter { c in c.birthRate = 10; c.lifetime = 100 }
        _ = particles(late, at: 2)
        set { late.birthRate = 0 }
        #expect(particles(late, at: 3).count == 30, "the old rate holds until the first snapshot that sees the change (3)")
    }
}
