// This file imports Foundation on purpose: the names a Core Animation user guesses must compile beside it (issue 20
// item 6). Foundation's own `AffineTransform` must stay reachable unqualified, and LayerKit's must not clash with it.
import Foundation
import LayerGraphics
import LayerKit
import Testing

@Suite("Core Animation names")
struct CoreAnimationNamesTests {
    /// Listing 5.2: scale by 50 %, rotate 30°, move 200 points right, applied as CGAffineTransform's methods compose.
    @Test func listing5_2CompilesBesideFoundation() {
        let layer = Layer()
        var transform = AffineTransform2D.identity
        transform = transform.scaledBy(x: 0.5, y: 0.5)
        transform = transform.rotated(by: .pi / 180.0 * 30.0)
        transform = transform.translatedBy(x: 200, y: 0)
        layer.setAffineTransform(transform)

        #expect(layer.affineTransform() == transform)
        #expect(layer.transform.isAffine)
        // Each method acts before the earlier ones: the origin moves 200 right, turns 30°, then halves.
        let origin = Point(x: 0, y: 0).applying(transform)
        #expect(abs(origin.x - 100 * cos(Double.pi / 6)) < 1e-9 && abs(origin.y - 50) < 1e-9)
    }

    @Test func foundationsAffineTransformIsStillFoundations() {
        // Unqualified, this name is Foundation's; with LayerKit's type of the same name this line was ambiguous.
        let f = AffineTransform(translationByX: 3, byY: 4)
        #expect(f.transform(NSPoint(x: 1, y: 1)) == NSPoint(x: 4, y: 5))
    }

    @Test func transform3DMethodsShareOneLabelScheme() {
        let angle = 0.7
        let t = Transform3D.makePerspective(distance: 500)
            .rotated(by: angle, x: 0, y: 1, z: 0)
            .translatedBy(x: 10, y: -20, z: 30)
            .scaledBy(x: 2, y: 3, z: 4)
        // CATransform3DScale(CATransform3DTranslate(CATransform3DRotate(p, …), …), …) = S · T · R · P.
        let expected = Transform3D.makeScale(2, 3, 4)
            .concatenating(.makeTranslation(10, -20, 30))
            .concatenating(.makeRotation(angle, 0, 1, 0))
            .concatenating(.makePerspective(distance: 500))
        #expect(t.isApproximatelyEqual(to: expected, tolerance: 1e-12))
        #expect(!t.isApproximatelyEqual(to: .identity, tolerance: 1e-3))
    }

    @Test func autoresizingMaskHasCoreAnimationsNamesAndBits() {
        // kCALayerNotSizable = 0, kCALayerMinXMargin = 1, … kCALayerMaxYMargin = 32.
        #expect(AutoresizingMask.layerNotSizable.rawValue == 0)
        let bits: [(AutoresizingMask, UInt32)] = [
            (.layerMinXMargin, 1), (.layerWidthSizable, 2), (.layerMaxXMargin, 4),
            (.layerMinYMargin, 8), (.layerHeightSizable, 16), (.layerMaxYMargin, 32),
        ]
        for (mask, raw) in bits { #expect(mask.rawValue == raw) }
        #expect(Layer().autoresizingMask == .layerNotSizable)
    }

    @Test func cornerMaskHasCoreAnimationsNamesAndBits() {
        let bits: [(CornerMask, UInt8)] = [
            (.layerMinXMinYCorner, 1), (.layerMaxXMinYCorner, 2), (.layerMinXMaxYCorner, 4), (.layerMaxXMaxYCorner, 8),
        ]
        for (mask, raw) in bits { #expect(mask.rawValue == raw) }
    }

    @Test func contentsTakeAnImageAsDotImage() {
        let layer = Layer()
        let image = Image(width: 2, height: 2, color: .red)
        layer.contents = .image(image)
        guard case .image(let shown)? = layer.contents else { Issue.record("contents lost the image"); return }
        #expect(shown === image)
    }
}
