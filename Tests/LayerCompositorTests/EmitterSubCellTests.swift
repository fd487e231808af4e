import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §7 "Sub-cells": each particle of a cell with `emitterCells` emits them from where it is,
// aimed relative to its heading, timed from its own birth, with its scale and colour multiplied in.

@Suite("Emitter sub-cells")
struct EmitterSubCellTests {
    /// One parent (rate 1, long-lived, moving right at 100 pt/s) with one sub-cell set by `configure`.
    func parentWithSub(_ configure: (EmitterCell) -> Void) -> (EmitterLayer, EmitterCell) {
        let (layer, parent) = emitter { c in c.birthRate = 1; c.lifetime = 100; c.velocity = 100; c.scale = 2
            c.color = Color(red: 1, green: 0.5, blue: 1, alpha: 1) }
        let sub = EmitterCell()
        sub.name = "smoke"
        configure(sub)
        parent.emitterCells = [sub]
        return (layer, sub)
    }

    @Test func subParticlesStartWhereTheParentIsAndInheritScaleAndColour() throws {
        let (layer, _) = parentWithSub { s in s.birthRate = 4; s.lifetime = 10; s.velocity = 0
            s.color = Color(red: 0.5, green: 1, blue: 1, alpha: 1); s.scale = 0.5 }
        let payload = try #require(layer.snapshot(at: 0.9).payload as? EmitterPayload)
        #expect(payload.cells.count == 2, "the cell's look, then its sub-cell's")
        let subs = payload.particles.filter { $0.cell == 1 }
        // Parent 0 (born at 0, 0.9 s old) has emitted at its ages 0, 0.25, 0.5, 0.75.
        #expect(subs.map(\.index) == [0, 1, 2, 3])
        for s in subs {
            let bornAt = Double(s.index) / 4
            #expect(abs(s.x - (50 + 100 * bornAt)) < 1e-9 && abs(s.y - 50) < 1e-9, "where the parent was at \(bornAt)")
            #expect(abs(s.age - (0.9 - bornAt)) < 1e-9)
            #expect(abs(s.scale - 1) < 1e-12, "0.5 × the parent's 2")
            #expect(abs(s.color.red - 0.5) < 1e-12 && abs(s.color.green - 0.5) < 1e-12, "colours multiply")
        }
        #expect(payload.particles.filter { $0.cell == 0 }.count == 1)
    }

    @Test func subParticlesAimRelativeToTheParentsHeading() throws {
        let (layer, _) = parentWithSub { s in s.birthRate = 1; s.lifetime = 10; s.velocity = 10; s.emissionLongitude = .pi / 2 }
        layer.emitterCells?.first?.emissionLongitude = -.pi / 2   // the parent moves up
        let sub = try #require(particles(layer, at: 1).first { $0.cell == 1 && $0.index == 0 })
        // Up, turned a quarter clockwise: right. Born at the emitter (parent's age 0), 1 s ago.
        #expect(abs(sub.x - 60) < 1e-9 && abs(sub.y - 50) < 1e-9)
    }

    @Test func aDeadParentsSubParticlesLiveOnAndItEmitsOnlyWhileAlive() {
        let (layer, _) = parentWithSub { s in s.birthRate = 10; s.lifetime = 5 }
        layer.emitterCells?.first?.lifetime = 1   // the parent lives 1 s: subs at its ages 0 … 0.9
        let ps = particles(layer, at: 2.5).filter { $0.cell == 1 }
        // Parents 0, 1, 2 (born at 0, 1, 2): 10 each from 0 and 1 (they died), 6 from 2 (ages 0 … 0.5).
        #expect(ps.count == 10 + 10 + 6)
        #expect(particles(layer, at: 2.5).filter { $0.cell == 0 }.count == 1, "only the parent born at 2 lives")
    }

    @Test func subCellsAreDeterministicAndASeekEqualsPlaying() {
        func make() -> EmitterLayer {
            parentWithSub { s in s.birthRate = 7; s.lifetime = 2; s.velocity = 30; s.emissionRange = 2 * .pi; s.velocityRange = 20 }.0
        }
        let played = make()
        for frame in 0...90 { _ = particles(played, at: Double(frame) / 60) }
        let sought = make()
        #expect(particles(played, at: 1.5) == particles(sought, at: 1.5))
        #expect(particles(make(), at: 1.5).filter { $0.cell == 1 }.count > 10)
    }

    @Test func hostileSubCellsAreBounded() {
        let (layer, _) = parentWithSub { s in s.birthRate = 1e9; s.lifetime = 1e300 }
        layer.emitterCells?.first?.birthRate = 1e9
        let payload = layer.snapshot(at: 10).payload as? EmitterPayload
        #expect((payload?.particles.count ?? 0) <= EmitterLayer.maximumParticleCount)
        #expect(payload?.isCapped == true)
    }
}
