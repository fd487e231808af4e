import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// A body and its opaque border share one outer edge: the pixels of that edge are border (and outside), never the
// picture beneath the border. Checked against an 8×8 supersampled reference computed here.

/// What a card draws beneath its border, and so whether the border is fused with it or a draw of its own.
enum CardBody {
    /// A green background or green contents, with a blue sublayer between them and the border.
    case background, contents
    /// A green gradient (a gradient layer draws its gradient by a draw of its own).
    case gradient
    /// Green contents crossfading into green contents (the crossfade is a group, the border drawn after it).
    case crossfade
}

/// An 8×8 green image with the given green level.
private func greenImage(_ g: UInt32 = 0xFF) -> Image { Image(width: 8, height: 8) { $0.update(repeating: 0xFF00_0000 | g << 8) } }

/// A 120×120 card turned by `degrees` in the middle of a clear 160×160 canvas: pure green (background or contents)
/// with a pure red border `width` points wide.
/// With `sublayer`, a small blue square sits in the middle: the border is then drawn last, over it, by its own draw.
private func borderedCard(degrees: Double, width: Double, contents: Bool, sublayer: Bool = false,
                          borderColor: Color = Color(red: 1, green: 0, blue: 0)) -> Layer {
    let root = canvas(160, 160, background: nil)
    let card = makeLayer(Rect(x: 20, y: 20, width: 120, height: 120), background: contents ? nil : Color(red: 0, green: 1, blue: 0))
    if contents {
        card.contents = .image(greenImage())
    }
    card.borderWidth = width
    card.borderColor = borderColor
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

    /// A card with sublayers, a gradient or a crossfade draws its border as a draw of its own, after the body: the
    /// body is then cut at the opaque border's mid-line, so its edge never reaches the border's outer fringe.
    @Test(arguments: [CardBody.background, .contents, .gradient, .crossfade], [2.0, 6.0])
    func theFringeIsCleanWhenTheBorderIsADrawOfItsOwn(body: CardBody, width: Double) {
        expectCleanFringe(renderCard(body, degrees: 7, width: width), degrees: 7, border: width)
    }

    /// Cutting the body under the border must not open a gap at the border's inner edge: wherever the card covers a
    /// pixel wholly, the pixel is opaque, for thin borders (the fallback: less or no cut) as for wide ones.
    @Test(arguments: [CardBody.background, .contents, .gradient, .crossfade], [0.5, 1.0, 1.5, 2.0, 6.0])
    func theCardIsOpaqueWhereverItCoversThePixel(body: CardBody, width: Double) {
        let s = renderCard(body, degrees: 7, width: width)
        var covered = 0, worst = 255
        for y in 0..<s.height {
            for x in 0..<s.width where supersampledCoverage(x: x, y: y, degrees: 7, half: 60) == 1 {
                covered += 1
                worst = min(worst, Int(s.pixel(x: x, y: y).a))
            }
        }
        #expect(covered > 10_000)
        // Tolerance: all 64 samples inside leaves the pixel's centre ≥ 0.4875 pixels in (7/16 · (cos 7° + sin 7°)), so
        // the analytic edge may give it 0.9875 (alpha 252); a body cut to a thin border's mid-line gives 239.
        #expect(worst >= 250, "the backdrop shows through the card, down to alpha \(worst)")
    }

    /// A translucent border shows the body through it: the body is not cut, and the border's band is the border
    /// over the picture, as when the border is fused with the body (no sublayer).
    @Test func aTranslucentBorderStillShowsTheBodyThroughIt() {
        let half = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        let separate = render(borderedCard(degrees: 7, width: 6, contents: false, sublayer: true, borderColor: half))
        let fused = render(borderedCard(degrees: 7, width: 6, contents: false, borderColor: half))
        // Half red over full green: 128 red, 127 green, opaque.
        expectBand(separate, fused, PremultipliedColor(r: 128, g: 127, b: 0, a: 255))
    }

    /// Opacity without a group (`allowsGroupOpacity = false`) fades each draw alone, body and border apart: the
    /// faded body shows through the faded border across the whole band, as before the cut (no step at the
    /// mid-line, where a cut body would stop).
    @Test(arguments: [false, true])
    func opacityWithoutAGroupShowsTheBodyThroughTheWholeBand(crossfade: Bool) {
        let root = borderedCard(degrees: 7, width: 6, contents: crossfade, sublayer: true)
        let card = root.sublayers![0]
        card.opacity = 0.5
        card.allowsGroupOpacity = false
        if crossfade {
            let fade = BasicAnimation(keyPath: "contents")
            fade.fromValue = LayerContents.image(greenImage())
            fade.toValue = LayerContents.image(greenImage())
            fade.duration = 1
            card.add(fade, forKey: "fade")
        }
        // Half red over half green: red 128, green 128 · ½, alpha 128 + 128 · ½.
        expectBand(sharedCompositor.render(root.snapshot(at: 0.5), width: 160, height: 160), nil,
                   PremultipliedColor(r: 128, g: 64, b: 0, a: 192))
    }

    /// Deep in the border's band (pixels wholly between its edges, away from both), `separate` is `expected` and
    /// (when given) the fused draw's picture, to a level of rounding.
    private func expectBand(_ separate: Surface, _ fused: Surface?, _ expected: PremultipliedColor,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        var band = 0, worst = 0
        for y in 0..<160 {
            for x in 0..<160 {
                guard supersampledCoverage(x: x, y: y, degrees: 7, half: 59) == 1,
                      supersampledCoverage(x: x, y: y, degrees: 7, half: 55) == 0 else { continue }
                band += 1
                let p = separate.pixel(x: x, y: y)
                worst = max(worst, channelDifference(p, expected), fused.map { channelDifference(p, $0.pixel(x: x, y: y)) } ?? 0)
            }
        }
        #expect(band > 1000, sourceLocation: sourceLocation)
        #expect(worst <= 1, "the band is off by \(worst)", sourceLocation: sourceLocation)
    }

    /// The card of `body` with a red border `width` wide, turned by `degrees`, the border drawn by a draw of its own.
    private func renderCard(_ body: CardBody, degrees: Double, width: Double) -> Surface {
        switch body {
        case .background, .contents:
            return render(borderedCard(degrees: degrees, width: width, contents: body == .contents, sublayer: true))
        case .gradient:
            let root = borderedCard(degrees: degrees, width: width, contents: false)
            let card = root.sublayers![0]
            let gradient = GradientLayer()
            gradient.bounds = card.bounds
            gradient.position = card.position
            gradient.transform = card.transform
            gradient.colors = [Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0.5, blue: 0)]
            gradient.borderWidth = width
            gradient.borderColor = card.borderColor
            card.removeFromSuperlayer()
            root.addSublayer(gradient)
            return render(root)
        case .crossfade:
            let root = borderedCard(degrees: degrees, width: width, contents: true)
            let fade = BasicAnimation(keyPath: "contents")
            fade.fromValue = LayerContents.image(greenImage(0x80))
            fade.toValue = LayerContents.image(greenImage())
            fade.duration = 1
            root.sublayers![0].add(fade, forKey: "fade")
            return sharedCompositor.render(root.snapshot(at: 0.5), width: 160, height: 160)
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
