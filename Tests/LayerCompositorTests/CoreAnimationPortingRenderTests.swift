import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Issue 26 item 5, drawn: `render(in:)`, `allowsEdgeAntialiasing`, `cornerCurve = .continuous`, and the clip box a
// tiled layer's drawing asks for (listing 6.11). References/clipping/continuous-corners.png.

/// The alpha of every pixel, row by row.
private func alphas(_ s: Surface) -> [Int] {
    var out: [Int] = []
    for y in 0..<s.height { for x in 0..<s.width { out.append(Int(s.pixel(x: x, y: y).a)) } }
    return out
}

/// A white `size`-point square layer, rounded by `radius` with `curve`, alone on a transparent canvas of `size` + 2·`margin`.
private func roundedSquare(size: Double, radius: Double, curve: CornerCurve, margin: Double = 4) -> Surface {
    let root = canvas(Int(size + 2 * margin), Int(size + 2 * margin), background: nil)
    let card = makeLayer(Rect(x: margin, y: margin, width: size, height: size), background: .white)
    card.cornerRadius = radius
    card.cornerCurve = curve
    root.addSublayer(card)
    return render(root)
}

/// `path` filled white by cairo into a mask of `width` × `height`: the reference geometry.
private func rasterised(_ path: Path, width: Int, height: Int) -> [Int] {
    let mask = AlphaMask(width: width, height: height)
    path.fill(into: mask)
    var out: [Int] = []
    for y in 0..<height { for x in 0..<width { out.append(Int(mask.value(x: x, y: y))) } }
    return out
}

@Suite("Core Animation porting, drawn (issue 26 item 5)")
struct CoreAnimationPortingRenderTests {
    // MARK: render(in:)

    @Test func renderInContextDrawsTheTreeInTheLayersOwnSpaceAsTheCompositorDoes() {
        let layer = makeLayer(Rect(x: 200, y: 300, width: 60, height: 40), background: Palette.navy)
        layer.transform = .makeRotation(0.5, 0, 0, 1)   // its own place and transform do not apply to render(in:)
        layer.cornerRadius = 8
        let child = makeLayer(Rect(x: 10, y: 10, width: 30, height: 20), background: Palette.orange)
        child.borderWidth = 2
        child.borderColor = .white
        layer.addSublayer(child)

        let ctx = DrawingContext(size: Size(width: 60, height: 40))
        layer.render(in: ctx)
        let drawn = ctx.makeImage()

        // The same tree at the origin of a canvas, untransformed, drawn by the compositor.
        let reference = canvas(60, 40, background: nil)
        let copy = makeLayer(Rect(x: 0, y: 0, width: 60, height: 40), background: Palette.navy)
        copy.cornerRadius = 8
        let copyChild = makeLayer(Rect(x: 10, y: 10, width: 30, height: 20), background: Palette.orange)
        copyChild.borderWidth = 2
        copyChild.borderColor = .white
        copy.addSublayer(copyChild)
        reference.addSublayer(copy)
        let expected = render(reference)
        var worst = 0
        for y in 0..<40 { for x in 0..<60 { worst = max(worst, channelDifference(drawn.pixel(x: x, y: y), expected.pixel(x: x, y: y))) } }
        #expect(worst <= 1, "render(in:) draws what the compositor draws; worst channel difference \(worst)")
        #expect(drawn.pixel(x: 25, y: 20) == Palette.orange.premultiplied)
        #expect(drawn.pixel(x: 0, y: 0).a == 0, "the rounded corner")
    }

    @Test func renderInContextFollowsTheContextsTransformAndScaleAndDrawsOverWhatIsThere() {
        let layer = makeLayer(Rect(x: 0, y: 0, width: 10, height: 10), background: .white)
        let ctx = DrawingContext(size: Size(width: 30, height: 20), scale: 2)
        ctx.setFillColor(.red)
        ctx.fill(Rect(x: 0, y: 0, width: 30, height: 20))
        ctx.translateBy(x: 15, y: 5)
        layer.render(in: ctx)
        let image = ctx.makeImage()
        #expect(image.width == 60 && image.height == 40)
        #expect(image.pixel(x: 2 * 20, y: 2 * 10) == Color.white.premultiplied, "the layer at (15, 5) points, 2 px per point")
        #expect(image.pixel(x: 2 * 10, y: 2 * 10) == Color.red.premultiplied, "the context's own drawing stays beside it")
        #expect(image.pixel(x: 2 * 26, y: 2 * 10) == Color.red.premultiplied)
    }

    @Test func renderInContextDrawsTheModelIgnoringAnimationsAndDoesNotHostTheTree() {
        let root = canvas(20, 20, background: nil)
        let layer = makeLayer(Rect(x: 0, y: 0, width: 20, height: 20), background: .white)
        root.addSublayer(layer)
        let fade = BasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = Color.black
        fade.toValue = Color.black
        fade.duration = 100
        layer.add(fade, forKey: "fade")
        let ctx = DrawingContext(size: Size(width: 20, height: 20))
        root.render(in: ctx)
        #expect(ctx.makeImage().pixel(x: 10, y: 10) == Color.white.premultiplied, "the model's white, not the animation's black")
        #expect(root.currentMediaTime() == nil, "render(in:) does not host the tree")
        layer.opacity = 0.5
        Transaction.flush()
        #expect(layer.animation(forKey: "opacity") == nil, "so a change after it does not animate")
    }

    // MARK: allowsEdgeAntialiasing

    @Test func edgeAntialiasingOffDecidesEachPixelByItsCentre() {
        func turned(antialiased: Bool) -> Surface {
            let root = canvas(60, 60, background: nil)
            let card = makeLayer(Rect(x: 15.3, y: 15.3, width: 30, height: 30), background: .white)
            card.transform = .makeRotation(0.4, 0, 0, 1)
            card.cornerRadius = 6
            card.allowsEdgeAntialiasing = antialiased
            root.addSublayer(card)
            return render(root)
        }
        let smooth = alphas(turned(antialiased: true)), jagged = alphas(turned(antialiased: false))
        let partialSmooth = smooth.filter { $0 > 0 && $0 < 255 }.count, partialJagged = jagged.filter { $0 > 0 && $0 < 255 }.count
        #expect(partialSmooth > 40, "antialiased: the turned edges cover pixels partly (\(partialSmooth))")
        #expect(partialJagged == 0, "aliased: every pixel is in or out (\(partialJagged) partly covered)")
        // Both cover the same area (within a pixel's worth per edge pixel): the aliased edge is the same edge, sampled.
        let areaSmooth = Double(smooth.reduce(0, +)) / 255, areaJagged = Double(jagged.reduce(0, +)) / 255
        #expect(abs(areaSmooth - areaJagged) < 12, "areas \(areaSmooth) and \(areaJagged)")
        // Where the antialiased edge covers a pixel by more than ~60 %, its centre is inside; below ~40 %, outside.
        for (s, j) in zip(smooth, jagged) where s > 160 || s < 95 { #expect(j == (s > 160 ? 255 : 0)) }
    }

    @Test func edgeAntialiasingOffAlsoCutsContentsAndTheMasksToBoundsClipByPixelCentre() {
        let root = canvas(40, 40, background: nil)
        let card = makeLayer(Rect(x: 5.5, y: 5.5, width: 20, height: 20), background: nil)
        card.contents = .image(Image(width: 4, height: 4, color: .white))
        card.masksToBounds = true
        card.cornerRadius = 5
        card.allowsEdgeAntialiasing = false
        root.addSublayer(card)
        let partial = alphas(render(root)).filter { $0 > 0 && $0 < 255 }.count
        #expect(partial == 0)
    }

    // MARK: cornerCurve

    @Test func continuousCornersMatchTheReferencePathAndDifferFromCircularOnes() {
        let size = 120.0, radius = 39.0, margin = 4.0
        let side = Int(size + 2 * margin)
        let continuous = alphas(roundedSquare(size: size, radius: radius, curve: .continuous))
        let circular = alphas(roundedSquare(size: size, radius: radius, curve: .circular))
        let rect = Rect(x: margin, y: margin, width: size, height: size)
        let reference = rasterised(Path(roundedRect: rect, cornerRadius: radius, cornerCurve: .continuous), width: side, height: side)
        let circleReference = rasterised(Path(roundedRect: rect, cornerRadius: radius, cornerCurve: .circular), width: side, height: side)
        func worst(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }
        func total(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.reduce(0, +) }
        #expect(worst(continuous, reference) <= 32, "the compositor's continuous corner is the path's (worst \(worst(continuous, reference)))")
        #expect(worst(circular, circleReference) <= 32, "as its circular corner is the circle's")
        let differing = zip(continuous, circular).filter { abs($0 - $1) > 16 }.count
        #expect(differing >= 16, "a continuous corner is not a relabelled circle: \(differing) pixels differ")
        #expect(total(continuous, reference) * 3 < total(continuous, circleReference),
                "closer to the continuous path (\(total(continuous, reference))) than to the circular one (\(total(continuous, circleReference)))")
        // On the top edge one radius in from the corner the circle has ended; the continuous corner is still curving.
        let x = Int(margin + radius), y = Int(margin)
        #expect(circular[y * side + x] == 255 && continuous[y * side + x] < 200)
    }

    @Test func continuousCornersGolden() {
        // strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
        let root = canvas(96, 64)
        let card = makeLayer(Rect(x: 8, y: 8, width: 80, height: 48), background: .white)
        card.cornerRadius = 14
        card.cornerCurve = .continuous
        card.borderWidth = 3
        card.borderColor = Palette.navy
        card.masksToBounds = true
        let inner = makeLayer(Rect(x: -4, y: 24, width: 88, height: 30), background: Palette.orange)
        card.addSublayer(inner)
        root.addSublayer(card)
        expectGolden(render(root), area: "clipping", name: "continuous-corners",
                     tolerance: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0))
    }

    // MARK: boundingBoxOfClipPath in a tiled layer (listing 6.11)

    @Test func aTiledLayersDrawingAsksTheClipForItsTile() {
        let root = canvas(300, 200, background: nil)
        let tiled = TiledLayer()
        tiled.frame = Rect(x: 0, y: 0, width: 300, height: 200)
        tiled.tileSize = Size(width: 128, height: 128)
        let seen = Guarded<[(Rect, Rect)]>([])
        tiled.drawTile = { ctx, request in
            seen.withLock { $0.append((ctx.boundingBoxOfClipPath, request.rect)) }
            ctx.setFillColor(.white)
            ctx.fill(ctx.boundingBoxOfClipPath)
        }
        root.addSublayer(tiled)
        let s = render(root)
        let pairs = seen.withLock { $0 }
        #expect(pairs.count == 6, "3 × 2 tiles")
        for (clip, tile) in pairs { #expect(clip == tile, "the clip box is the tile \(tile), got \(clip)") }
        #expect(s.pixel(x: 299, y: 199) == Color.white.premultiplied)
    }
}
