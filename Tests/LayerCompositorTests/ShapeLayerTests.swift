import Foundation
@testable import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// ShapeLayer end to end (SEMANTICS-LAYERS.md §1, "Test by" (1)–(6)): cairo's pixels at scale 1, trimming, the
// book's rounded corners, drawing outside the bounds, sharpness under a 3D magnification, dash phase, every property,
// shadows and masks, the raster cache, and hostile values.

/// The book's listing 6.1: a stick figure.
func stickFigurePath() -> Path {
    var path = Path()
    path.move(to: Point(x: 175, y: 100))
    path.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
    path.move(to: Point(x: 150, y: 125)); path.addLine(to: Point(x: 150, y: 175)); path.addLine(to: Point(x: 125, y: 225))
    path.move(to: Point(x: 150, y: 175)); path.addLine(to: Point(x: 175, y: 225))
    path.move(to: Point(x: 100, y: 150)); path.addLine(to: Point(x: 200, y: 150))
    return path
}

/// A transparent `w`×`h` canvas holding `shape` with no frame (its space is the canvas's).
private func scene(_ shape: ShapeLayer, _ w: Int = 200, _ h: Int = 200) -> Layer {
    let root = canvas(w, h, background: nil)
    root.addSublayer(shape)
    return root
}

private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
    var p = Path()
    p.move(to: Point(x: x0, y: y0)); p.addLine(to: Point(x: x1, y: y1))
    return p
}

/// Where along a row the alpha crosses `level` (0…1) first, going right, interpolated between pixel centres.
private func crossing(_ s: Surface, row y: Int, from x0: Int, to x1: Int, level: Double) -> Double? {
    let target = level * 255
    var previous = Double(s.pixel(x: x0, y: y).a)
    for x in (x0 + 1)...x1 {
        let a = Double(s.pixel(x: x, y: y).a)
        if (previous < target) != (a < target) { return Double(x - 1) + (target - previous) / (a - previous) }
        previous = a
    }
    return nil
}

@Suite("ShapeLayer")
struct ShapeLayerTests {
    @Test func defaultsAreApples() {
        let s = ShapeLayer()
        #expect(s.path == nil && s.fillColor == .black && s.fillRule == .nonZero && s.strokeColor == nil && s.lineWidth == 1)
        #expect(s.lineCap == .butt && s.lineJoin == .miter && s.miterLimit == 10 && s.lineDashPattern == nil && s.lineDashPhase == 0)
        #expect(s.strokeStart == 0 && s.strokeEnd == 1)
        let keys = Set(ShapeLayer.animatableProperties.map(\.key))
        #expect(keys == ["path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd"])
        #expect(ShapeLayer.defaultAction(forKey: "path") == nil, "path animates only explicitly")
        #expect(ShapeLayer.defaultAction(forKey: "strokeEnd") != nil && ShapeLayer.defaultAction(forKey: "fillColor") != nil)
        // Hit testing stays the bounds test, as CAShapeLayer's; the path answers for its own inside.
        s.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        s.path = Path(rect: Rect(x: 20, y: 20, width: 10, height: 10))
        #expect(s.contains(Point(x: 5, y: 5)) && !s.contains(Point(x: 25, y: 25)) && s.path!.contains(Point(x: 25, y: 25)))
    }

    /// (1) At scale 1 and a whole-pixel position the layer shows cairo's own pixels.
    @Test(arguments: ["rect", "stick"]) func showsCairosPixelsAtScaleOne(_ which: String) {
        let shape = ShapeLayer()
        let ctx = DrawingContext(size: Size(width: 200, height: 240))
        if which == "rect" {
            shape.path = Path(rect: Rect(x: 20.5, y: 30.25, width: 100, height: 61.7))
            shape.fillColor = Palette.teal
            ctx.setFillColor(Palette.teal)
            ctx.addPath(shape.path!)
            ctx.fillPath()
        } else {
            shape.path = stickFigurePath()
            shape.strokeColor = .red
            shape.fillColor = .clear
            shape.lineWidth = 5
            shape.lineJoin = .round
            shape.lineCap = .round
            ctx.setStrokeColor(.red)
            ctx.setLineWidth(5); ctx.setLineJoin(.round); ctx.setLineCap(.round)
            ctx.addPath(shape.path!)
            ctx.strokePath()
        }
        let surface = sharedCompositor.render(scene(shape, 200, 240).snapshot(), width: 200, height: 240)
        let expected = ctx.makeImage()
        var worst = 0, drawn = 0
        for y in 0..<240 {
            for x in 0..<200 {
                let a = surface.pixel(x: x, y: y), b = expected.pixel(x: x, y: y)
                worst = max(worst, channelDifference(a, b))
                if b.a > 0 { drawn += 1 }
            }
        }
        #expect(worst <= 1, "\(which): worst channel difference \(worst)")
        #expect(drawn > 500)
    }

    /// (2) strokeEnd and strokeStart cut the stroke by length.
    @Test func strokeStartAndEndTrimByLength() {
        func columns(_ start: Double, _ end: Double) -> [Bool] {
            let shape = ShapeLayer()
            shape.path = line(0, 50, 100, 50)
            shape.strokeColor = .black
            shape.lineWidth = 10
            shape.strokeStart = start
            shape.strokeEnd = end
            let s = sharedCompositor.render(scene(shape, 100, 100).snapshot(), width: 100, height: 100)
            #expect(s.pixel(x: 10, y: 40).a == 0 && s.pixel(x: 10, y: 60).a == 0, "the line has no fill and is 10 wide")
            return (0..<100).map { s.pixel(x: $0, y: 50).a == 255 && s.pixel(x: $0, y: 46).a == 255 }
        }
        #expect(columns(0, 0.5) == (0..<100).map { $0 < 50 })
        #expect(columns(0.5, 1) == (0..<100).map { $0 >= 50 })
        #expect(columns(0.7, 0.7) == Array(repeating: false, count: 100))
        #expect(columns(0.8, 0.2) == Array(repeating: false, count: 100))
    }

    /// (3) The book's three rounded corners, and the four-corner shape's symmetry.
    @Test func roundedCornersFromTheBook() {
        let shape = ShapeLayer()
        shape.path = Path(roundedRect: Rect(x: 50, y: 50, width: 100, height: 100),
                          byRoundingCorners: [.topRight, .bottomRight, .bottomLeft], cornerRadii: Size(width: 20, height: 20))
        let s = sharedCompositor.render(scene(shape).snapshot(), width: 200, height: 200)
        #expect(s.pixel(x: 51, y: 51) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "the square corner")
        #expect(s.pixel(x: 149, y: 51).a == 0 && s.pixel(x: 149, y: 149).a == 0 && s.pixel(x: 51, y: 149).a == 0)
        shape.path = Path(roundedRect: Rect(x: 50, y: 50, width: 100, height: 100), byRoundingCorners: .allCorners,
                          cornerRadii: Size(width: 20, height: 20))
        let f = sharedCompositor.render(scene(shape).snapshot(), width: 200, height: 200)
        // cairo's scan converter samples each pixel on an anisotropic grid, so its own mirrored edges differ by a few
        // levels: the layer is as symmetric as cairo drawing the path directly, and never far from exact.
        let ctx = DrawingContext(size: Size(width: 200, height: 200))
        ctx.addPath(shape.path!)
        ctx.fillPath()
        let direct = Surface(image: ctx.makeImage())
        func asymmetry(_ f: Surface) -> Int {
            var worst = 0
            for y in 45..<155 {
                for x in 45..<155 {
                    let a = f.pixel(x: x, y: y)
                    worst = max(worst, channelDifference(a, f.pixel(x: 199 - x, y: y)), channelDifference(a, f.pixel(x: x, y: 199 - y)),
                                channelDifference(a, f.pixel(x: y, y: x)))
                }
            }
            return worst
        }
        let ours = asymmetry(f), cairos = asymmetry(direct)
        #expect(ours <= cairos + 1 && ours <= 8, "4-fold symmetric: worst \(ours), cairo's own \(cairos)")
    }

    /// (4) Not clipped to the bounds, unless masksToBounds; culled by what it draws, not by its bounds.
    @Test func drawsOutsideItsBoundsUnlessMasked() {
        let shape = ShapeLayer()
        shape.frame = Rect(x: 10, y: 10, width: 40, height: 40)
        shape.path = Path(rect: Rect(x: 60, y: 0, width: 20, height: 20))
        let root = scene(shape, 100, 100)
        #expect(sharedCompositor.render(root.snapshot(), width: 100, height: 100).pixel(x: 75, y: 15).a == 255)
        shape.masksToBounds = true
        #expect(sharedCompositor.render(root.snapshot(), width: 100, height: 100).pixel(x: 75, y: 15).a == 0)
        // Bounds far off-screen, the path on it: drawn.
        let far = ShapeLayer()
        far.frame = Rect(x: -500, y: -500, width: 10, height: 10)
        far.path = Path(rect: Rect(x: 520, y: 520, width: 10, height: 10))
        far.isDoubleSided = false
        #expect(sharedCompositor.render(scene(far, 100, 100).snapshot(), width: 100, height: 100).pixel(x: 25, y: 25).a == 255)
        // Empty bounds, single-sided: the plane faces the viewer, so it draws.
        let empty = ShapeLayer()
        empty.path = Path(rect: Rect(x: 10, y: 10, width: 10, height: 10))
        empty.isDoubleSided = false
        #expect(sharedCompositor.render(scene(empty, 100, 100).snapshot(), width: 100, height: 100).pixel(x: 15, y: 15).a == 255)
    }

    /// (5) A shape under a 3D turn magnified 3× keeps sharp edges where an image in contents blurs.
    @Test func staysSharpUnderA3DMagnification() {
        // Both: a 40×40 layer, black on its right half; its left edge at x = 20 of the layer is inside the picture.
        let transform = Transform3D.makePerspective(distance: 500).concatenatingRotationAndScale()
        func ramp(_ layer: Layer) -> Double {
            layer.frame = Rect(x: 130, y: 80, width: 40, height: 40)
            layer.transform = transform
            let root = canvas(300, 200, background: nil)
            root.addSublayer(layer)
            let s = sharedCompositor.render(root.snapshot(), width: 300, height: 200)
            guard let lo = crossing(s, row: 100, from: 60, to: 240, level: 0.1),
                  let hi = crossing(s, row: 100, from: 60, to: 240, level: 0.9) else { return .infinity }
            return hi - lo
        }
        let shape = ShapeLayer()
        shape.path = Path(rect: Rect(x: 20, y: 0, width: 20, height: 40))
        let picture = Layer()
        picture.contents = .image(Image(width: 40, height: 40) { px in
            for y in 0..<40 { for x in 20..<40 { px[y * 40 + x] = PremultipliedColor(r: 0, g: 0, b: 0, a: 255).bgra } }
        })
        let sharp = ramp(shape), blurred = ramp(picture)
        #expect(sharp <= 1.5, "shape edge ramp \(sharp) px")
        #expect(blurred >= 2, "contents edge ramp \(blurred) px")
    }

    /// (6) Animating lineDashPhase by one pattern length comes back to the first frame.
    @Test func dashPhaseByOnePatternLengthIsTheSameFrame() {
        let shape = ShapeLayer()
        shape.path = line(10, 50, 190, 50)
        shape.strokeColor = .black
        shape.lineWidth = 6
        shape.lineDashPattern = [12, 8]
        let root = scene(shape, 200, 100)
        let phase = BasicAnimation(keyPath: "lineDashPhase")
        phase.fromValue = 0.0
        phase.toValue = 40.0
        phase.duration = 2
        phase.timingFunction = .linear
        shape.add(phase, forKey: "march")
        func row(_ t: Double) -> [UInt8] {
            let s = sharedCompositor.render(root.snapshot(at: t), width: 200, height: 100)
            return (0..<200).map { s.pixel(x: $0, y: 50).a }
        }
        let first = row(0)
        #expect(first[12] == 255 && first[25] == 0, "on 10…22, off 22…30")
        #expect(row(1) == first, "phase 20: one pattern length")
        #expect(row(0.25) != first)
    }

    @Test func everyStylePropertyShows() {
        func render(_ configure: (ShapeLayer) -> Void) -> Surface {
            let shape = ShapeLayer()
            configure(shape)
            return sharedCompositor.render(scene(shape, 100, 100).snapshot(), width: 100, height: 100)
        }
        // fillRule: a square inside a square, same winding: non-zero fills the hole, even-odd leaves it.
        var nested = Path(rect: Rect(x: 10, y: 10, width: 80, height: 80))
        nested.addRect(Rect(x: 30, y: 30, width: 40, height: 40))
        #expect(render { $0.path = nested }.pixel(x: 50, y: 50).a == 255)
        #expect(render { $0.path = nested; $0.fillRule = .evenOdd }.pixel(x: 50, y: 50).a == 0)
        // fillColor: its colour; nil: none.
        #expect(render { $0.path = nested; $0.fillColor = .red }.pixel(x: 20, y: 20) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(render { $0.path = nested; $0.fillColor = nil }.pixel(x: 20, y: 20).a == 0)
        // strokeColor and lineWidth: the band around the outer square.
        let stroked = render { $0.path = nested; $0.fillColor = nil; $0.strokeColor = .blue; $0.lineWidth = 8 }
        #expect(stroked.pixel(x: 7, y: 50) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255) && stroked.pixel(x: 4, y: 50).a == 0)
        // lineCap: square reaches half a width beyond the end, butt does not.
        let open = line(20, 50, 80, 50)
        #expect(render { $0.path = open; $0.strokeColor = .black; $0.lineWidth = 10 }.pixel(x: 83, y: 50).a == 0)
        #expect(render { $0.path = open; $0.strokeColor = .black; $0.lineWidth = 10; $0.lineCap = .square }.pixel(x: 83, y: 50).a == 255)
        #expect(render { $0.path = open; $0.strokeColor = .black; $0.lineWidth = 10; $0.lineCap = .round }.pixel(x: 83, y: 47).a > 0)
        // lineJoin and miterLimit: a right-angle corner at (80, 20); the miter's tip is at (85, 15).
        var corner = Path()
        corner.move(to: Point(x: 20, y: 20)); corner.addLine(to: Point(x: 80, y: 20)); corner.addLine(to: Point(x: 80, y: 80))
        func tip(_ join: LineJoin, limit: Double = 10) -> UInt8 {
            render { $0.path = corner; $0.fillColor = nil; $0.strokeColor = .black; $0.lineWidth = 10; $0.lineJoin = join; $0.miterLimit = limit }
                .pixel(x: 84, y: 15).a
        }
        #expect(tip(.miter) == 255)
        #expect(tip(.bevel) == 0 && tip(.round) == 0)
        #expect(tip(.miter, limit: 1.2) == 0, "a right angle's miter is √2 widths: beyond 1.2")
        // A cut end gets the cap: a round cap reaches half a width past strokeEnd.
        let cut = render { $0.path = open; $0.strokeColor = .black; $0.lineWidth = 10; $0.lineCap = .round; $0.strokeEnd = 0.5 }
        #expect(cut.pixel(x: 52, y: 50).a == 255 && cut.pixel(x: 57, y: 50).a == 0)
        // lineDashPattern: holes in the line.
        let dashed = render { $0.path = open; $0.strokeColor = .black; $0.lineWidth = 4; $0.lineDashPattern = [10, 5] }
        #expect(dashed.pixel(x: 25, y: 50).a == 255 && dashed.pixel(x: 32, y: 50).a == 0 && dashed.pixel(x: 37, y: 50).a == 255)
    }

    @Test func pathAnimatesPointwiseOnlyExplicitly() throws {
        let shape = ShapeLayer()
        shape.path = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        let root = scene(shape, 100, 100)
        _ = root.snapshot(at: 0) // hosted from now on
        shape.path = Path(rect: Rect(x: 0, y: 0, width: 50, height: 50))
        #expect(shape.animationKeys() == nil, "no implicit animation of path")
        shape.fillColor = .red
        #expect(shape.animationKeys() == ["fillColor"], "other values animate implicitly")
        shape.removeAllAnimations()
        let morph = BasicAnimation(keyPath: "path")
        morph.fromValue = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        morph.toValue = Path(rect: Rect(x: 0, y: 0, width: 30, height: 50))
        morph.duration = 1
        morph.timingFunction = .linear
        shape.add(morph, forKey: "morph") // it begins now: at 0, the frame last built
        func shownPath(_ t: Double) throws -> Path {
            try #require(root.snapshot(at: t).sublayers[0].payload as? ShapePayload).path
        }
        #expect(try shownPath(0.5) == Path(rect: Rect(x: 0, y: 0, width: 20, height: 30)))
        // Different structure: the value switches half-way.
        let jump = BasicAnimation(keyPath: "path")
        jump.fromValue = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        jump.toValue = Path(ellipseIn: Rect(x: 0, y: 0, width: 50, height: 50))
        jump.duration = 1
        jump.timingFunction = .linear
        _ = root.snapshot(at: 1)
        shape.add(jump, forKey: "morph") // after the frame at 1: it begins at 1
        #expect(try shownPath(1.4) == Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(try shownPath(1.6) == Path(ellipseIn: Rect(x: 0, y: 0, width: 50, height: 50)))
    }

    /// Background → contents → shape → sublayers → border.
    @Test func theShapeIsDrawnBetweenContentsAndSublayers() {
        let shape = ShapeLayer()
        shape.frame = Rect(x: 10, y: 10, width: 80, height: 80)
        shape.backgroundColor = .green
        shape.contents = .image(Image(width: 1, height: 1, color: .blue))
        shape.contentsGravity = .resize
        shape.path = Path(rect: Rect(x: 0, y: 0, width: 80, height: 80))
        shape.fillColor = .red
        shape.borderWidth = 5
        shape.borderColor = .white
        shape.addSublayer(makeLayer(Rect(x: 40, y: 40, width: 20, height: 20), background: .black))
        let s = sharedCompositor.render(scene(shape, 100, 100).snapshot(), width: 100, height: 100)
        #expect(s.pixel(x: 30, y: 30) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255), "the shape over the contents")
        #expect(s.pixel(x: 60, y: 60) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "a sublayer over the shape")
        #expect(s.pixel(x: 12, y: 50) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255), "the border over the shape")
        shape.sublayers = nil
        let alone = sharedCompositor.render(scene(shape, 100, 100).snapshot(), width: 100, height: 100)
        #expect(alone.pixel(x: 12, y: 50) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255), "without sublayers too")
    }

    @Test func shadowsFollowTheShapeOutsideTheBounds() {
        let shape = ShapeLayer()
        shape.path = Path(rect: Rect(x: 20, y: 20, width: 30, height: 30))
        shape.shadowOpacity = 1
        shape.shadowOffset = Size(width: 30, height: 0)
        shape.shadowRadius = 0
        let s = sharedCompositor.render(scene(shape, 100, 100).snapshot(), width: 100, height: 100)
        #expect(s.pixel(x: 65, y: 35).a > 200, "the shadow: the square moved 30 right, though the bounds are empty")
        #expect(s.pixel(x: 65, y: 10).a == 0)
    }

    @Test func aShapeMasksWithItsDefaultBlackFill() {
        let card = makeLayer(Rect(x: 0, y: 0, width: 100, height: 100), background: .red)
        let mask = ShapeLayer()
        mask.frame = card.bounds
        mask.path = Path(roundedRect: card.bounds, byRoundingCorners: [.topLeft, .topRight], cornerRadii: Size(width: 100, height: 100))
        card.mask = mask
        let root = canvas(100, 100, background: nil)
        root.addSublayer(card)
        let s = sharedCompositor.render(root.snapshot(), width: 100, height: 100)
        #expect(s.pixel(x: 50, y: 50) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(s.pixel(x: 2, y: 2).a == 0 && s.pixel(x: 97, y: 2).a == 0, "the top corners: rounded by radii clamped to 50")
        #expect(s.pixel(x: 2, y: 97).a == 255 && s.pixel(x: 97, y: 97).a == 255, "the bottom corners: square")
    }

    @Test func onlyAChangedShapeOrScaleRasterisesAgain() {
        let compositor = Compositor(threads: 1)
        let shape = ShapeLayer()
        shape.path = stickFigurePath()
        shape.strokeColor = .red
        shape.fillColor = nil
        shape.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let root = scene(shape, 240, 240)
        func frame(_ t: Double) { _ = compositor.render(root.snapshot(at: t), width: 240, height: 240) }
        frame(0); frame(0.1); frame(0.2)
        #expect(compositor.shapeCache.rasterizations == 1, "a still shape: once")
        // Without actions: the model values show at once (a hosted tree would animate them).
        Transaction.withoutActions {
            shape.position = Point(x: 12, y: 7)
            shape.opacity = 0.5
        }
        frame(0.3)
        #expect(compositor.shapeCache.rasterizations == 1, "moved and faded: the same raster")
        Transaction.withoutActions { shape.transform = Transform3D.makeScale(1.5, 1.5, 1) }
        frame(0.4)
        #expect(compositor.shapeCache.rasterizations == 2, "magnified: a finer step")
        Transaction.withoutActions { shape.transform = .identity }
        frame(0.5)
        #expect(compositor.shapeCache.rasterizations == 2, "back to scale 1: still kept")
        frame(1) // the animation added next begins now: at 1, the frame last built
        let draw = BasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0.0
        draw.toValue = 1.0
        draw.duration = 1
        shape.add(draw, forKey: "draw")
        frame(1)
        #expect(compositor.shapeCache.rasterizations == 2, "it begins at 1 with strokeEnd 0: nothing to draw")
        frame(1.25); frame(1.5); frame(1.75)
        #expect(compositor.shapeCache.rasterizations == 5, "strokeEnd animating: a stroke per frame")
        #expect(compositor.directVideo(root.snapshot(at: 2), width: 240, height: 240) == nil, "a shape is never a direct video frame")
    }

    @Test func rasterScaleStepsBySquareRootOfTwo() {
        func scale(_ t: Transform3D, _ extent: Rect = Rect(x: 0, y: 0, width: 100, height: 100)) -> Double {
            Lowering.rasterScale(extent: extent, h: Homography(plane: t))
        }
        #expect(scale(.identity) == 1)
        #expect(scale(.makeTranslation(0.5, 7.25, 0)) == 1)
        #expect(scale(.makeScale(3, 3, 1)) == 4, "3 rounds up to (√2)⁴")
        #expect(abs(scale(.makeScale(1.2, 0.5, 1)) - 2.0.squareRoot()) < 1e-12, "the longer step counts")
        #expect(scale(Transform3D.makeRotation(.pi / 4, 0, 0, 1).concatenating(.makeScale(2, 2, 1))) == 2)
        #expect(scale(.makeScale(100, 100, 1)) == 16 && scale(.makeScale(0.01, 0.01, 1)) == 0.125, "clamped to [1/8, 16]")
        // 10,000 points wide: lowered until the raster fits 4096 pixels, (√2)⁻³.
        #expect(abs(scale(.identity, Rect(x: 0, y: 0, width: 10_000, height: 10)) - pow(2, -1.5)) < 1e-12)
        // In perspective, the corner nearest the eye decides: larger than the plain scale.
        let near = Transform3D.makeRotation(-0.5, 0, 1, 0).concatenating(.makePerspective(distance: 300))
        #expect(scale(near) > 1)
    }

    @Test func hostileValuesDrawWhatIsDrawableAndNeverCrash() {
        func alphaSum(_ configure: (ShapeLayer) -> Void) -> Int {
            let shape = ShapeLayer()
            shape.strokeColor = .black
            configure(shape)
            let s = sharedCompositor.render(scene(shape, 64, 64).snapshot(), width: 64, height: 64)
            var sum = 0
            for y in 0..<64 { for x in 0..<64 { sum += Int(s.pixel(x: x, y: y).a) } }
            return sum
        }
        #expect(alphaSum { _ in } == 0, "nil path")
        #expect(alphaSum { $0.path = Path() } == 0, "empty path")
        var nan = Path(rect: Rect(x: 0, y: 0, width: 30, height: 30))
        nan.addLine(to: Point(x: .nan, y: 3))
        #expect(alphaSum { $0.path = nan } == 0, "a path with a NaN point is dropped")
        var inf = line(0, 0, 30, 30)
        inf.addCurve(to: Point(x: 1, y: 1), control1: Point(x: .infinity, y: 0), control2: .zero)
        #expect(alphaSum { $0.path = inf } == 0)
        #expect(alphaSum { $0.path = line(0, 30, 60, 30); $0.lineWidth = 1e12 } == 0, "a huge width: refused")
        #expect(alphaSum { $0.path = line(0, 30, 60, 30); $0.lineWidth = .nan } == 0)
        #expect(alphaSum { $0.path = line(-1e15, 30, 1e15, 30) } == 0, "a huge path: refused")
        #expect(alphaSum { $0.path = line(0, 30, 60, 30); $0.strokeEnd = .nan; $0.strokeStart = -.infinity } == 0)
        #expect(alphaSum { $0.path = line(0, 30, 60, 30); $0.strokeEnd = .infinity; $0.lineDashPattern = [.nan, 1]; $0.lineDashPhase = .nan } > 0,
                "clamped to 1, solid, phase 0")
        #expect(alphaSum { $0.path = line(0, 30, 60, 30); $0.miterLimit = -.infinity; $0.lineDashPattern = [-1, 2] } > 0)
        #expect(alphaSum { $0.path = Path(rect: Rect(x: 10, y: 10, width: 10, height: 10)); $0.fillColor = Color(red: .nan, green: 2, blue: -1, alpha: 1) } > 0)
        #expect(alphaSum { $0.path = Path(rect: Rect(x: 10, y: 10, width: 10, height: 10)); $0.transform = Transform3D.makeScale(1e-12, 1e-12, 1) } >= 0)
    }
}

private extension Transform3D {
    /// A turn of 0.3 rad about y, then 3× magnification, seen in perspective.
    func concatenatingRotationAndScale() -> Transform3D {
        Transform3D.makeScale(3, 3, 1).concatenating(Transform3D.makeRotation(0.3, 0, 1, 0)).concatenating(self)
    }
}
