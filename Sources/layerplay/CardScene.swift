import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// The layer tree the command line builds: a canvas, and on it the media "card" with the effects.
///
/// canvas (background) → container (transform, shadow, opacity) → card (contents, corners, border, mask).
/// The shadow sits on the container so that the card's `masksToBounds` does not cut it, as a Core Animation
/// user would build it; the container's shadow then follows the card's rounded, composited shape.
struct CardScene {
    struct Effects {
        var canvas: PixelSize
        var background: Color = .black
        var layerSize: PixelSize
        var gravity: ContentsGravity = .resizeAspect
        var rotateDegrees: Double = 0
        var axis = Axis(x: 0, y: 1, z: 0)
        var perspective: Double = 500
        /// Seconds per full turn; nil for no spin.
        var spinPeriod: Double?
        var cornerRadius: Double = 0
        var border: BorderSpec?
        var shadow: ShadowSpec?
        var mask: Image?
        var opacity: Double = 1
    }

    /// What the card shows.
    enum Media {
        case contents(LayerContents)
        case player(Player)
        /// Audio only: the sound drawn (waveform or spectrum, `w` switches), as ffplay shows it.
        case sound(AudioVisualizerLayer)
    }

    let root = Layer()
    let container = Layer()
    let card: Layer
    let effects: Effects
    /// The subtitles, over the whole canvas and above everything else, upright (not turned with the card).
    let subtitles: SubtitleLayer?

    init(media: Media, effects e: Effects, subtitles: SubtitleLayer? = nil) {
        effects = e
        self.subtitles = subtitles
        switch media {
        case .contents(let contents):
            card = Layer()
            card.contents = contents
            card.contentsGravity = e.gravity
        case .player(let player):
            let playerLayer = PlayerLayer(player: player)
            playerLayer.videoGravity = e.gravity
            card = playerLayer
        case .sound(let visualizer):
            card = visualizer
        }
        root.name = "canvas"
        root.backgroundColor = e.background
        container.name = "media-container"
        container.opacity = e.opacity
        if let s = e.shadow {
            container.shadowOpacity = s.opacity
            container.shadowRadius = s.radius
            container.shadowOffset = s.offset
            container.shadowColor = .black
        }
        root.addSublayer(container)

        card.name = "media"
        card.cornerRadius = e.cornerRadius
        card.masksToBounds = e.cornerRadius > 0
        if let b = e.border { card.borderWidth = b.width; card.borderColor = b.color }
        if let m = e.mask {
            let maskLayer = Layer()
            maskLayer.contents = .image(m)
            maskLayer.contentsGravity = .resize
            card.mask = maskLayer
        }
        layout(canvas: e.canvas, layerSize: e.layerSize)
        container.addSublayer(card)
        if let subtitles { root.addSublayer(subtitles) }
        applyTransform()
    }

    /// Sizes the canvas and centres the card of `layerSize` on it (again when a window is resized).
    func layout(canvas: PixelSize, layerSize: PixelSize) {
        root.bounds = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        root.position = Point(x: root.bounds.midX, y: root.bounds.midY)
        let cardBounds = Rect(x: 0, y: 0, width: Double(layerSize.width), height: Double(layerSize.height))
        container.bounds = cardBounds
        container.position = root.position
        card.bounds = cardBounds
        card.position = Point(x: cardBounds.midX, y: cardBounds.midY)
        card.mask?.frame = cardBounds
        subtitles?.frame = root.bounds
    }

    /// The container's model transform is the static tilt (--rotate) with perspective; --spin adds a
    /// `BasicAnimation` that turns it about the axis, linear, forever. It is evaluated at the snapshot's time:
    /// the player's clock in a window (it pauses with the video), the output time in an export.
    private func applyTransform() {
        let a = effects.axis
        container.transform = Transform3D.makeRotation(effects.rotateDegrees * .pi / 180, a.x, a.y, a.z)
            .concatenating(.makePerspective(distance: effects.perspective))
        guard let period = effects.spinPeriod, period > 0 else { return }
        let spin: BasicAnimation
        switch (a.x, a.y, a.z) {
        case (_, 0, 0) where a.x != 0: spin = BasicAnimation(keyPath: "transform.rotation.x")
        case (0, _, 0) where a.y != 0: spin = BasicAnimation(keyPath: "transform.rotation.y")
        case (0, 0, _) where a.z != 0: spin = BasicAnimation(keyPath: "transform.rotation.z")
        default: // any other axis: a value function on the whole transform
            spin = BasicAnimation(keyPath: "transform")
            spin.valueFunction = .rotate(axisX: a.x, axisY: a.y, axisZ: a.z)
        }
        // A negative component turns the other way about the principal axis, as the rotation matrix would.
        let sign = (a.x + a.y + a.z) < 0 && [a.x, a.y, a.z].filter({ $0 != 0 }).count == 1 ? -1.0 : 1.0
        spin.fromValue = 0.0
        spin.toValue = sign * 2 * .pi
        spin.duration = period
        spin.repeatCount = .infinity
        spin.isAdditive = true
        container.add(spin, forKey: "spin")
    }
}
