// Issue 26 item 5: more first guesses of a Core Animation user, each written as the CA user writes it (the CA
// spelling in the comment), then a focused test of what it does. Foundation is imported on purpose: `NSNull()` must
// mean Foundation's null, and every name must compile beside Foundation's.
//
//  1 layer.allowsEdgeAntialiasing = true            7 ctx.boundingBoxOfClipPath (CGContextGetClipBoundingBox)
//  2 layer.isOpaque = true                          8 ctx.move(to:) / addLine(to:) / addRect / addEllipse(in:) /
//  3 layer.cornerCurve = .continuous                  addPath / closePath / fillPath / strokePath
//  4 layer.setValue(_:forKeyPath:) / value(forKeyPath:)   9 Path(rect:transform:), Path(ellipseIn:transform:),
//  5 layer.setNeedsDisplay(rect)                      Path(roundedRect:cornerWidth:cornerHeight:transform:)
//  6 layer.render(in: ctx) (LayerCompositorTests)  10 animation.fillMode = MediaTimingFillMode.forwards
//                                                  11 layer.actions = ["position": NSNull()]
import Foundation
import LayerGraphics
import LayerKit
import Testing

/// Draws into the clip's bounding box with `color`, and remembers that box: what `setNeedsDisplay(_:)` asked for.
private final class ClipRecordingLayer: Layer {
    var color = Color.red
    var clips: [Rect] = []
    override func draw(in ctx: DrawingContext) {
        let dirty = ctx.boundingBoxOfClipPath                      // 7
        clips.append(dirty)
        ctx.setFillColor(color)
        ctx.fill(dirty)
    }
}

/// Fills the left half of its bounds white, leaving the right half undrawn.
private final class HalfDrawingLayer: Layer {
    override func draw(in ctx: DrawingContext) {
        ctx.setFillColor(.white)
        ctx.fill(Rect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height))
    }
}

@Suite("Core Animation porting (issue 26 item 5)")
struct CoreAnimationPortingTests {
    @Test func everyGuessCompilesAsWritten() {
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        layer.allowsEdgeAntialiasing = false                       // 1
        layer.isOpaque = true                                      // 2
        layer.cornerCurve = .continuous                            // 3
        layer.setValue(Double.pi / 2, forKeyPath: "transform.rotation.z") // 4
        if case .number(let angle)? = layer.value(forKeyPath: "transform.rotation.z") {
            #expect(abs(angle - Double.pi / 2) < 1e-9)
        } else { Issue.record("no rotation") }
        layer.setNeedsDisplay(Rect(x: 0, y: 0, width: 10, height: 10)) // 5
        #expect(layer.needsDisplay())
        let animation = BasicAnimation(keyPath: "opacity")
        animation.fillMode = MediaTimingFillMode.forwards          // 10
        animation.fillMode = .backwards
        #expect(animation.fillMode == FillMode.backwards)
        layer.actions = ["position": NSNull()]                     // 11
        #expect(layer.action(forKey: "position") == nil)
        var box = Path(rect: layer.bounds, transform: nil)         // 9
        box.addPath(Path(ellipseIn: layer.bounds, transform: nil))
        box.addPath(Path(roundedRect: layer.bounds, cornerWidth: 5, cornerHeight: 5, transform: nil))
        #expect(box.boundingBox == layer.bounds)
        let ctx = DrawingContext(size: Size(width: 20, height: 20))
        ctx.move(to: Point(x: 0, y: 0))                            // 8
        ctx.addLine(to: Point(x: 10, y: 0))
        ctx.addRect(Rect(x: 0, y: 0, width: 5, height: 5))
        ctx.addEllipse(in: Rect(x: 5, y: 5, width: 5, height: 5))
        ctx.addPath(Path(rect: Rect(x: 1, y: 1, width: 2, height: 2)))
        ctx.closePath()
        ctx.fillPath()
        ctx.strokePath()
        #expect(ctx.boundingBoxOfClipPath == Rect(x: 0, y: 0, width: 20, height: 20))
    }

    // MARK: allowsEdgeAntialiasing, cornerCurve (drawn: LayerCompositorTests/CoreAnimationPortingRenderTests)

    @Test func edgeAntialiasingAndCornerCurveReachTheSnapshot() {
        let layer = Layer()
        #expect(layer.allowsEdgeAntialiasing, "ours: on by default, as every render so far (iOS defaults to false)")
        #expect(layer.cornerCurve == .circular && !layer.isOpaque)
        layer.allowsEdgeAntialiasing = false
        layer.cornerCurve = .continuous
        let node = layer.snapshot()
        #expect(!node.allowsEdgeAntialiasing && node.cornerCurve == .continuous)
    }

    // MARK: isOpaque

    @Test func anOpaqueLayersDrawnBackingStoreHasNoAlphaSoWhatIsNotDrawnIsBlack() throws {
        func drawn(opaque: Bool) throws -> Image {
            let layer = HalfDrawingLayer()
            layer.bounds = Rect(x: 0, y: 0, width: 8, height: 4)
            layer.isOpaque = opaque
            layer.setNeedsDisplay()
            layer.displayIfNeeded()
            guard case .image(let image)? = layer.contents else { throw CancellationError() }
            return image
        }
        let opaque = try drawn(opaque: true), clear = try drawn(opaque: false)
        #expect(opaque.pixel(x: 1, y: 1) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        #expect(opaque.pixel(x: 6, y: 2) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "undrawn: opaque black")
        #expect(clear.pixel(x: 6, y: 2) == PremultipliedColor(r: 0, g: 0, b: 0, a: 0), "undrawn: transparent")
        #expect(clear.pixel(x: 1, y: 1) == opaque.pixel(x: 1, y: 1))
    }

    @Test func anOpaqueContextCompositesOverBlack() {
        let ctx = DrawingContext(size: Size(width: 2, height: 1), opaque: true)
        ctx.setFillColor(Color(red: 1, green: 1, blue: 1, alpha: 0.5))
        ctx.fill(Rect(x: 0, y: 0, width: 1, height: 1))
        let image = ctx.makeImage()
        let half = image.pixel(x: 0, y: 0)
        #expect(half.a == 255 && abs(Int(half.r) - 128) <= 1, "half white over black: grey, opaque; got \(half)")
        #expect(image.pixel(x: 1, y: 0) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
    }

    // MARK: setNeedsDisplay(_:)

    @Test func setNeedsDisplayInRectRedrawsOnlyThatRectWithTheContextClippedToIt() throws {
        let layer = ClipRecordingLayer()
        layer.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(layer.clips == [Rect(x: 0, y: 0, width: 20, height: 20)], "a first drawing is whole")

        layer.color = .blue
        layer.setNeedsDisplay(Rect(x: 10, y: 10, width: 4, height: 3))
        layer.setNeedsDisplay(Rect(x: 2.5, y: 2.5, width: 1, height: 1))   // marks accumulate; rounded out to pixels
        layer.displayIfNeeded()
        #expect(layer.clips.last == Rect(x: 2, y: 2, width: 12, height: 11), "the union of the marks, whole pixels")
        guard case .image(let image)? = layer.contents else { Issue.record("no contents"); return }
        #expect(image.pixel(x: 12, y: 11) == Color.blue.premultiplied, "inside the mark: redrawn")
        #expect(image.pixel(x: 0, y: 0) == Color.red.premultiplied, "outside the mark: kept")
        #expect(image.pixel(x: 19, y: 19) == Color.red.premultiplied, "outside the mark: kept")

        layer.setNeedsDisplay(Rect(x: 0, y: 0, width: 1, height: 1))
        layer.setNeedsDisplay()                                            // the whole layer wins
        layer.displayIfNeeded()
        #expect(layer.clips.last == layer.bounds)
    }

    @Test func aMarkMadeWhileDrawingStaysForTheNextDisplay() {
        final class RemarkingLayer: Layer {
            var clips: [Rect] = []
            override func draw(in ctx: DrawingContext) {
                clips.append(ctx.boundingBoxOfClipPath)
                if clips.count == 2 { setNeedsDisplay(Rect(x: 1, y: 1, width: 2, height: 2)) }
            }
        }
        let layer = RemarkingLayer()
        layer.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        layer.setNeedsDisplay(Rect(x: 4, y: 4, width: 2, height: 2))
        layer.displayIfNeeded()
        #expect(layer.needsDisplay(), "marked again while drawing")
        layer.displayIfNeeded()
        #expect(layer.clips == [layer.bounds, Rect(x: 4, y: 4, width: 2, height: 2), Rect(x: 1, y: 1, width: 2, height: 2)])
    }

    @Test func setNeedsDisplayInRectRedrawsWholeWhenTheStoreCannotBeKept() {
        let layer = ClipRecordingLayer()
        layer.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        layer.setNeedsDisplay(Rect(x: 1, y: 1, width: 2, height: 2))
        layer.displayIfNeeded()
        #expect(layer.clips.last == layer.bounds, "nothing drawn before: whole")
        layer.contents = .image(Image(width: 10, height: 10, color: .green))
        layer.setNeedsDisplay(Rect(x: 1, y: 1, width: 2, height: 2))
        layer.displayIfNeeded()
        #expect(layer.clips.last == layer.bounds, "contents set since: whole")
        layer.bounds.size.width = 12
        layer.setNeedsDisplay(Rect(x: 1, y: 1, width: 2, height: 2))
        layer.displayIfNeeded()
        #expect(layer.clips.last == layer.bounds, "another size: whole")
        layer.setNeedsDisplay(Rect(x: Double.nan, y: 0, width: 1, height: 1))
        layer.displayIfNeeded()
        #expect(layer.clips.last == layer.bounds, "a rect that is not finite: whole")
    }

    @Test func setNeedsDisplayInRectOnATiledLayerMarksOnlyTiles() {
        let tiled = TiledLayer()
        tiled.bounds = Rect(x: 0, y: 0, width: 512, height: 512)
        tiled.setNeedsDisplay(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(!tiled.needsDisplay(), "a tiled layer's partial mark goes to its tiles, not to display()")
    }

    // MARK: Key-value coding

    @Test func keyPathsSetAndReadTheModelAsAnimationsNameThem() {
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        layer.position = Point(x: 10, y: 20)
        layer.setValue(Double.pi / 4, forKeyPath: "transform.rotation.z")
        #expect(layer.transform.isApproximatelyEqual(to: .makeRotation(.pi / 4, 0, 0, 1)))
        layer.setValue(2.0, forKeyPath: "transform.scale.x")
        if case .number(let angle)? = layer.value(forKeyPath: "transform.rotation.z") {
            #expect(abs(angle - .pi / 4) < 1e-9, "setting the scale keeps the rotation")
        } else { Issue.record("no rotation") }
        layer.setValue(40.0, forKeyPath: "position.x")
        #expect(layer.position == Point(x: 40, y: 20))
        layer.setValue(80.0, forKeyPath: "bounds.size.width")
        #expect(layer.bounds.size == Size(width: 80, height: 50))
        #expect(layer.value(forKeyPath: "bounds.size.height") == .number(50))
        layer.setValue(Color.red, forKeyPath: "backgroundColor")
        #expect(layer.backgroundColor == .red)
        layer.setValue(true, forKeyPath: "hidden")
        #expect(layer.isHidden)
        layer.setValue(2.0, forKeyPath: "opacity")
        #expect(layer.opacity == 1, "clamped as the property is")
        layer.setValue(Point(x: 1, y: 1), forKeyPath: "opacity")
        #expect(layer.opacity == 1, "a value of the wrong type is ignored")
        layer.setValue("ours", forKeyPath: "someAppKey")
        #expect(layer.value(forKeyPath: "someAppKey") == .string("ours"), "any other key is kept, as CALayer keeps it")
        #expect(layer.value(forKeyPath: "noSuchKey") == nil)
    }

    @Test func keyPathsReachTheProperties_aSubclassDeclares() {
        let shape = ShapeLayer()
        shape.setValue(0.5, forKeyPath: "strokeEnd")
        #expect(shape.strokeEnd == 0.5)
        shape.setValue(Color.green, forKeyPath: "fillColor")
        #expect(shape.fillColor == .green)
        #expect(shape.value(forKeyPath: "strokeEnd") == .number(0.5))
        shape.setValue("not a number", forKeyPath: "strokeEnd")
        #expect(shape.strokeEnd == 0.5)
        let replicator = ReplicatorLayer()
        replicator.setValue(3, forKeyPath: "instanceCount")
        #expect(replicator.instanceCount == 3)
    }

    @Test func settingAKeyPathOnAHostedLayerRunsThePropertysActionUnlessItIsNSNull() {
        let root = Layer()
        let layer = Layer()
        root.addSublayer(layer)
        _ = root.snapshot(at: 0)
        layer.setValue(50.0, forKeyPath: "position.x")
        Transaction.flush()
        #expect(layer.animation(forKey: "position") != nil, "an implicit animation, as setting position does")

        let quiet = Layer()
        quiet.actions = ["position": NSNull(), "opacity": NSNull()]
        root.addSublayer(quiet)
        _ = root.snapshot(at: 1)
        quiet.setValue(50.0, forKeyPath: "position.x")
        quiet.opacity = 0.5
        Transaction.flush()
        #expect(quiet.animationKeys() == nil, "NSNull() is no action")
        #expect(quiet.position.x == 50)
    }

    @Test func nsNullInTheStyleOrFromTheDelegateIsNoActionToo() {
        final class Nuller: LayerDelegate {
            func action(for layer: Layer, forKey event: String) -> Action? { NSNull() }
        }
        let layer = Layer()
        layer.style = ["actions": ["opacity": NSNull()]]
        #expect(layer.action(forKey: "opacity") == nil)
        #expect(layer.action(forKey: "bounds") != nil, "other keys keep their default action")
        let nuller = Nuller()
        layer.delegate = nuller
        #expect(layer.action(forKey: "bounds") == nil)
    }

    // MARK: DrawingContext path building and clip box

    @Test func contextPathBuildingFillsAndStrokesAsCoreGraphics() {
        let ctx = DrawingContext(size: Size(width: 10, height: 10))
        #expect(ctx.isPathEmpty)
        ctx.move(to: Point(x: 0, y: 0))
        ctx.addLine(to: Point(x: 10, y: 0))
        ctx.addLine(to: Point(x: 10, y: 10))
        ctx.closePath()
        #expect(!ctx.isPathEmpty)
        ctx.setFillColor(.white)
        ctx.fillPath()
        #expect(ctx.isPathEmpty, "fillPath consumes the path")
        ctx.addEllipse(in: Rect(x: 0, y: 5, width: 4, height: 4))
        ctx.setStrokeColor(.red)
        ctx.setLineWidth(1)
        ctx.strokePath()
        let image = ctx.makeImage()
        #expect(image.pixel(x: 8, y: 2) == Color.white.premultiplied, "above the diagonal: filled")
        #expect(image.pixel(x: 1, y: 3).a == 0, "below the diagonal: empty")
        #expect(image.pixel(x: 2, y: 5).r > 100, "the ellipse's stroke")
        #expect(image.pixel(x: 2, y: 7).a == 0, "inside the stroked ellipse: empty")
    }

    @Test func boundingBoxOfClipPathIsTheClipInUserSpace() {
        let ctx = DrawingContext(size: Size(width: 40, height: 30), scale: 2)
        #expect(ctx.boundingBoxOfClipPath == Rect(x: 0, y: 0, width: 40, height: 30), "no clip: the canvas, in points")
        ctx.saveGState()
        ctx.clip(to: Rect(x: 5, y: 6, width: 10, height: 8))
        #expect(ctx.boundingBoxOfClipPath == Rect(x: 5, y: 6, width: 10, height: 8))
        ctx.translateBy(x: 5, y: 6)
        #expect(ctx.boundingBoxOfClipPath == Rect(x: 0, y: 0, width: 10, height: 8), "in the current user space")
        ctx.restoreGState()
        #expect(ctx.boundingBoxOfClipPath == Rect(x: 0, y: 0, width: 40, height: 30))
    }

    // MARK: Path's Core Graphics initialisers

    @Test func pathInitialisersWithATransform() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(Path(rect: r, transform: nil) == Path(rect: r))
        let move = AffineTransform2D(translationX: 5, y: -5)
        #expect(Path(rect: r, transform: move).boundingBox == Rect(x: 15, y: 15, width: 30, height: 40))
        #expect(Path(ellipseIn: r, transform: move) == Path(ellipseIn: r).applying(move))
        let rounded = Path(roundedRect: r, cornerWidth: 6, cornerHeight: 4, transform: nil)
        #expect(rounded == Path(roundedRect: r, byRoundingCorners: .allCorners, cornerRadii: Size(width: 6, height: 4)))
        #expect(rounded.boundingBoxOfPath == r)
        #expect(!rounded.contains(Point(x: 10.5, y: 20.5)) && rounded.contains(Point(x: 16, y: 21)))
        let scaled = Path(roundedRect: r, cornerWidth: 6, cornerHeight: 4, transform: AffineTransform2D(scaleX: 2, y: 2))
        #expect(scaled.boundingBoxOfPath == Rect(x: 20, y: 40, width: 60, height: 80))
    }
}
