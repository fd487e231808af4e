import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

/// Clipped particles take the clip's coverage only where the clip is partial: deep inside it they draw as unclipped
/// particles do (the fast row kernel), and outside its reach nothing is drawn (a depth-sorted split offers every
/// particle to both pieces, each clipped to its half).
@Suite("Emitter clipping")
struct EmitterClipTests {
    /// Many small particles spread over the whole 100² canvas at τ = 2.
    func spread() -> EmitterLayer {
        let (layer, _) = emitter { c in
            c.birthRate = 200; c.lifetime = 10; c.velocity = 40; c.emissionRange = 2 * .pi
            c.contents = whiteSquare(6); c.color = Color(red: 1, green: 0.6, blue: 0.2, alpha: 0.8)
        }
        layer.renderMode = .additive
        return layer
    }

    func render(clippedBy radius: Double?) -> Surface {
        let root = canvas(100, 100, background: .black)
        let layer = spread()
        if let radius {
            let clip = Layer()
            clip.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            clip.position = Point(x: 50, y: 50)
            clip.cornerRadius = radius
            clip.masksToBounds = true
            clip.addSublayer(layer)
            root.addSublayer(clip)
        } else {
            root.addSublayer(layer)
        }
        return sharedCompositor.render(root.snapshot(at: 2), width: 100, height: 100)
    }

    @Test func deepInsideAClipParticlesDrawAsUnclippedOnes() {
        let plain = render(clippedBy: nil), clipped = render(clippedBy: 30)
        var worst = 0, lit = 0
        for y in 25..<75 {
            for x in 25..<75 {
                let a = channels(plain, x, y), b = channels(clipped, x, y)
                worst = max(worst, abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2), abs(a.3 - b.3))
                if a.0 > 0 { lit += 1 }
            }
        }
        #expect(lit > 500, "the particles cover the middle: \(lit) lit pixels")
        #expect(worst <= 1, "deep inside the clip: \(worst)")
    }

    @Test func outsideTheClipsReachNothingIsDrawn() {
        let plain = render(clippedBy: nil), clipped = render(clippedBy: 30)
        // The rounded corner's outside: lit without the clip, background with it.
        var litOutside = 0, drawnOutside = 0
        for y in 0..<30 {
            for x in 0..<30 where Double((30 - x) * (30 - x) + (30 - y) * (30 - y)).squareRoot() > 32 {
                if channels(plain, x, y).0 > 0 { litOutside += 1 }
                if channels(clipped, x, y) != (0, 0, 0, 255) { drawnOutside += 1 }
            }
        }
        #expect(litOutside > 0, "particles reach the corner without the clip")
        #expect(drawnOutside == 0)
    }
}
