import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// How long 2,000 particles take at 1080p: printed, never asserted (a shared machine times nothing reliably). The
// scene is a full-frame opaque background with a rounded card (a playback scene's look) and the book's fire spread
// over the frame; the same scene without the emitter is timed too, so the particles' own cost reads as the difference.

@Suite("Emitter speed")
struct EmitterSpeedTests {
    /// 400 births a second living 5 s: at τ ≥ 5, exactly 2,000 alive.
    func scene(withEmitter: Bool, spark: Image) -> Layer {
        let root = canvas(1920, 1080, background: Color(red: 0.1, green: 0.1, blue: 0.15))
        let card = Layer()
        card.frame = Rect(x: 360, y: 200, width: 1200, height: 680)
        card.backgroundColor = Color(red: 0.3, green: 0.35, blue: 0.5)
        card.cornerRadius = 24
        root.addSublayer(card)
        guard withEmitter else { return root }
        let emitter = EmitterLayer()
        emitter.frame = root.bounds
        emitter.renderMode = .additive
        emitter.emitterPosition = Point(x: 960, y: 540)
        emitter.emitterShape = .rectangle
        emitter.emitterSize = Size(width: 1600, height: 800)
        let cell = EmitterCell()
        cell.contents = spark
        cell.birthRate = 400; cell.lifetime = 5
        cell.color = Color(red: 1, green: 0.5, blue: 0.1)
        cell.alphaSpeed = -0.15; cell.velocity = 30; cell.velocityRange = 30; cell.emissionRange = 2 * .pi
        cell.spin = 1; cell.spinRange = 2
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        return root
    }

    @Test func twoThousandParticlesAt1080p() throws {
        let spark = try PNG.read(path: mediaSample("spark.png"))
        let compositor = Compositor()
        func time(_ withEmitter: Bool) -> (snapshot: Double, render: Double, count: Int) {
            let root = scene(withEmitter: withEmitter, spark: spark)
            var snapshots: [Double] = [], renders: [Double] = [], count = 0
            let clock = ContinuousClock()
            for frame in 0..<12 {
                let t = 6 + Double(frame) / 60
                var snapshot: LayerSnapshot!
                snapshots.append(ms(clock.measure { snapshot = root.snapshot(at: t) }))
                count = (snapshot.sublayers.last?.payload as? EmitterPayload)?.particles.count ?? 0
                renders.append(ms(clock.measure { _ = compositor.render(snapshot, width: 1920, height: 1080) }))
            }
            // The median of the frames after the first (which builds pools and mipmaps).
            func median(_ v: [Double]) -> Double { let s = v.dropFirst().sorted(); return s[s.count / 2] }
            return (median(snapshots), median(renders), count)
        }
        let plain = time(false), fire = time(true)
        #expect(fire.count == 2000)
        print(String(format: "emitter speed, 1920×1080: %d particles: snapshot %.2f ms, render %.2f ms; without the emitter: render %.2f ms",
                     fire.count, fire.snapshot, fire.render, plain.render))
        // The work itself, on one thread, in that thread's CPU time: what other processes on the machine do not change.
        let single = Compositor(threads: 1)
        func cpu(_ withEmitter: Bool) -> Double {
            let snapshot = scene(withEmitter: withEmitter, spark: spark).snapshot(at: 6)
            _ = single.render(snapshot, width: 1920, height: 1080)
            let start = threadCPUTime()
            for _ in 0..<5 { _ = single.render(snapshot, width: 1920, height: 1080) }
            return (threadCPUTime() - start) / 5
        }
        let cpuPlain = cpu(false), cpuFire = cpu(true)
        print(String(format: "emitter speed, one thread's CPU time per 1080p frame: %.2f ms with 2,000 particles, %.2f ms without",
                     cpuFire, cpuPlain))
    }

    /// This thread's CPU time in milliseconds.
    private func threadCPUTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) * 1e-6
    }

    private func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
    }
}
