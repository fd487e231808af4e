import Foundation
import LayerGraphics
import LayerKit
@testable import LayerScene
import Testing

// The headline command (`layerplay clip.mp4 --rotate`, CLI.md "Effects"): whatever the canvas, from 360p to 4K, the
// turned card with its border and shadow stays inside the canvas at every angle, and so does a spin as it turns.
// Checked on the geometry (the card's layer tree, projected as the compositor projects it), not on 4K renders.

/// The built-in card for a `width`×`height` video with these params; its root and the turned layer.
private func card(_ width: Int, _ height: Int, _ sets: [(String, String)]) throws -> (root: Layer, card: Layer) {
    var options = SceneLoadOptions(file: "builtin:card", directory: "/")
    options.arguments = ["clip.mp4"]
    options.sets = sets.map { (name: $0.0, value: $0.1) }
    options.media = FakeMedia(["clip.mp4": SceneMediaInfo(size: Size(width: Double(width), height: Double(height)),
                                                          duration: 10, fps: 30, hasAudio: false)])
    let scene = try SceneLoader.load(contentsOf: "builtin:card", options: options)
    _ = scene.root.snapshot(at: 0) // laid out as for a frame: positions in % of the canvas are placed
    let turned = try #require(scene.root.sublayers?.first { $0.name == "media-container" })
    return (scene.root, turned)
}

/// What the card may cover in its own plane: its bounds (the border is drawn inside them) and, with a shadow, the
/// shadow's reach: the bounds moved by the offset and grown by 3σ (where the compositor's Gaussian kernel ends).
private func reach(of card: Layer) -> Rect {
    guard card.shadowOpacity > 0 else { return card.bounds }
    let r = 3 * card.shadowRadius
    let shadow = card.bounds.offsetBy(dx: card.shadowOffset.width, dy: card.shadowOffset.height).insetBy(dx: -r, dy: -r)
    return card.bounds.union(shadow)
}

/// The projected bounds of the card's reach in the canvas (nil when some of it is behind the eye). The root is passed
/// to keep it alive: a layer holds its superlayer weakly.
private func projected(_ card: Layer, in root: Layer) -> Rect? {
    withExtendedLifetime(root) { card.convert(reach(of: card), to: root) }
}

private func isInside(_ box: Rect?, _ width: Int, _ height: Int) -> Bool {
    guard let box else { return false }
    return box.minX >= 0 && box.minY >= 0 && box.maxX <= Double(width) && box.maxY <= Double(height)
}

@Suite("The turned card stays inside the canvas")
struct TurnedCardFitTests {
    static let sizes = [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)]
    /// The angles of the issue, the edge-on quarter turn, the far side, and negative turns.
    static let angles: [Double] = [0, 30, 45, 60, 75, 89, 90, 105, 135, 180, 225, 270, -30, -60, -89]
    /// The look `--rotate --corner-radius 24 --border 6 --shadow` asks for (bare --shadow: 16:0.5:0,8).
    static let look = [("cornerRadius", "24"), ("border", "6:white"), ("shadow", "16:0.5:0,8")]

    @Test(arguments: sizes)
    func atEveryAngleAboutY(_ size: (Int, Int)) throws {
        let (w, h) = size
        for plain in [true, false] {
            // The near edge's distance from the centre peaks where sin θ = x/d: that angle too, for the card's edge.
            let (_, probe) = try card(w, h, [("rotate", "0")] + (plain ? [] : Self.look))
            let eye = -1 / probe.transform.m34
            let worst = asin(min(1, reach(of: probe).width / 2 / eye)) * 180 / .pi
            for angle in Self.angles + [worst, -worst, 180 - worst] {
                let (root, turned) = try card(w, h, [("rotate", "\(angle)")] + (plain ? [] : Self.look))
                let box = projected(turned, in: root)
                #expect(isInside(box, w, h), "\(w)x\(h) \(plain ? "plain" : "with border and shadow") at \(angle)°: \(String(describing: box))")
            }
        }
    }

    @Test func aboutXToo() throws {
        for (w, h) in Self.sizes {
            for angle in [30.0, 60, 89, 90, -75] {
                let (root, turned) = try card(w, h, [("rotate", "\(angle)"), ("axis", "1,0,0")] + Self.look)
                #expect(isInside(projected(turned, in: root), w, h), "\(w)x\(h) about x at \(angle)°")
            }
        }
    }

    /// A spin turns through every angle: its presented transform, a degree at a time over a whole turn, never clips.
    @Test(arguments: sizes)
    func aSpinNeverClips(_ size: (Int, Int)) throws {
        let (w, h) = size
        let (root, turned) = try card(w, h, [("spin", "8")] + Self.look)
        let index = try #require(root.sublayers?.firstIndex { $0 === turned })
        let model = turned.transform
        let steps = 360
        for k in 0..<steps {
            let t = 8 * Double(k) / Double(steps)
            Transaction.withoutActions { turned.transform = model } // the spin adds to the model: start from it each time
            let shown = root.snapshot(at: t).sublayers[index]
            Transaction.withoutActions { turned.transform = shown.transform } // the turn as shown, for `convert`
            #expect(isInside(projected(turned, in: root), w, h), "\(w)x\(h) spinning, at \(t) s (\(k)°)")
        }
        #expect(turned.animationKeys() == ["spin"])
    }

    /// The check can fail: the old rule (the eye 500 px away, the card 2/3 of the canvas), given explicitly, runs off
    /// every one of these canvases at some angle, as the issue saw (640×360 from 60° on with the shadow).
    @Test(arguments: sizes)
    func theOld500PixelEyeRanOffTheCanvas(_ size: (Int, Int)) throws {
        let (w, h) = size
        let old = [("perspective", "500"), ("layerSize", "\(w * 2 / 3)x\(h * 2 / 3)")] + Self.look
        let clipped = try [30.0, 45, 60, 75, 89].filter { angle in
            let (root, turned) = try card(w, h, [("rotate", "\(angle)")] + old)
            return !isInside(projected(turned, in: root), w, h)
        }
        #expect(clipped.contains(75) && clipped.contains(89), "\(w)x\(h): clipped at \(clipped)")
    }

    /// The eye scales with the canvas: the same card, the same picture, at every size.
    @Test func theEyeScalesWithTheCanvas() throws {
        var ratios: [Double] = []
        for (w, h) in Self.sizes {
            let (_, turned) = try card(w, h, [("rotate", "0")]) // unturned, m34 is −1/d
            ratios.append(-1 / turned.transform.m34 / Double(w))
            #expect(turned.bounds.width == (Double(w) * 2 / 3).rounded(.down), "without a shadow the card is 2/3 of the canvas")
        }
        #expect(ratios.allSatisfy { abs($0 - 1.5) < 1e-9 }, "eye distance / canvas width: \(ratios)")
        let (_, explicit) = try card(1920, 1080, [("rotate", "0"), ("perspective", "800")])
        #expect(abs(-1 / explicit.transform.m34 - 800) < 1e-9, "--perspective still sets it")
    }
}
