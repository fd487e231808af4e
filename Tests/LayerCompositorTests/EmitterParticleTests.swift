import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §7 in numbers: the particles a snapshot carries (no pixels here; EmitterRenderTests draws them).

/// An emitter of one cell named "spark" at (50, 50), with the cell's values set by `configure`.
func emitter(_ configure: (EmitterCell) -> Void = { _ in }) -> (EmitterLayer, EmitterCell) {
    let layer = EmitterLayer()
    layer.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    layer.position = Point(x: 50, y: 50)
    layer.emitterPosition = Point(x: 50, y: 50)
    let cell = EmitterCell()
    cell.name = "spark"
    configure(cell)
    layer.emitterCells = [cell]
    return (layer, cell)
}

/// The particles of `layer`'s snapshot at `time` (its parent's clock: the layer's own timing applies).
func particles(_ layer: Layer, at time: Double) -> [EmitterParticle] {
    (layer.snapshot(at: time).payload as? EmitterPayload)?.particles ?? []
}

/// The book's cell (listing 6.13), without an image.
func bookCell(_ cell: EmitterCell) {
    cell.birthRate = 150; cell.lifetime = 5
    cell.color = Color(red: 1, green: 0.5, blue: 0.1)
    cell.alphaSpeed = -0.4; cell.velocity = 50; cell.velocityRange = 50; cell.emissionRange = 2 * .pi
}

@Suite("Emitter particles")
struct EmitterParticleTests {
    @Test func defaultsAreCoreAnimations() {
        let l = EmitterLayer()
        #expect(l.emitterCells == nil && l.birthRate == 1 && l.lifetime == 1 && l.velocity == 1 && l.scale == 1 && l.spin == 1)
        #expect(l.emitterPosition == Point(x: 0, y: 0) && l.emitterZPosition == 0 && l.emitterSize == Size(width: 0, height: 0))
        #expect(l.emitterDepth == 0 && l.emitterShape == .point && l.emitterMode == .volume && l.renderMode == .unordered)
        #expect(!l.preservesDepth && l.seed == 0)
        let c = EmitterCell()
        #expect(c.name == nil && c.isEnabled && c.birthRate == 0 && c.lifetime == 0 && c.lifetimeRange == 0)
        #expect(c.emissionLongitude == 0 && c.emissionLatitude == 0 && c.emissionRange == 0 && c.velocity == 0 && c.velocityRange == 0)
        #expect(c.xAcceleration == 0 && c.yAcceleration == 0 && c.zAcceleration == 0)
        #expect(c.scale == 1 && c.scaleRange == 0 && c.scaleSpeed == 0 && c.spin == 0 && c.spinRange == 0)
        #expect(c.color == .white && c.redRange == 0 && c.alphaRange == 0 && c.redSpeed == 0 && c.alphaSpeed == 0)
        #expect(c.contents == nil && c.contentsRect == Rect(x: 0, y: 0, width: 1, height: 1) && c.contentsScale == 1)
        #expect(c.minificationFilter == .linear && c.magnificationFilter == .linear && c.minificationFilterBias == 0)
        #expect(c.emitterCells == nil && c.beginTime == 0 && c.duration == 0 && c.speed == 1 && c.timeOffset == 0)
        // A default cell emits nothing; a layer without cells has no payload.
        #expect(particles(emitter().0, at: 5).isEmpty)
        #expect(EmitterLayer().snapshot(at: 1).payload == nil)
    }

    @Test func theBooksCellHasTheAliveCountsOfItsRateAndLifetime() {
        let (layer, _) = emitter(bookCell)
        // n from max(0, ⌊ρ(τ − ℓ)⌋ + 1) to ⌊ρτ⌋.
        #expect(particles(layer, at: 2).count == 301)
        #expect(particles(layer, at: 10).count == 750)
        #expect(particles(layer, at: 0).count == 1, "the first is born at τ = 0")
        #expect(particles(layer, at: -1).isEmpty, "nothing is born before τ = 0")
    }

    @Test func theLayerMultipliesRateAndLifetime() {
        let (layer, _) = emitter(bookCell)
        layer.birthRate = 2
        #expect(particles(layer, at: 2).count == 601)
        // A fresh layer: changing a presented one's lifetime would animate implicitly from the old value.
        let (shorter, _) = emitter(bookCell)
        shorter.lifetime = 0.5   // ℓ = 2.5: n from ⌊150·7.5⌋ + 1 to 1500
        #expect(particles(shorter, at: 10).count == 375)
    }

    /// One particle: rate 1, long-lived, so at τ = a only particle 0 (age a) is … plus one per whole second.
    func single(_ configure: (EmitterCell) -> Void, at a: Double) -> EmitterParticle? {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 100; configure(c) }
        return particles(layer, at: a).first { $0.index == 0 }
    }

    @Test func aParticleMovesAtItsVelocityAlongItsLongitude() throws {
        let p = try #require(single({ $0.velocity = 100 }, at: 0.5))
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 50) < 1e-9, "emitterPosition + (50, 0)")
        let up = try #require(single({ $0.velocity = 100; $0.emissionLongitude = -.pi / 2 }, at: 0.5))
        #expect(abs(up.x - 50) < 1e-9 && abs(up.y - 0) < 1e-9, "−π/2 moves up")
        let tilted = try #require(single({ $0.velocity = 100; $0.emissionLatitude = .pi / 2 }, at: 0.5))
        #expect(abs(tilted.z - 50) < 1e-9 && abs(tilted.x - 50) < 1e-9, "latitude tilts towards +z")
    }

    @Test func accelerationScaleSpinAndColourFollowTheAge() throws {
        let fall = try #require(single({ $0.yAcceleration = 20 }, at: 1))
        #expect(abs(fall.y - 60) < 1e-9, "+10 pt at a = 1")
        let x = try #require(single({ $0.xAcceleration = -4; $0.zAcceleration = 6 }, at: 1))
        #expect(abs(x.x - 48) < 1e-9 && abs(x.z - 3) < 1e-9)
        let fade = try #require(single({ $0.alphaSpeed = -0.4 }, at: 1))
        #expect(abs(fade.color.alpha - 0.6) < 1e-9)
        let tint = try #require(single({ $0.color = Color(red: 0.2, green: 0.4, blue: 0.6); $0.redSpeed = 0.1; $0.greenSpeed = 1; $0.blueSpeed = -1 }, at: 1))
        #expect(abs(tint.color.red - 0.3) < 1e-9 && tint.color.green == 1 && tint.color.blue == 0, "clamped to 0…1")
        let grow = try #require(single({ $0.scale = 2; $0.scaleSpeed = 0.5 }, at: 2))
        #expect(abs(grow.scale - 3) < 1e-9)
        let shrink = try #require(single({ $0.scale = 1; $0.scaleSpeed = -1 }, at: 3))
        #expect(shrink.scale == 0, "never below 0")
        let turn = try #require(single({ $0.spin = 2 }, at: 1.5))
        #expect(abs(turn.angle - 3) < 1e-9)
    }

    @Test func theLayersMultipliersScaleVelocityScaleAndSpin() throws {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 100; c.velocity = 10; c.scale = 2; c.spin = 1 }
        layer.velocity = 3; layer.scale = 0.5; layer.spin = -2
        let p = try #require(particles(layer, at: 1).first { $0.index == 0 })
        #expect(abs(p.x - 80) < 1e-9 && abs(p.scale - 1) < 1e-9 && abs(p.angle + 2) < 1e-9)
    }

    @Test func aLifetimeEndsAParticle() {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 1.5 }
        #expect(particles(layer, at: 1.4).map(\.index) == [0, 1])
        #expect(particles(layer, at: 1.5).map(\.index) == [1], "particle 0 dies at exactly its lifetime")
    }

    @Test func tenThousandDrawsLieInTheHeadersRangeAroundTheMean() {
        let (layer, _) = emitter { c in c.birthRate = 10_000; c.lifetime = 10; c.velocity = 100; c.velocityRange = 50 }
        let ps = particles(layer, at: 0.99995)
        #expect(ps.count == 10_000)
        let speeds = ps.map { ($0.x - 50) / $0.age }
        #expect(speeds.allSatisfy { $0 >= 75 - 1e-6 && $0 <= 125 + 1e-6 }, "[M − R/2, M + R/2]")
        let mean = speeds.reduce(0, +) / Double(speeds.count)
        #expect(abs(mean - 100) < 1, "mean M ± 1 %: \(mean)")
        #expect(speeds.min()! < 76 && speeds.max()! > 124, "the whole range is used")
    }

    @Test func theSameSeedGivesTheSameParticlesAndAnotherSeedOthers() {
        let (a, _) = emitter(bookCell), (b, _) = emitter(bookCell)
        #expect(particles(a, at: 2) == particles(b, at: 2))
        #expect(particles(a, at: 2) == particles(a, at: 2), "two snapshots at one time are equal")
        b.seed = 7
        let other = particles(b, at: 2)
        #expect(other.count == 301 && other != particles(a, at: 2))
    }

    @Test func aSeekShowsWhatPlayingShows() {
        let (played, _) = emitter(bookCell), (sought, _) = emitter(bookCell)
        for frame in 0..<120 { _ = particles(played, at: Double(frame) / 60) }
        #expect(particles(played, at: 2) == particles(sought, at: 2))
    }

    @Test func renderModesOrderThePainting() {
        let (layer, _) = emitter { c in c.birthRate = 20; c.lifetime = 3; c.lifetimeRange = 2; c.velocity = 30; c.emissionLatitude = 1; c.emissionRange = 6 }
        layer.emitterShape = .sphere; layer.emitterSize = Size(width: 20, height: 0)
        let unordered = particles(layer, at: 2)
        #expect(unordered.map(\.index) == unordered.map(\.index).sorted(), "cell order, then birth order")
        layer.renderMode = .oldestFirst
        let oldestFirst = particles(layer, at: 2)
        #expect(oldestFirst.map(\.age) == oldestFirst.map(\.age).sorted(by: >))
        layer.renderMode = .oldestLast
        let oldestLast = particles(layer, at: 2)
        #expect(oldestLast.map(\.age) == oldestLast.map(\.age).sorted())
        layer.renderMode = .backToFront
        let zs = particles(layer, at: 2).map(\.z)
        #expect(zs == zs.sorted() && Set(zs).count > 10)
        layer.renderMode = .additive
        #expect(particles(layer, at: 2) == unordered)
        #expect((layer.snapshot(at: 2).payload as? EmitterPayload)?.isAdditive == true)
    }

    @Test func cellsAreEmittedInCellOrderAndADisabledCellEmitsNone() {
        let (layer, first) = emitter { c in c.birthRate = 2; c.lifetime = 10 }
        let second = EmitterCell()
        second.birthRate = 3; second.lifetime = 10
        layer.emitterCells = [first, second]
        let ps = particles(layer, at: 1)
        #expect(ps.map(\.cell) == [0, 0, 0, 1, 1, 1, 1])
        first.isEnabled = false
        #expect(particles(layer, at: 1).map(\.cell) == [1, 1, 1, 1])
    }

    @Test func aCellEmitsOnlyWithinItsActiveInterval() {
        let (layer, cell) = emitter { c in c.birthRate = 1; c.lifetime = 100; c.beginTime = 3 }
        #expect(particles(layer, at: 2.9).isEmpty)
        #expect(particles(layer, at: 3).count == 1, "a rate that starts at 3 gives its first particle at 3")
        cell.beginTime = 0; cell.duration = 2.5
        #expect(particles(layer, at: 10).map(\.index) == [0, 1, 2], "births at 0, 1, 2 only")
        cell.duration = 0; cell.timeOffset = 4
        #expect(particles(layer, at: 0).count == 5, "timeOffset pre-rolls")
        cell.timeOffset = 0; cell.speed = 2
        #expect(particles(layer, at: 1).count == 3, "the cell's clock runs twice as fast")
        layer.timeOffset = 1; cell.speed = 1
        #expect(particles(layer, at: 0).count == 2, "the layer's own timing moves its local time")
    }

    @Test func shapesAndModesPlaceBirthsWhereTheyShould() {
        func births(_ shape: EmitterLayer.Shape, _ mode: EmitterLayer.Mode, size: Size = Size(width: 40, height: 20), depth: Double = 10) -> [(Double, Double, Double)] {
            let (layer, _) = emitter { c in c.birthRate = 500; c.lifetime = 10 }
            layer.emitterShape = shape; layer.emitterMode = mode; layer.emitterSize = size; layer.emitterDepth = depth
            layer.emitterZPosition = 5
            return particles(layer, at: 0.999).map { ($0.x - 50, $0.y - 50, $0.z - 5) }
        }
        let e = 1e-9
        #expect(births(.point, .volume).allSatisfy { $0 == (0, 0, 0) })
        #expect(births(.line, .volume).allSatisfy { abs($0.0) <= 20 && $0.1 == 0 && $0.2 == 0 })
        #expect(births(.line, .points).allSatisfy { abs(abs($0.0) - 20) < e })
        #expect(births(.rectangle, .surface).allSatisfy { abs($0.0) <= 20 && abs($0.1) <= 10 && $0.2 == 0 })
        #expect(births(.rectangle, .outline).allSatisfy { abs(abs($0.0) - 20) < e || abs(abs($0.1) - 10) < e })
        #expect(Set(births(.rectangle, .points).map { "\($0.0),\($0.1)" }) == ["-20.0,-10.0", "20.0,-10.0", "-20.0,10.0", "20.0,10.0"])
        #expect(births(.cuboid, .volume).allSatisfy { abs($0.0) <= 20 && abs($0.1) <= 10 && abs($0.2) <= 5 })
        #expect(births(.cuboid, .surface).allSatisfy { abs(abs($0.0) - 20) < e || abs(abs($0.1) - 10) < e || abs(abs($0.2) - 5) < e })
        #expect(births(.cuboid, .points).count == 500 && Set(births(.cuboid, .points).map { "\($0.0),\($0.1),\($0.2)" }).count == 8)
        let outline = births(.cuboid, .outline)
        #expect(outline.allSatisfy { [abs(abs($0.0) - 20) < e, abs(abs($0.1) - 10) < e, abs(abs($0.2) - 5) < e].filter { $0 }.count >= 2 })
        let disc = births(.circle, .volume)
        #expect(disc.allSatisfy { hypot($0.0, $0.1) <= 40 + e && $0.2 == 0 })
        #expect(disc.filter { hypot($0.0, $0.1) < 20 }.count < 170, "√u: a quarter of the area holds about a quarter")
        #expect(births(.circle, .outline).allSatisfy { abs(hypot($0.0, $0.1) - 40) < 1e-6 })
        #expect(births(.sphere, .surface).allSatisfy { abs(($0.0 * $0.0 + $0.1 * $0.1 + $0.2 * $0.2).squareRoot() - 40) < 1e-6 })
        #expect(births(.sphere, .volume).allSatisfy { ($0.0 * $0.0 + $0.1 * $0.1 + $0.2 * $0.2).squareRoot() <= 40 + e })
    }

    @Test func cellPropertiesAnimateByKeyPathWithoutTouchingTheModel() {
        let (layer, cell) = emitter { c in c.birthRate = 10; c.lifetime = 100; c.velocity = 10 }
        #expect(layer.value(forKey: "emitterCells.spark.birthRate") == .number(10))
        #expect(layer.value(forKey: "emitterCells.spark.color") == .color(.white))
        let fast = BasicAnimation(keyPath: "emitterCells.spark.velocity")
        fast.fromValue = 100.0; fast.toValue = 100.0; fast.duration = 10
        layer.add(fast, forKey: "fast")
        let p = particles(layer, at: 1).first { $0.index == 0 }
        #expect(p.map { abs($0.x - 150) < 1e-9 } == true, "the animated velocity moves the particle")
        #expect(cell.velocity == 10, "the model cell is untouched")
        // Added now, they begin at the next snapshot (1) and change the particles born from then on (EmitterBirthHistoryTests).
        let rate = BasicAnimation(keyPath: "birthRate")
        rate.fromValue = 2.0; rate.toValue = 2.0; rate.duration = 10
        layer.add(rate, forKey: "rate")
        #expect(particles(layer, at: 1).count == 11)
        #expect(particles(layer, at: 2).count == 31, "10 a second until 1, then 20")
        let moved = BasicAnimation(keyPath: "emitterPosition")
        moved.fromValue = Point(x: 0, y: 0); moved.toValue = Point(x: 0, y: 0); moved.duration = 10
        layer.add(moved, forKey: "moved")
        _ = particles(layer, at: 2)
        let ps = particles(layer, at: 3)
        #expect(ps.first { $0.index == 29 }.map { abs($0.y - 50) < 1e-9 } == true, "born before the move")
        #expect(ps.first { $0.index == 31 }.map { abs($0.y) < 1e-9 } == true, "born after it")
    }

    @Test func subCellsHaveKeyPathsOfTheirOwn() {
        let (layer, cell) = emitter()
        let smoke = EmitterCell()
        smoke.name = "smoke"; smoke.scale = 3
        cell.emitterCells = [smoke]
        #expect(layer.value(forKey: "emitterCells.spark.emitterCells.smoke.scale") == .number(3))
    }

    @Test func hostileValuesAreClampedNeverAHangOrACrash() {
        // 10⁹ a second for 10³⁰⁰ seconds: the cap bounds the work.
        let (layer, _) = emitter { c in c.birthRate = 1e9; c.lifetime = 1e300; c.velocity = 1 }
        let clock = ContinuousClock(), start = clock.now
        let payload = layer.snapshot(at: 100).payload as? EmitterPayload
        #expect(payload?.particles.count == EmitterLayer.maximumParticleCount && payload?.isCapped == true)
        #expect(clock.now - start < .seconds(30), "bounded work (not a timing claim: a hang would never end)")
        for bad in [Double.nan, .infinity, -.infinity, 1e308, -5] {
            let (l, c) = emitter { c in c.birthRate = 10; c.lifetime = 10; c.velocity = 1 }
            c.lifetime = bad; c.velocity = bad; c.scale = bad; c.spin = bad; c.xAcceleration = bad; c.alphaSpeed = bad
            c.emissionLongitude = bad; c.contentsScale = bad; c.speed = bad; c.birthRate = bad
            l.birthRate = bad; l.emitterPosition = Point(x: bad, y: bad); l.emitterSize = Size(width: bad, height: bad)
            for t in [0, 1, bad] {
                let ps = particles(l, at: t)
                #expect(ps.count <= EmitterLayer.maximumParticleCount)
                #expect(ps.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.scale.isFinite && $0.color.alpha >= 0 && $0.color.alpha <= 1 })
            }
        }
        // Thousands of cells whose candidates mostly died: the budget is shared, so they cost no more than one cell.
        let crowd = EmitterLayer()
        crowd.emitterCells = (0..<5000).map { _ in
            let c = EmitterCell(); c.birthRate = 1e9; c.lifetime = 1e-9; c.lifetimeRange = 2e-9; return c
        }
        let crowdStart = clock.now
        #expect(particles(crowd, at: 10).count <= EmitterLayer.maximumParticleCount)
        #expect(clock.now - crowdStart < .seconds(30), "bounded work")
        // A huge time with a long life: indices stay exact or are refused, never overflow.
        let (late, _) = emitter { c in c.birthRate = 1e9; c.lifetime = 10 }
        #expect(particles(late, at: 1e300).count <= EmitterLayer.maximumParticleCount)
    }
}
