import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §7 "Drawing": particles as tinted, turned quads of their cell's image, source-over or added,
// above the layer's border, clipped only by masksToBounds; and a seek draws what playing draws.

/// A `size`² opaque white square image.
func whiteSquare(_ size: Int) -> Image { Image(width: size, height: size, color: .white) }

/// The channels of a pixel as integers (r, g, b, a).
func channels(_ s: Surface, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
    let p = s.pixel(x: x, y: y)
    return (Int(p.r), Int(p.g), Int(p.b), Int(p.a))
}

@Suite("Emitter drawing")
struct EmitterRenderTests {
    /// A 100×100 black canvas holding `layer` (an emitter from `emitter(_:)`).
    func scene(_ layer: EmitterLayer, background: Color? = .black) -> Layer {
        let root = canvas(100, 100, background: background)
        root.addSublayer(layer)
        return root
    }

    /// Two motionless particles (births at 0 and 1) of an 8² white square at alpha 0.5, seen at τ = 1.
    func twoHalfParticles(_ mode: EmitterLayer.RenderMode) -> Surface {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(8); c.color = Color(white: 1, alpha: 0.5) }
        layer.renderMode = mode
        return sharedCompositor.render(scene(layer, background: nil).snapshot(at: 1), width: 100, height: 100)
    }

    @Test func additiveAddsTwoHalfParticlesToOne() {
        let added = twoHalfParticles(.additive)
        #expect(channels(added, 50, 50) == (255, 255, 255, 255), "0.5 + 0.5")
        let over = twoHalfParticles(.unordered)
        let (r, _, _, a) = channels(over, 50, 50)
        #expect(abs(r - 191) <= 1 && abs(a - 191) <= 1, "0.5 over 0.5 is 0.75")
        #expect(channels(added, 40, 50) == (0, 0, 0, 0), "nothing outside the 8-point square")
    }

    @Test func aParticleIsItsImageTintedCentredAndSizedByScaleAndContentsScale() {
        let (layer, _) = emitter { c in
            c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(20); c.contentsScale = 2; c.scale = 3
            c.color = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
        }
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        // 20 px / 2 × 3 = 30 points wide, centred at (50, 50): columns 35…64.
        #expect(channels(s, 36, 50) == (255, 128, 0, 255) || channels(s, 36, 50) == (255, 127, 0, 255))
        #expect(channels(s, 63, 63) == channels(s, 36, 50))
        #expect(channels(s, 33, 50) == (0, 0, 0, 255) && channels(s, 66, 50) == (0, 0, 0, 255))
    }

    @Test func aSpinningParticleTurns() {
        // A 40×4 bar turned by a quarter turn stands upright.
        let bar = Image(width: 40, height: 4, color: .white)
        // Seen at 0.9, before the second particle is born.
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = bar; c.spin = .pi / 2 / 0.9 }
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.9), width: 100, height: 100)
        #expect(channels(s, 50, 35).0 == 255 && channels(s, 50, 65).0 == 255, "vertical after a quarter turn")
        #expect(channels(s, 35, 50).0 == 0 && channels(s, 65, 50).0 == 0)
    }

    @Test func contentsRectPicksPartOfTheImage() {
        // Left half red, right half green; contentsRect shows the right half only.
        let image = Image(width: 20, height: 10) { px in
            for y in 0..<10 { for x in 0..<20 { px[y * 20 + x] = x < 10 ? 0xffff_0000 : 0xff00_ff00 } }
        }
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = image; c.contentsRect = Rect(x: 0.5, y: 0, width: 0.5, height: 1) }
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect(channels(s, 47, 50) == (0, 255, 0, 255) && channels(s, 52, 50) == (0, 255, 0, 255))
        #expect(channels(s, 56, 50) == (0, 0, 0, 255), "10 points wide")
    }

    @Test func particlesDrawAboveTheBorderAndOutsideTheBoundsUnlessMasked() {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(6) }
        layer.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        layer.position = Point(x: 30, y: 30)   // frame (10, 10)…(50, 50)
        layer.borderWidth = 4; layer.borderColor = .red
        layer.emitterPosition = Point(x: 2, y: 20)   // on the left border, at (12, 30) on the canvas
        let sublayer = Layer()
        sublayer.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        sublayer.backgroundColor = .blue
        layer.addSublayer(sublayer)
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect(channels(s, 12, 30) == (255, 255, 255, 255), "above the border and the sublayers")
        #expect(channels(s, 9, 30) == (255, 255, 255, 255), "not clipped to the bounds")
        layer.masksToBounds = true
        let clipped = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect(channels(clipped, 12, 30) == (255, 255, 255, 255))
        #expect(channels(clipped, 9, 30) == (0, 0, 0, 255), "masksToBounds clips particles")
    }

    @Test func groupOpacityAppliesToTheParticles() {
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(6) }
        layer.opacity = 0.5
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect(abs(channels(s, 50, 50).0 - 128) <= 1)
    }

    @Test func theShadowTakesTheParticlesShape() {
        // §0.4: the shadow's shape is the composited alpha of everything the layer draws, particles included.
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(6) }
        layer.shadowOpacity = 1; layer.shadowColor = .red; layer.shadowOffset = Size(width: 20, height: 0); layer.shadowRadius = 0
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect(channels(s, 50, 50) == (255, 255, 255, 255))
        #expect(channels(s, 70, 50) == (255, 0, 0, 255), "the particle's shadow, 20 points to the right")
        #expect(channels(s, 70, 40) == (0, 0, 0, 255), "only where the particle is")
    }

    @Test func aMinifiedParticleSamplesTheMipmapsAverage() {
        // A 64² checkerboard of 1-pixel black and white squares drawn 8 points wide: mipmapped sampling gives grey.
        let checker = Image(width: 64, height: 64) { px in
            for y in 0..<64 { for x in 0..<64 { px[y * 64 + x] = (x + y) % 2 == 0 ? 0xffff_ffff : 0xff00_0000 } }
        }
        let (layer, cell) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = checker; c.scale = 0.125 }
        let s = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        for x in 47..<53 { #expect(abs(channels(s, x, 50).0 - 128) <= 3, "column \(x)") }
        cell.minificationFilter = .nearest
        let nearest = sharedCompositor.render(scene(layer).snapshot(at: 0.5), width: 100, height: 100)
        #expect((47..<53).allSatisfy { [0, 255].contains(channels(nearest, $0, 50).0) }, "nearest: no averaging")
    }

    @Test func aSeekDrawsExactlyWhatPlayingDraws() {
        func fire() -> Layer {
            let (layer, _) = emitter { c in bookCell(c); c.contents = whiteSquare(4) }
            layer.renderMode = .additive
            return scene(layer)
        }
        let played = fire(), sought = fire()
        for frame in 0..<120 { _ = sharedCompositor.render(played.snapshot(at: Double(frame) / 60), width: 100, height: 100) }
        let a = sharedCompositor.render(played.snapshot(at: 2), width: 100, height: 100)
        let b = sharedCompositor.render(sought.snapshot(at: 2), width: 100, height: 100)
        #expect(a.makeImage().isPixelEqual(to: b.makeImage()))
        let reseeded = fire()
        ((reseeded.sublayers?.first as? EmitterLayer))?.seed = 1
        let c = sharedCompositor.render(reseeded.snapshot(at: 2), width: 100, height: 100)
        #expect(!a.makeImage().isPixelEqual(to: c.makeImage()), "another seed draws other particles")
    }

    @Test func hostileParticlesDrawNothingRatherThanCrash() {
        for bad in [Double.nan, .infinity, 1e300, -1e300] {
            let (layer, _) = emitter { c in c.birthRate = 10; c.lifetime = 10; c.contents = whiteSquare(4); c.scale = bad; c.velocity = bad }
            var perspective = Transform3D.identity
            perspective.m34 = -1 / 500
            layer.transform = perspective.rotated(by: 1.2, x: 0, y: 1, z: 0)
            let s = sharedCompositor.render(scene(layer).snapshot(at: 1), width: 100, height: 100)
            #expect(s.width == 100)
        }
        let (empty, _) = emitter { c in c.birthRate = 10; c.lifetime = 10; c.contents = Image(width: 1, height: 1, color: .white); c.contentsRect = Rect(x: 2, y: 2, width: 0, height: 0) }
        #expect(sharedCompositor.render(scene(empty).snapshot(at: 1), width: 100, height: 100).width == 100)
    }
}

extension Image {
    /// Whether both images hold the same pixels.
    func isPixelEqual(to other: Image) -> Bool {
        width == other.width && height == other.height
            && withUnsafePixels { a in other.withUnsafePixels { b in a.elementsEqual(b) } }
    }
}

/// `preservesDepth` (SEMANTICS-LAYERS.md §7): particles at their z under the superlayer's perspective.
@Suite("Emitter depth")
struct EmitterDepthTests {
    /// One white 8×8 particle at (150, 100, z) in a 200×200 emitter under a perspective of 500 about the centre;
    /// the drawn pixels' horizontal centre and width.
    func drawn(z: Double, preservesDepth: Bool) -> (centre: Double, width: Int) {
        let root = canvas(200, 200, background: .black)
        var perspective = Transform3D.identity
        perspective.m34 = -1 / 500
        root.sublayerTransform = perspective
        let (layer, _) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(8) }
        layer.frame = root.bounds
        layer.emitterPosition = Point(x: 150, y: 100)
        layer.emitterZPosition = z
        layer.preservesDepth = preservesDepth
        root.addSublayer(layer)
        let s = render(root)
        var sum = 0.0, weight = 0.0, columns = Set<Int>()
        for y in 0..<200 {
            for x in 0..<200 {
                let r = channels(s, x, y).0
                if r > 0 { sum += Double(x) * Double(r); weight += Double(r); columns.insert(x) }
            }
        }
        return (weight > 0 ? sum / weight + 0.5 : -1, columns.count)
    }

    @Test func aParticleNearerTheEyeIsFartherOutAndLarger() {
        let flat = drawn(z: 100, preservesDepth: false)
        #expect(abs(flat.centre - 150) < 0.1 && flat.width == 8, "z dropped: \(flat)")
        let deep = drawn(z: 100, preservesDepth: true)
        // 500 / (500 − 100) = 1.25 from the centre (100): 100 + 50 · 1.25.
        #expect(abs(deep.centre - 162.5) < 0.2, "\(deep)")
        #expect(deep.width >= 10 && deep.width <= 11, "8 × 1.25 wide (plus its antialiased edges): \(deep)")
        let zero = drawn(z: 0, preservesDepth: true)
        #expect(abs(zero.centre - 150) < 0.1, "z 0 is the layer's plane")
    }

    @Test func particlesArePaintedBackToFrontByDepth() {
        // A red particle in the layer's plane, then (in cell order) a blue one moving away from the eye, at the same
        // place: flat, the blue is painted over the red; with depth, the red is nearer and on top.
        func centre(preservesDepth: Bool) -> (Int, Int, Int, Int) {
            let (layer, red) = emitter { c in c.birthRate = 1; c.lifetime = 10; c.contents = whiteSquare(8); c.color = .red }
            let blue = EmitterCell()
            blue.birthRate = 1; blue.lifetime = 10; blue.contents = whiteSquare(8); blue.color = .blue
            blue.emissionLatitude = -.pi / 2; blue.velocity = 100
            layer.emitterCells = [red, blue]
            layer.preservesDepth = preservesDepth
            let root = canvas(100, 100, background: .black)
            root.addSublayer(layer)
            return channels(sharedCompositor.render(root.snapshot(at: 0.5), width: 100, height: 100), 50, 50)
        }
        let flat = centre(preservesDepth: false), deep = centre(preservesDepth: true)
        #expect(flat.2 > 200 && flat.0 < 50, "flat: the later cell on top \(flat)")
        #expect(deep.0 > 200 && deep.2 < 50, "with depth: the nearer on top \(deep)")
    }
}
