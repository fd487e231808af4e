import Foundation
@testable import LayerCompositor
import LayerGraphics
@testable import LayerKit
import Testing
import TestSupport

// Chapter 4's last properties: `allowsGroupOpacity` (opacity per draw, no group buffer) and `shouldRasterize` /
// `rasterizationScale` (an offscreen image of the subtree, reused while it draws the same, drawn through the layer's
// transform). Goldens strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0).

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)

/// 8-bit premultiplied opaque pixel as a straight colour (to stack `over` twice).
private func color(_ p: PremultipliedColor) -> Color {
    Color(red: Double(p.r) / 255, green: Double(p.g) / 255, blue: Double(p.b) / 255)
}

/// `groupOpacityScene` (ShadowMaskOpacityGoldenTests) with the group layer changed by `configure`.
private func overlapScene(_ configure: (Layer) -> Void) -> Layer {
    let root = groupOpacityScene()
    configure(root.sublayers![0])
    return root
}

/// A 20×20 rasterized layer holding a black 10×10 square at (5, 5), magnified 4× about its centre on a transparent
/// 120×120 canvas: the square's left edge falls at x = 60 − 4 · 5 = 40.
private func magnifiedSquare(rasterize: Bool, scale: Double) -> Layer {
    let root = canvas(120, 120, background: nil)
    let layer = makeLayer(Rect(x: 50, y: 50, width: 20, height: 20))
    layer.addSublayer(makeLayer(Rect(x: 5, y: 5, width: 10, height: 10), background: .black))
    layer.transform = .makeScale(4, 4, 1)
    layer.shouldRasterize = rasterize
    layer.rasterizationScale = scale
    root.addSublayer(layer)
    return root
}

/// How many pixels of row 60 across the square's left edge (x 30…50) are neither empty nor full.
private func softEdgeWidth(_ s: Surface) -> Int {
    (30...50).filter { let a = s.pixel(x: $0, y: 60).a; return a > 12 && a < 243 }.count
}

@Suite("Rasterization and group opacity")
struct RasterizationTests {
    @Test func defaultsAreApples() {
        let l = Layer()
        #expect(l.allowsGroupOpacity && !l.shouldRasterize && l.rasterizationScale == 1)
        let s = l.snapshot()
        #expect(s.allowsGroupOpacity && !s.shouldRasterize && s.rasterizationScale == 1)
    }

    @Test func withoutGroupOpacityOverlappingSublayersShowThrough() {
        let s = render(overlapScene { $0.allowsGroupOpacity = false })
        expectGolden(s, area: "opacity", name: "no-group-opacity-overlap", tolerance: strict)
        // Each child at 50% on its own: in the overlap the blue is over the half-red canvas.
        let halfRed = over(.red, alpha: 0.5, Palette.canvas)
        expectPixel(s, 75, 57, over(.blue, alpha: 0.5, color(halfRed)), tolerance: 2, "overlap: blue over red, each at 50%")
        expectPixel(s, 30, 30, halfRed, tolerance: 2, "lower child alone = 50% red")
        expectPixel(s, 120, 85, over(.blue, alpha: 0.5, Palette.canvas), tolerance: 2, "upper child alone = 50% blue")
        // Group opacity (the default) differs there: only the blue shows.
        let grouped = render(groupOpacityScene())
        #expect(channelDifference(grouped.pixel(x: 75, y: 57), s.pixel(x: 75, y: 57)) > 20)
    }

    @Test func withoutGroupOpacityNestedOpacitiesMultiply() {
        // The upper child at 0.5 inside a parent at 0.5 without group opacity: 25% blue where it is alone.
        let s = render(overlapScene { parent in
            parent.allowsGroupOpacity = false
            parent.sublayers![1].opacity = 0.5
        })
        expectPixel(s, 120, 85, over(.blue, alpha: 0.25, Palette.canvas), tolerance: 2, "0.5 × 0.5")
    }

    @Test func rasterizingImpliesGroupOpacity() {
        let s = render(overlapScene { $0.allowsGroupOpacity = false; $0.shouldRasterize = true })
        let grouped = render(groupOpacityScene())
        // Integer-aligned at scale 1, the raster is the group buffer: the same pixels as group opacity.
        for (x, y) in [(75, 57), (30, 30), (120, 85), (10, 10), (139, 99), (20, 20)] {
            #expect(channelDifference(s.pixel(x: x, y: y), grouped.pixel(x: x, y: y)) <= 1, "(\(x), \(y))")
        }
        expectPixel(s, 75, 57, over(.blue, alpha: 0.5, Palette.canvas), tolerance: 2, "overlap = 50% blue over the canvas")
    }

    @Test func aRasterIsReusedWhileTheSubtreeDrawsTheSame() {
        let compositor = Compositor(threads: 1)
        let root = groupOpacityScene()
        let parent = root.sublayers![0]
        parent.shouldRasterize = true
        func frame(_ t: Double) -> Surface { compositor.render(root.snapshot(at: t), width: 160, height: 120) }
        _ = frame(0); _ = frame(0.1); _ = frame(0.2)
        #expect(compositor.rasterCache.renders == 1, "a still subtree: rendered once")
        Transaction.withoutActions {
            parent.position = Point(x: 85, y: 65)
            parent.opacity = 0.8
            parent.transform = .makeRotation(0.3, 0, 0, 1)
        }
        _ = frame(0.3)
        #expect(compositor.rasterCache.renders == 1, "moved, faded and turned: the same raster")
        Transaction.withoutActions { parent.sublayers![1].backgroundColor = .green }
        let changed = frame(0.4)
        #expect(compositor.rasterCache.renders == 2, "a sublayer changed: one render")
        _ = frame(0.5)
        #expect(compositor.rasterCache.renders == 2, "and kept again")
        Transaction.withoutActions { parent.sublayers![0].position = Point(x: 36, y: 26) }
        _ = frame(0.6)
        #expect(compositor.rasterCache.renders == 3, "a sublayer moved: one render")
        Transaction.withoutActions { parent.rasterizationScale = 2 }
        _ = frame(0.7)
        #expect(compositor.rasterCache.renders == 4, "another scale: another raster")
        // The new raster shows the change: green where the upper child is.
        Transaction.withoutActions { parent.transform = .identity; parent.position = Point(x: 80, y: 60); parent.opacity = 1 }
        let s = frame(0.8)
        expectPixel(s, 120, 85, PremultipliedColor(r: 0, g: 255, b: 0, a: 255), tolerance: 1, "the changed child")
        #expect(changed.pixel(x: 0, y: 0) == s.pixel(x: 0, y: 0), "the canvas around it untouched")
    }

    @Test func anotherScaleOfTheSameRasterSizeRendersAgain() {
        // 0.5 × 0.5 points: one raster pixel at scale 1 and at 1.5 (0.75 rounds up), yet the pixels differ.
        let compositor = Compositor(threads: 1)
        let root = canvas(8, 8)
        let dot = makeLayer(Rect(x: 2, y: 2, width: 0.5, height: 0.5), background: .red)
        dot.shouldRasterize = true
        root.addSublayer(dot)
        _ = compositor.render(root.snapshot(), width: 8, height: 8)
        Transaction.withoutActions { dot.rasterizationScale = 1.5 }
        _ = compositor.render(root.snapshot(), width: 8, height: 8)
        #expect(compositor.rasterCache.renders == 2)
    }

    @Test func anAnimatedSublayerRendersEveryFrame() {
        let compositor = Compositor(threads: 1)
        let root = groupOpacityScene()
        let parent = root.sublayers![0]
        parent.shouldRasterize = true
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        parent.sublayers![0].add(fade, forKey: "fade")
        for t in [0.25, 0.5, 0.75] { _ = compositor.render(root.snapshot(at: t), width: 160, height: 120) }
        #expect(compositor.rasterCache.renders == 3)
    }

    @Test func scaleOnePixelatesUnderMagnificationAndScaleTwoIsSharper() {
        let live = softEdgeWidth(render(magnifiedSquare(rasterize: false, scale: 1)))
        let one = softEdgeWidth(render(magnifiedSquare(rasterize: true, scale: 1)))
        let two = softEdgeWidth(render(magnifiedSquare(rasterize: true, scale: 2)))
        let four = softEdgeWidth(render(magnifiedSquare(rasterize: true, scale: 4)))
        #expect(live <= 1, "drawn live, the edge is one antialiased pixel: \(live)")
        #expect(one >= 3, "a 1× raster magnified 4× smears the edge over a raster pixel's width: \(one)")
        #expect(two < one && two >= 1, "2×: half as soft: \(two) vs \(one)")
        #expect(four <= 1, "4× matches the magnification: sharp: \(four)")
        // The raster sits where the live drawing does: the square's middle is black, far outside is empty.
        let s = render(magnifiedSquare(rasterize: true, scale: 1))
        #expect(s.pixel(x: 60, y: 60).a == 255 && s.pixel(x: 20, y: 60).a == 0)
    }

    @Test func nearestMagnificationShowsTheRasterPixels() {
        let root = magnifiedSquare(rasterize: true, scale: 1)
        root.sublayers![0].magnificationFilter = .nearest
        #expect(softEdgeWidth(render(root)) == 0, "whole raster pixels, hard-edged blocks")
    }

    @Test func hostileScalesAreClamped() {
        func snapped(_ v: Double) -> Double {
            let l = Layer()
            l.rasterizationScale = v
            return l.snapshot().rasterizationScale
        }
        #expect(snapped(.nan) == 1 && snapped(0) == 1 && snapped(-3) == 1 && snapped(.infinity) == 1)
        #expect(snapped(1e9) == 16 && snapped(1e-9) == 1.0 / 16 && snapped(2) == 2)
        // A huge scale renders (at a bounded raster) the same picture as scale 1, and a NaN one as 1 too.
        let reference = render(overlapScene { $0.shouldRasterize = true })
        for v in [1e9, Double.nan, 0, -1] {
            let s = render(overlapScene { $0.shouldRasterize = true; $0.rasterizationScale = v })
            for (x, y) in [(75, 57), (30, 30), (120, 85)] {
                #expect(channelDifference(s.pixel(x: x, y: y), reference.pixel(x: x, y: y)) <= 2, "scale \(v) at (\(x), \(y))")
            }
        }
        // A big layer at a big scale: the raster side is bounded (4096), not 16 × 3000.
        let big = canvas(64, 64)
        let layer = makeLayer(Rect(x: 0, y: 0, width: 3000, height: 20), background: .red)
        layer.shouldRasterize = true
        layer.rasterizationScale = 16
        big.addSublayer(layer)
        expectPixel(render(big), 10, 10, Color.red.premultiplied, tolerance: 1, "drawn from a minified raster")
    }

    @Test func emptyOrUnplaceableBoundsDrawAsUsual() {
        // No bounds to rasterize: the sublayers draw live, as without the flag.
        func scene(_ rasterize: Bool) -> Layer {
            let root = canvas(40, 40)
            let holder = makeLayer(Rect(x: 10, y: 10, width: 0, height: 0))
            holder.addSublayer(makeLayer(Rect(x: 0, y: 0, width: 10, height: 10), background: .blue))
            holder.shouldRasterize = rasterize
            root.addSublayer(holder)
            return root
        }
        expectPixel(render(scene(true)), 15, 15, Color.blue.premultiplied, tolerance: 1)
        expectPixel(render(scene(true)), 15, 15, render(scene(false)).pixel(x: 15, y: 15))
    }

    @Test func underAFlippedSuperlayerTheRasterShowsContentsUpright() {
        // Contents under `isGeometryFlipped` are drawn upright; rasterized in place at 1×, the picture is the same.
        func scene(_ rasterize: Bool) -> Layer {
            let root = canvas(100, 80)
            root.isGeometryFlipped = true
            let holder = makeLayer(Rect(x: 10, y: 10, width: 80, height: 60))
            let picture = makeLayer(Rect(x: 8, y: 6, width: 64, height: 48))
            picture.contents = .image(blocksImage())
            holder.addSublayer(picture)
            holder.shouldRasterize = rasterize
            root.addSublayer(holder)
            return root
        }
        let live = render(scene(false)), raster = render(scene(true))
        var worst = 0
        for y in 0..<80 { for x in 0..<100 { worst = max(worst, channelDifference(live.pixel(x: x, y: y), raster.pixel(x: x, y: y))) } }
        #expect(worst <= 2, "\(worst)")
    }

    @Test func theRasterKeepsShadowMaskAndRoundedClip() {
        // A rounded, clipped, shadowed layer rasterized at scale 1 and drawn unmagnified matches the live drawing.
        func scene(_ rasterize: Bool) -> Layer {
            let root = canvas(120, 100)
            let card = makeLayer(Rect(x: 20, y: 20, width: 80, height: 60), background: .white)
            card.cornerRadius = 12
            card.masksToBounds = true
            card.borderWidth = 2
            card.borderColor = .blue
            card.addSublayer(makeLayer(Rect(x: -10, y: 30, width: 60, height: 60), background: .red))
            card.opacity = 0.7
            card.shouldRasterize = rasterize
            let holder = makeLayer(Rect(x: 0, y: 0, width: 120, height: 100))
            holder.shadowOpacity = 0.5
            holder.addSublayer(card)
            root.addSublayer(holder)
            return root
        }
        let live = render(scene(false)), raster = render(scene(true))
        var worst = 0
        for y in 0..<100 { for x in 0..<120 { worst = max(worst, channelDifference(live.pixel(x: x, y: y), raster.pixel(x: x, y: y))) } }
        #expect(worst <= 2, "rasterized at 1× in place, the picture is the live one: \(worst)")
    }
}
