import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §7 "Randomness": every (M, R) pair draws uniformly in [M − R/2, M + R/2], each from its own
// draw (so the colour components vary independently).

@Suite("Emitter ranges")
struct EmitterRangeTests {
    /// 1,000 particles of age 0 … 0.999 (rate 1,000, long-lived), the cell set by `configure`.
    func crowd(_ configure: @escaping (EmitterCell) -> Void) -> [EmitterParticle] {
        let (layer, _) = emitter { c in c.birthRate = 1000; c.lifetime = 100; configure(c) }
        return particles(layer, at: 0.9995)
    }

    /// Whether `values` lie in [lo, hi] and fill most of it.
    func spans(_ values: [Double], _ lo: Double, _ hi: Double) -> Bool {
        guard let a = values.min(), let b = values.max() else { return false }
        return a >= lo - 1e-9 && b <= hi + 1e-9 && a < lo + (hi - lo) * 0.05 && b > hi - (hi - lo) * 0.05
    }

    @Test func eachColourComponentHasItsOwnRange() {
        let ps = crowd { c in c.color = Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)
            c.redRange = 0.2; c.greenRange = 0.4; c.blueRange = 0.6; c.alphaRange = 0.8 }
        #expect(ps.count == 1000)
        #expect(spans(ps.map(\.color.red), 0.4, 0.6))
        #expect(spans(ps.map(\.color.green), 0.3, 0.7))
        #expect(spans(ps.map(\.color.blue), 0.2, 0.8))
        #expect(spans(ps.map(\.color.alpha), 0.1, 0.9))
        // Independent draws: the components are not one another's scaled copies.
        let same = ps.filter { abs(($0.color.green - 0.5) * 0.5 - ($0.color.red - 0.5)) < 1e-9 }
        #expect(same.count < 10)
    }

    @Test func scaleSpinAndLongitudeRangesSpreadAroundTheirMeans() {
        let ps = crowd { c in c.scale = 1; c.scaleRange = 0.5; c.spin = 2; c.spinRange = 1; c.velocity = 10; c.emissionRange = .pi / 2 }
        #expect(spans(ps.map(\.scale), 0.75, 1.25))
        #expect(spans(ps.filter { $0.age > 0.01 }.map { $0.angle / $0.age }, 1.5, 2.5))
        let headings = ps.filter { $0.age > 0.01 }.map { atan2($0.y - 50, $0.x - 50) }
        #expect(spans(headings, -.pi / 4, .pi / 4), "longitude 0 ± range/2")
    }

    @Test func aLifetimeRangeEndsParticlesAtDifferentAges() {
        let (layer, _) = emitter { c in c.birthRate = 1000; c.lifetime = 1; c.lifetimeRange = 1 }
        // Lifetimes in [0.5, 1.5]: at 2 s, those born in the last 0.5 s all live, those older than 1.5 s none.
        let ages = particles(layer, at: 2).map(\.age)
        #expect(ages.allSatisfy { $0 < 1.5 })
        #expect(ages.filter { $0 < 0.5 }.count >= 499)
        let middle = ages.filter { $0 >= 0.5 }.count
        #expect(middle > 350 && middle < 650, "about half of the second between 0.5 and 1.5 s: \(middle)")
    }
}
