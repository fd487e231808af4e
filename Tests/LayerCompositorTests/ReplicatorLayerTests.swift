import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §4, "Test by", plus the colour rule (per draw), preservesDepth and hostile values.

/// The book's ring transform (listing 6.8), scaled: built with Translate(0, r), Rotate(π/5), Translate(0, −r), each
/// new call applied first, so it turns by 36° about the point r below the replicator's centre.
func ringTransform(radius r: Double) -> Transform3D {
    Transform3D.makeTranslation(0, -r, 0)
        .concatenating(Transform3D.makeRotation(.pi / 5, 0, 0, 1))
        .concatenating(Transform3D.makeTranslation(0, r, 0))
}

/// A canvas whose whole area is a replicator (bounds = the canvas), for the tests to fill.
private func replicatorScene(_ width: Int, _ height: Int, background: Color? = Palette.canvas) -> (Layer, ReplicatorLayer) {
    let root = canvas(width, height, background: background)
    let replicator = ReplicatorLayer()
    replicator.frame = root.bounds
    root.addSublayer(replicator)
    return (root, replicator)
}

private func premultiplied(_ c: Color) -> PremultipliedColor {
    func q(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * c.alpha * 255).rounded()) }
    return PremultipliedColor(r: q(c.red), g: q(c.green), b: q(c.blue), a: UInt8((c.alpha * 255).rounded()))
}

@Suite("ReplicatorLayer: §4's checks")
struct ReplicatorLayerTests {
    @Test func theRingPutsInstanceKAtKTimes36DegreesAroundThePivotAndFadesToRed() throws {
        // 6.8 at 256×256: a 256×256 replicator centred at (128, 48), so its pivot, 80 below its centre, is the
        // canvas's centre; a 20×20 white square centred on the replicator's centre, 80 above the pivot.
        let root = canvas(256, 256)
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: -80, width: 256, height: 256)
        root.addSublayer(replicator)
        replicator.instanceCount = 10
        replicator.instanceTransform = ringTransform(radius: 80)
        replicator.instanceBlueOffset = -0.1
        replicator.instanceGreenOffset = -0.1
        replicator.addSublayer(makeLayer(Rect(x: 118, y: 118, width: 20, height: 20), background: .white))
        let snapshot = root.snapshot()
        let node = snapshot.sublayers[0]
        let payload = try #require(node.payload as? ReplicatorPayload)
        let matrices = node.replicatorInstanceMatrices(payload)
        #expect(matrices.count == 10)
        let pivot = (x: 128.0, y: 208.0) // in the replicator's space; (128, 128) on the canvas
        let s = render(root)
        for (k, m) in matrices.enumerated() {
            let p = m.apply(x: 128, y: 128)
            let angle = Double(k) * .pi / 5
            let expected = (x: pivot.x + 80 * sin(angle), y: pivot.y - 80 * cos(angle))
            #expect(abs(p.x / p.w - expected.x) <= 0.01 && abs(p.y / p.w - expected.y) <= 0.01,
                    "instance \(k)'s centre \(p) at \(expected)")
            let c = payload.color(ofInstance: k)
            expectPixel(s, Int(expected.x), Int(expected.y - 80), premultiplied(Color(red: 1, green: c.green, blue: c.blue)),
                        tolerance: 1, "instance \(k) is white × its colour")
        }
        expectPixel(s, Int(pivot.x + 80 * sin(9 * .pi / 5)), Int(pivot.y - 80 - 80 * cos(9 * .pi / 5)),
                    PremultipliedColor(r: 255, g: 26, b: 26, a: 255), tolerance: 1, "instance 9 ≈ (255, 26, 26)")
        expectPixel(s, 128, 128, premultiplied(Palette.canvas), "the pivot itself stays empty")
    }

    @Test func theReflectionIsAMirroredCopyBelowAtFortyPercent() {
        let w = 64, h = 48
        let root = canvas(w, 2 * h + 2 + 4, background: nil)
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        replicator.instanceCount = 2
        // Translate(0, h + 2), then Scale(1, −1, 0) applied first: a flip about the centre, then down by h + 2.
        replicator.instanceTransform = Transform3D.makeScale(1, -1, 0).concatenating(Transform3D.makeTranslation(0, Double(h) + 2, 0))
        replicator.instanceAlphaOffset = -0.6
        let picture = makeLayer(replicator.bounds)
        picture.contents = .image(testImage(width: w, height: h))
        replicator.addSublayer(picture)
        root.addSublayer(replicator)
        let s = render(root)
        var worst = 0
        for j in 0..<h {
            for x in 0..<w {
                let o = s.pixel(x: x, y: h - 1 - j), r = s.pixel(x: x, y: h + 2 + j)
                func scaled(_ v: UInt8) -> UInt8 { UInt8((Double(v) * 0.4).rounded()) }
                worst = max(worst, channelDifference(r, PremultipliedColor(r: scaled(o.r), g: scaled(o.g), b: scaled(o.b), a: scaled(o.a))))
            }
        }
        #expect(worst <= 1, "pixel (x, h + 2 + j) = 0.4 × original (x, h − 1 − j) ± 1; worst \(worst)")
        for x in [0, 20, 63] {
            #expect(s.pixel(x: x, y: h).a == 0 && s.pixel(x: x, y: h + 1).a == 0, "the 2-pt gap is empty")
        }
    }

    @Test func aCountOfZeroDrawsOnlyTheBackground() {
        let (root, replicator) = replicatorScene(32, 32)
        replicator.backgroundColor = .red
        replicator.instanceCount = 0
        replicator.addSublayer(makeLayer(Rect(x: 8, y: 8, width: 16, height: 16), background: .blue))
        let s = render(root)
        for (x, y) in [(0, 0), (16, 16), (31, 31)] { expectPixel(s, x, y, premultiplied(.red), "only the background") }
        Transaction.withoutActions { replicator.instanceCount = -5 }
        expectPixel(render(root), 16, 16, premultiplied(.red), "a negative count draws no sublayer either")
    }

    @Test func instanceKAtTimeTIsInstanceZeroAtTMinusKDelay() {
        // A square whose colour runs black → white over 10 s; instances side by side, 2 s apart.
        let (root, replicator) = replicatorScene(100, 20, background: .black)
        replicator.instanceTransform = .makeTranslation(30, 0, 0)
        let square = makeLayer(Rect(x: 0, y: 0, width: 20, height: 20), background: .black)
        replicator.addSublayer(square)
        let fade = BasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = Color.black
        fade.toValue = Color.white
        fade.duration = 10
        square.add(fade, forKey: "fade")
        let compositor = sharedCompositor
        _ = root.snapshot(at: 0) // begins the animation at 0
        func pixel(count: Int, delay: Double, at t: Double, x: Int) -> PremultipliedColor {
            // Changes to a hosted tree would animate implicitly; these are settings, not changes to watch.
            Transaction.withoutActions {
                replicator.instanceCount = count
                replicator.instanceDelay = delay
            }
            return compositor.render(root.snapshot(at: t), width: 100, height: 20).pixel(x: x, y: 10)
        }
        let t = 7.0
        let instances = (0..<3).map { pixel(count: 3, delay: 2, at: t, x: 30 * $0 + 10) }
        for k in 0..<3 {
            let reference = pixel(count: 1, delay: 0, at: t - 2 * Double(k), x: 10)
            #expect(channelDifference(instances[k], reference) <= 0, "instance \(k) at 7 s = instance 0 at \(t - 2 * Double(k)) s")
        }
        #expect(instances[0].r > instances[1].r && instances[1].r > instances[2].r, "later instances lag behind")
        // Without a delay no instance needs snapshots of its own.
        Transaction.withoutActions {
            replicator.instanceCount = 3
            replicator.instanceDelay = 0
        }
        let payload = root.snapshot(at: t).sublayers[0].payload as? ReplicatorPayload
        #expect(payload?.delayedInstances.isEmpty == true)
    }

    @Test func aStillSubtreeIsSharedByAllInstancesEvenWithADelay() {
        let (root, replicator) = replicatorScene(40, 40)
        replicator.instanceCount = 50
        replicator.instanceDelay = 0.5
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 4, height: 4), background: .red))
        let payload = root.snapshot().sublayers[0].payload as? ReplicatorPayload
        #expect(payload?.delayedInstances.isEmpty == true, "nothing below animates: one snapshot serves all instances")
    }

    @Test func nestedReplicatorsMultiplyTheirColours() {
        // A 5 × 5 grid: the outer replicator steps right and lowers red, the inner steps down and lowers blue.
        let (root, outer) = replicatorScene(100, 100, background: .black)
        outer.instanceCount = 5
        outer.instanceTransform = .makeTranslation(20, 0, 0)
        outer.instanceRedOffset = -0.2
        let inner = ReplicatorLayer()
        inner.frame = outer.bounds
        inner.instanceCount = 5
        inner.instanceTransform = .makeTranslation(0, 20, 0)
        inner.instanceBlueOffset = -0.2
        inner.instanceColor = Color(red: 1, green: 0.5, blue: 1)
        inner.addSublayer(makeLayer(Rect(x: 2, y: 2, width: 16, height: 16), background: .white))
        outer.addSublayer(inner)
        let s = render(root)
        for i in 0..<5 {
            for j in 0..<5 {
                let expected = Color(red: 1 - 0.2 * Double(i), green: 0.5, blue: 1 - 0.2 * Double(j))
                expectPixel(s, 20 * i + 10, 20 * j + 10, premultiplied(expected), tolerance: 1, "cell (\(i), \(j))")
            }
        }
    }

    @Test func theColourMultipliesEachDrawSoOverlappingSublayersShowThrough() {
        let (root, replicator) = replicatorScene(40, 40, background: .black)
        replicator.instanceColor = Color(white: 1, alpha: 0.5)
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 30, height: 30), background: .blue))
        let front = makeLayer(Rect(x: 10, y: 10, width: 30, height: 30), background: .red)
        front.contents = .image(Image(width: 4, height: 4) { px in for i in 0..<16 { px[i] = Color.red.premultiplied.bgra } })
        replicator.addSublayer(front)
        let s = render(root)
        // Red at ½ over (blue at ½ over black): the blue behind still shows, which a faded group would hide.
        expectPixel(s, 20, 20, PremultipliedColor(r: 128, g: 0, b: 64, a: 255), tolerance: 1, "both draws are faded")
        expectPixel(s, 5, 5, PremultipliedColor(r: 0, g: 0, b: 128, a: 255), tolerance: 1, "blue alone at ½")
    }

    @Test func preservesDepthDrawsNoBackgroundButEveryInstance() {
        let (root, replicator) = replicatorScene(60, 20, background: .black)
        replicator.preservesDepth = true
        replicator.backgroundColor = .blue
        replicator.instanceCount = 3
        replicator.instanceTransform = .makeTranslation(20, 0, 0)
        replicator.instanceRedOffset = -0.5
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 20, height: 20), background: .white))
        let s = render(root)
        expectPixel(s, 10, 10, premultiplied(.white), tolerance: 1)
        expectPixel(s, 30, 10, premultiplied(Color(red: 0.5, green: 1, blue: 1)), tolerance: 1)
        expectPixel(s, 50, 10, premultiplied(Color(red: 0, green: 1, blue: 1)), tolerance: 1)
        Transaction.withoutActions { replicator.instanceCount = 0 }
        expectPixel(render(root), 10, 10, premultiplied(.black), "no background of its own")
    }

    @Test func hostileCountsAndTransformsAreClampedNotFatal() throws {
        let (root, replicator) = replicatorScene(32, 32, background: .black)
        replicator.instanceCount = 1_000_000_000
        replicator.instanceTransform = .makeTranslation(0.001, 0, 0)
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 2, height: 2), background: .white))
        let started = Date()
        let payload = try #require(root.snapshot().sublayers[0].payload as? ReplicatorPayload)
        #expect(payload.instanceCount == ReplicatorLayer.maximumInstanceCount)
        _ = render(root)
        #expect(Date().timeIntervalSince(started) < 20, "10⁹ instances are drawn as the documented maximum, quickly")

        // The tree is hosted now: settings made without implicit animations.
        Transaction.withoutActions {
            replicator.instanceCount = 3
            replicator.instanceTransform.m41 = .nan
        }
        let nan = try #require(root.snapshot().sublayers[0].payload as? ReplicatorPayload)
        #expect(nan.instanceCount == 1, "a NaN instance transform places only instance 0")
        expectPixel(render(root), 1, 1, premultiplied(.white))

        // A transform whose powers overflow stops where they stop being finite.
        Transaction.withoutActions {
            replicator.instanceCount = 5000
            replicator.instanceTransform = .makeScale(1e30, 1e30, 1)
        }
        _ = render(root)
        Transaction.withoutActions {
            replicator.instanceTransform = .identity
            replicator.instanceRedOffset = .nan
            replicator.instanceColor = Color(red: .infinity, green: -3, blue: .nan, alpha: 1)
        }
        let colour = try #require(root.snapshot().sublayers[0].payload as? ReplicatorPayload).color(ofInstance: 4)
        #expect(colour == Color(red: 1, green: 0, blue: 0, alpha: 1))
        // An enormous delay with an animation below: every instance still gets a finite time.
        let spin = BasicAnimation(keyPath: "opacity")
        spin.fromValue = 0.0
        spin.toValue = 1.0
        spin.duration = 1
        replicator.sublayers?.first?.add(spin, forKey: "spin")
        Transaction.withoutActions {
            replicator.instanceCount = 20
            replicator.instanceDelay = 1e308
        }
        let far = try #require(root.snapshot(at: 1).sublayers[0].payload as? ReplicatorPayload)
        #expect(far.instanceDelay == 1e9 && far.delayedInstances.count == 19)
        _ = render(root)
        #expect(ReplicatorPayload(instanceCount: Int.max, instanceDelay: .nan, instanceTransform: .identity, instanceColor: .white,
                                  offsets: (0, 0, 0, 0), preservesDepth: false).instanceDelay == 0)
    }

    @Test func masksToBoundsClipsEveryInstanceAndAMirroredOneSidedLayerIsBackFacing() {
        let (root, replicator) = replicatorScene(80, 20, background: .black)
        replicator.frame = Rect(x: 0, y: 0, width: 40, height: 20)
        replicator.instanceCount = 4
        replicator.instanceTransform = .makeTranslation(20, 0, 0)
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 20, height: 20), background: .white))
        expectPixel(render(root), 70, 10, premultiplied(.white), "without the clip instance 3 shows beyond the bounds")
        Transaction.withoutActions { replicator.masksToBounds = true }
        let s = render(root)
        expectPixel(s, 30, 10, premultiplied(.white), "instance 1 is inside")
        expectPixel(s, 50, 10, premultiplied(.black), "instances 2 and 3 are clipped")

        // A mirror (x scaled by −1 about the centre) of a one-sided sublayer shows its back: culled.
        Transaction.withoutActions {
            replicator.masksToBounds = false
            replicator.instanceCount = 2
            replicator.instanceTransform = .makeScale(-1, 1, 1)
            replicator.sublayers?.first?.isDoubleSided = false
        }
        let mirrored = render(root)
        expectPixel(mirrored, 10, 10, premultiplied(.white), "instance 0 faces the viewer")
        expectPixel(mirrored, 30, 10, premultiplied(.black), "the mirrored instance 1 is back-facing")
    }

    @Test func theShadowFollowsEveryInstance() {
        let (root, replicator) = replicatorScene(60, 40, background: .white)
        replicator.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        replicator.instanceCount = 2
        replicator.instanceTransform = .makeTranslation(30, 0, 0)
        replicator.shadowOpacity = 1
        replicator.shadowRadius = 0
        replicator.shadowOffset = Size(width: 0, height: 15)
        replicator.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 20, height: 20), background: .red))
        let s = render(root)
        expectPixel(s, 10, 30, premultiplied(.black), tolerance: 1, "under instance 0, beyond the bounds")
        expectPixel(s, 40, 30, premultiplied(.black), tolerance: 1, "under instance 1, outside the replicator's bounds")
        expectPixel(s, 25, 30, premultiplied(.white), "between them: no shadow")
        expectPixel(s, 40, 10, premultiplied(.red), "instance 1 above its shadow")
    }
}
