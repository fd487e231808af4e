import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// A body and its opaque border share one outer edge: the pixels of that edge are border (and outside), never the
// picture beneath the border. Checked against an 8×8 supersampled reference computed here.

/// A 120×120 card turned by `degrees` in the middle of a clear 160×160 canvas: pure green (background or contents)
/// with a pure red border `width` points wide.
/// With `sublayer`, a small blue square sits in the middle: the border is then drawn last, over it, by its own draw.
private func borderedCard(degrees: Double, width: Double, contents: Bool, sublayer: Bool = false) -> Layer {
    let root = canvas(160, 160, background: nil)
    let card = makeLayer(Rect(x: 20, y: 20, width: 120, height: 120), background: contents ? nil : Color(red: 0, green: 1, blue: 0))
    if contents {
        card.contents = .image(Image(width: 8, height: 8) { $0.update(repeating: 0xFF00_FF00) })
    }
    card.borderWidth = width
    card.borderColor = Color(red: 1, green: 0, blue: 0)
    card.transform = .makeRotation(degrees * .pi / 180, 0, 0, 1)
    if sublayer { card.addSublayer(makeLayer(Rect(x: 50, y: 50, width: 20, height: 20), background: Color(red: 0, green: 0, blue: 1))) }
    root.addSublayer(card)
    return root
}

/// The fraction of pixel (x, y) inside the square of half side `half` about (80, 80) turned by `degrees`, by 8×8 samples.
private func supersampledCoverage(x: Int, y: Int, degrees: Double, half: Double) -> Double {
    let a = -degrees * .pi / 180, c = cos(a), s = sin(a)
    var inside = 0
    for j in 0..<8 {
        for i in 0..<8 {
            let px = Double(x) + (Double(i) + 0.5) / 8 - 80, py = Double(y) + (Double(j) + 0.5) / 8 - 80
            // Back into the card's frame (turned the other way).
            let u = c * px - s * py, v = s * px + c * py
            if abs(u) <= half && abs(v) <= half { inside += 1 }
        }
    }
    return Double(inside) / 64
}

@Suite("border edges")
struct BorderEdgeTests {
    @Test(arguments: [false, true], [3.0, 7.0, 20.0])
    func theOuterFringeOfAnOpaqueBorderShowsNoPicture(contents: Bool, degrees: Double) {
        expectCleanFringe(render(borderedCard(degrees: degrees, width: 6, contents: contents)), degrees: degrees, border: 6)
    }

    /// A card with sublayers draws its border last, as a draw of its own, after the body has already blended its
    /// edge: the picture still shows in the fringe. Known: leaving the border's share of the edge to the later draw
    /// cleans this fringe, but where two bordered layers abut (a cube's faces) the backdrop then shows through the
    /// seam instead (`transformLayerCubeWithBackFacesCulled`), so it waits for a seam-aware fix.
    @Test(arguments: [false, true])
    func theFringeIsCleanWhenSublayersComeBetweenBodyAndBorder(contents: Bool) {
        withKnownIssue("the border drawn after sublayers cannot take back the body's edge") {
            expectCleanFringe(render(borderedCard(degrees: 7, width: 6, contents: contents, sublayer: true)), degrees: 7, border: 6)
        }
    }

    private func expectCleanFringe(_ s: Surface, degrees: Double, border: Double,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        var fringe = 0, worst = 0, worstRed = 0
        for y in 0..<s.height {
            for x in 0..<s.width {
                let outer = supersampledCoverage(x: x, y: y, degrees: degrees, half: 60)
                let inner = supersampledCoverage(x: x, y: y, degrees: degrees, half: 60 - border)
                // The outer edge only: partly covered, nowhere near the border's inner edge.
                guard outer > 0, outer < 1, inner == 0 else { continue }
                fringe += 1
                let p = s.pixel(x: x, y: y)
                // The reference has no green here at all; red (and alpha) is the outer coverage.
                worst = max(worst, Int(p.g))
                worstRed = max(worstRed, abs(Int(p.r) - Int((outer * 255).rounded())))
            }
        }
        #expect(fringe > 100, "the card's outline was found: \(fringe) pixels", sourceLocation: sourceLocation)
        // Tolerance: 2 levels of green (rounding), where the picture used to show with up to 64.
        #expect(worst <= 2, "green in the border's outer fringe: up to \(worst) levels", sourceLocation: sourceLocation)
        // And the fringe's red follows the reference coverage (analytic vs 8×8 samples: a few levels apart).
        #expect(worstRed <= 24, "red off the reference by up to \(worstRed)", sourceLocation: sourceLocation)
    }
}
