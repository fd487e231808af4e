// Issue 20 item 6, tried again: the first guesses of a Core Animation user porting the book's listings to Swift,
// written with Core Animation's names minus the `CA` prefix (`CALayer` → `Layer`, `CATransform3DMakeRotation` →
// `Transform3DMakeRotation`, `CGRect` → `Rect`, `UIColor.blue.cgColor` → `Color.blue`). 57 guesses, chapter by chapter.
// Before this change 44 compiled; now 53 do, and each of the other 4 gets a compiler message or fix-it that names the
// Swift spelling (checked with `swiftc -typecheck`, see the list). Foundation is imported on purpose: the guesses must
// compile beside it.
//
//  1 Layer()                                    ok           30 Transform3DMakeRotation(…)          now ok (was: not found)
//  2 frame = Rect(x:y:width:height:)            ok           31 Transform3DIdentity; t.m34 = …        now ok (was: not found)
//  3 backgroundColor = Color.blue               ok           32 Transform3DRotate(t, a, 0, 1, 0)      now ok (was: not found)
//  4 addSublayer(_:)                            ok           33 Transform3DMakeTranslation(…)         now ok (was: not found)
//  5 contents = image                           NO: `contents` is a typed `LayerContents?`; `.image(image)` (its doc says so)
//  6 contentsGravity = .resizeAspect            ok           34 Transform3DMakeScale(…)               now ok (was: not found)
//  7 contentsScale = 2                          ok           35 Transform3DConcat(a, b)               now ok (was: not found)
//  8 masksToBounds = true                       ok           36 isDoubleSided = false                 ok
//  9 contentsRect = Rect(…)                     ok           37 TransformLayer()                      ok
// 10 contentsCenter = Rect(…)                   ok           38 let path = Path(); path.addArc(withCenter:…)
// 11 delegate = self; display()                 ok              now compiles with `var` (UIBezierPath's label added); `let` stays
// 12 ctx.setLineWidth / strokeEllipse(in:)      ok              an error: Path is a value as CGPath is — the compiler's fix-it
// 13 anchorPoint = Point(x:y:)                  ok              says "change 'let' to 'var'", and Path's doc says so
// 14 convert(_:from:)                           ok           39 ShapeLayer strokeColor/lineJoin/lineCap ok
// 15 hitTest(_:)                                ok           40 Path(roundedRect:byRoundingCorners:cornerRadii:) ok
// 16 contains(_:)                               ok           41 TextLayer string/alignmentMode/isWrapped ok
// 17 zPosition = 1                              ok           42 GradientLayer colors/startPoint/locations ok
// 18 isGeometryFlipped = true                   ok           43 ReplicatorLayer instanceCount/Transform/BlueOffset ok
// 19 autoresizingMask = [.layerWidthSizable]    ok           44 ScrollLayer scroll(to:)               ok
// 20 setNeedsLayout(); layoutIfNeeded()         ok           45 EmitterCell contents = image; renderMode = .additive ok
// 21 cornerRadius / borderWidth / borderColor   ok           46 TiledLayer tileSize                   ok
// 22 shadowOpacity / shadowOffset / shadowRadius ok          47 Player(url:), PlayerLayer(player:), play() ok (LayerMediaTests)
// 23 shadowPath = Path(ellipseIn:)              ok           48 Transaction.begin/setAnimationDuration/commit ok
// 24 shadowPath = Path(rect:)                   ok           49 Transaction.setDisableActions(true)   ok
// 25 mask = Layer()                             ok           50 Transaction.setCompletionBlock { }    ok
// 26 magnificationFilter = .nearest             ok           51 Transition type/subtype; actions = [key: t] ok
// 27 shouldRasterize / rasterizationScale       ok           52 presentation()                        ok
// 28 maskedCorners = [.layerMinXMinYCorner]     ok           53 BasicAnimation toValue/delegate; add(_:forKey: nil) ok
// 29 setAffineTransform(AffineTransform(rotationAngle:))     54 rotationMode = .rotateAuto            now ok (was: no member)
//    NO: `AffineTransform` is Foundation's type (was: "cannot  55 MediaTimingFunction(name: .easeInEaseOut) now ok (was: not found)
//    convert…"); the compiler now says "CGAffineTransform is    56 ValueFunction(name: .rotateZ); fillMode; isRemovedOnCompletion
//    AffineTransform2D here: AffineTransform2D(rotationAngle:)"    now ok (was: no initializer)
//                                                            57 beginTime = convertTime(CurrentMediaTime(), from: nil)
//                                                               NO: no global clock; the compiler now says "use
//                                                               layer.currentMediaTime()" (was: not found)
import Foundation
import LayerGraphics
import LayerKit
import Testing

private final class Drawer: LayerDelegate, AnimationDelegate {
    var drew = 0
    func draw(_ layer: Layer, in ctx: DrawingContext) {
        drew += 1
        ctx.setLineWidth(10)                                       // 12
        ctx.setStrokeColor(Color.red)
        ctx.strokeEllipse(in: layer.bounds)
    }
    func animationDidStop(_ anim: Animation, finished flag: Bool) {}
}

@Suite("Core Animation guesses")
struct CoreAnimationGuessesTests {
    @Test func chapters1to3() {
        let layerView = Layer()                                    // 1
        layerView.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        let blueLayer = Layer()
        blueLayer.frame = Rect(x: 50, y: 50, width: 100, height: 100) // 2
        blueLayer.backgroundColor = Color.blue                     // 3
        layerView.addSublayer(blueLayer)                           // 4
        #expect(blueLayer.superlayer === layerView && blueLayer.position == Point(x: 100, y: 100))

        blueLayer.contentsGravity = .resizeAspect                  // 6
        blueLayer.contentsScale = 2                                // 7
        blueLayer.masksToBounds = true                             // 8
        blueLayer.contentsRect = Rect(x: 0, y: 0, width: 0.5, height: 0.5)         // 9
        blueLayer.contentsCenter = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5) // 10
        #expect(blueLayer.contentsRect.width == 0.5 && blueLayer.contentsCenter.minX == 0.25)

        let drawer = Drawer()
        blueLayer.delegate = drawer                                // 11
        blueLayer.display()
        #expect(drawer.drew == 1 && blueLayer.contents != nil, "draw(_:in:) made the backing image")

        blueLayer.anchorPoint = Point(x: 0.5, y: 0.9)              // 13
        #expect(blueLayer.frame.minY == 100 - 90)
        let inBlue = blueLayer.convert(Point(x: 60, y: 60), from: layerView) // 14
        #expect(inBlue.map { abs($0.x - 10) < 1e-9 } == true)
        #expect(layerView.hitTest(Point(x: 100, y: 100)) === blueLayer)       // 15
        #expect(blueLayer.contains(Point(x: 1, y: 1)))             // 16
        blueLayer.zPosition = 1                                    // 17
        layerView.isGeometryFlipped = true                         // 18
        blueLayer.autoresizingMask = [.layerWidthSizable, .layerHeightSizable] // 19
        layerView.setNeedsLayout()                                 // 20
        layerView.layoutIfNeeded()
        #expect(blueLayer.zPosition == 1 && layerView.isGeometryFlipped && blueLayer.autoresizingMask.contains(.layerWidthSizable))
    }

    @Test func chapter4() {
        let layer = Layer()
        layer.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        layer.cornerRadius = 20; layer.borderWidth = 5; layer.borderColor = .black        // 21
        layer.shadowOpacity = 0.5; layer.shadowOffset = Size(width: 0, height: 5); layer.shadowRadius = 5 // 22
        layer.shadowPath = Path(ellipseIn: layer.bounds)           // 23
        #expect(layer.shadowPath?.boundingBox == layer.bounds)
        layer.shadowPath = Path(rect: layer.bounds)                // 24
        layer.mask = Layer()                                       // 25
        layer.magnificationFilter = .nearest                       // 26
        layer.shouldRasterize = true; layer.rasterizationScale = 2 // 27
        layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner] // 28
        #expect(layer.mask != nil && layer.magnificationFilter == .nearest && layer.shouldRasterize)
        #expect(!layer.maskedCorners.contains(.layerMaxXMinYCorner))
    }

    @Test func chapter5TransformsWithCoreAnimationsFunctions() {
        let layer = Layer()
        let angle = Double.pi / 4
        layer.transform = Transform3DMakeRotation(angle, 0, 1, 0) // 30
        #expect(layer.transform == .makeRotation(angle, 0, 1, 0))
        var perspective = Transform3DIdentity                      // 31
        perspective.m34 = -1.0 / 500.0
        #expect(perspective == .makePerspective(distance: 500))
        let turned = Transform3DRotate(perspective, angle, 0, 1, 0) // 32: the rotation acts first, as in CA
        #expect(turned.isApproximatelyEqual(to: Transform3D.makeRotation(angle, 0, 1, 0).concatenating(perspective)))
        layer.sublayerTransform = Transform3DMakeTranslation(0, 0, 100) // 33
        #expect(layer.sublayerTransform == .makeTranslation(0, 0, 100))
        let scale = Transform3DMakeScale(2, 3, 1)                  // 34
        #expect(scale == .makeScale(2, 3, 1))
        let both = Transform3DConcat(scale, Transform3DMakeTranslation(10, 0, 0)) // 35: scale, then move
        #expect(both.apply(x: 1, y: 1).x == 12)
        #expect(Transform3DTranslate(.identity, 5, 0, 0) == .makeTranslation(5, 0, 0))
        #expect(Transform3DScale(.identity, 2, 2, 2) == .makeScale(2, 2, 2))
        #expect(Transform3DIsIdentity(Transform3DInvert(.identity)) && !Transform3DIsIdentity(scale))
        #expect(Transform3DInvert(scale).isApproximatelyEqual(to: .makeScale(0.5, 1.0 / 3, 1)))
        layer.isDoubleSided = false                                // 36
        let cube = TransformLayer()                                // 37
        cube.addSublayer(layer)
        #expect(!layer.isDoubleSided && layer.superlayer === cube)
    }

    @Test func chapter6SpecializedLayers() {
        var path = Path()                                          // 38 (`var`: Path is a value, as CGPath)
        path.move(to: Point(x: 175, y: 100))
        path.addArc(withCenter: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        var same = Path()
        same.move(to: Point(x: 175, y: 100))
        same.addArc(center: Point(x: 150, y: 100), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(path == same && abs(path.boundingBox.width - 50) < 1e-6)

        let shape = ShapeLayer()                                   // 39
        shape.strokeColor = .red; shape.fillColor = .clear; shape.lineWidth = 5
        shape.lineJoin = .round; shape.lineCap = .round; shape.path = path
        #expect(shape.path == path && shape.lineWidth == 5)
        let corners = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 50), byRoundingCorners: [.topRight, .bottomRight],
                           cornerRadii: Size(width: 20, height: 20)) // 40
        #expect(corners.boundingBox == Rect(x: 0, y: 0, width: 100, height: 50))

        let text = TextLayer()                                     // 41
        text.string = "Hello"; text.alignmentMode = .justified; text.isWrapped = true; text.fontSize = 12
        #expect(text.string == .plain("Hello"))
        let gradient = GradientLayer()                             // 42
        gradient.colors = [Color.red, Color.blue]; gradient.startPoint = Point(x: 0, y: 0); gradient.endPoint = Point(x: 1, y: 1)
        gradient.locations = [0, 0.25, 0.5]
        #expect(gradient.colors?.count == 2 && gradient.locations?.count == 3)
        let replicator = ReplicatorLayer()                         // 43
        replicator.instanceCount = 10
        replicator.instanceTransform = Transform3DMakeTranslation(0, 20, 0)
        replicator.instanceBlueOffset = -0.1
        #expect(replicator.instanceCount == 10 && replicator.instanceBlueOffset == -0.1)
        let scroll = ScrollLayer()                                 // 44
        scroll.scroll(to: Point(x: 10, y: 10))
        #expect(scroll.bounds.origin == Point(x: 10, y: 10))
        let emitter = EmitterLayer()                               // 45
        let cell = EmitterCell()
        cell.contents = Image(width: 2, height: 2, color: .white)
        emitter.emitterCells = [cell]; emitter.renderMode = .additive
        #expect(emitter.emitterCells?.count == 1 && emitter.renderMode == .additive)
        let tiled = TiledLayer()                                   // 46
        tiled.tileSize = Size(width: 128, height: 128)
        #expect(tiled.tileSize.width == 128)
    }

    @Test func chapters7and8Animations() {
        let layer = Layer()
        Transaction.begin()                                        // 48
        Transaction.setAnimationDuration(1)
        Transaction.setDisableActions(true)                        // 49
        var completed = false
        Transaction.setCompletionBlock { completed = true }        // 50
        layer.backgroundColor = .red
        Transaction.commit()
        #expect(completed, "no animation ran: the completion block runs at the commit")

        let transition = Transition()                              // 51
        transition.type = .push; transition.subtype = .fromLeft
        layer.actions = ["backgroundColor": transition]
        #expect(layer.actions?["backgroundColor"] != nil)
        #expect(layer.presentation() == nil, "an unhosted layer has no presentation layer, as in Core Animation") // 52

        let drawer = Drawer()
        let fade = BasicAnimation(keyPath: "backgroundColor")     // 53
        fade.toValue = Color.blue
        fade.delegate = drawer
        layer.add(fade, forKey: nil)
        #expect(layer.animationKeys()?.count == 1)

        let move = KeyframeAnimation(keyPath: "position")          // 54
        move.path = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        move.rotationMode = .rotateAuto
        #expect(move.rotationMode == .auto && RotationMode.rotateAutoReverse == .autoReverse)

        let group = AnimationGroup()                               // 55
        group.animations = [BasicAnimation(keyPath: "opacity")]
        group.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        #expect(group.timingFunction == .easeInEaseOut)

        let spin = BasicAnimation(keyPath: "transform")            // 56
        spin.valueFunction = ValueFunction(name: .rotateZ)
        spin.fillMode = .forwards
        spin.isRemovedOnCompletion = false
        #expect(spin.valueFunction == .rotateZ && !spin.isRemovedOnCompletion)
    }
}
