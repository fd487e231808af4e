import Foundation
import LayerGraphics
import LayerKit

/// The short messages a playing window shows at its top left (position and length after a seek, the volume,
/// "Muted", "Paused"), as mpv's and ffplay's users expect: drawn with the project's own layers, a `TextLayer` on a
/// rounded translucent plate, at the window's pixels over the picture (`WindowOverlay`), not in the played tree
/// (a small clip's canvas scaled up would blur it, and exports must not show it). A message stays
/// 1.2 s and fades out over 0.3 s of wall time (also while paused); "Paused" stays while paused.
///
/// A second display of the same kind sits at the bottom left for notices that must be read, not glanced at: a
/// failed scene reload's error line stays 3 s (SCENES.md §8), wrapped to the canvas width.
public final class OnScreenDisplay {
    /// Where in the picture shown the plate sits.
    enum Corner { case topLeft, bottomLeft, topRight }

    /// The plate, in the session's `WindowOverlay`; hidden when nothing is shown.
    public let layer = Layer()
    let text = TextLayer()
    private var shownAt: Double?
    private var sticky = false
    private let corner: Corner
    /// Seconds a message stays fully opaque before it fades.
    private let hold: Double
    private var canvas = (width: 0, height: 0)
    static let fade = 0.3

    /// The top left display of seeks, volume and pause (messages stay 1.2 s, then fade over 0.3 s).
    public convenience init() { self.init(name: "osd", corner: .topLeft, hold: 1.2) }

    /// A display named `name` (the layer's name) at `corner` whose messages stay `hold` seconds before fading.
    init(name: String, corner: Corner, hold: Double) {
        self.corner = corner
        self.hold = hold
        layer.name = name
        layer.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.55)
        layer.isHidden = true
        text.foregroundColor = .white
        text.font = "Helvetica"
        layer.addSublayer(text)
    }

    /// The message shown (nil: none).
    public var message: String? {
        guard !layer.isHidden, case .plain(let s)? = text.string else { return nil }
        return s
    }

    /// Lays the plate out in its corner of the picture shown, `width` × `height` WINDOW pixels: text a 22nd of the
    /// height, and never under 16 pixels (a 320×180 clip's 8 px text was unreadable).
    func place(canvasWidth width: Int, canvasHeight height: Int) {
        canvas = (width, height)
        Transaction.withoutActions {
            text.fontSize = max(Self.smallestWindowText, Double(height) / 22)
            resize()
        }
    }

    /// The smallest text in window pixels.
    static let smallestWindowText = 16.0

    /// Shows `message` from wall time `now`; `sticky` keeps it until `hide()` (the pause).
    func show(_ message: String, at now: Double, sticky: Bool = false) {
        Transaction.withoutActions {
            text.string = .plain(message)
            resize()
            layer.opacity = 1
            layer.isHidden = false
        }
        shownAt = now
        self.sticky = sticky
    }

    func hide() {
        Transaction.withoutActions { layer.isHidden = true }
        shownAt = nil
        sticky = false
    }

    /// Fades the message by wall time `now`; true when the look changed (a paused window must draw again).
    func update(at now: Double) -> Bool {
        guard let shownAt, !sticky else { return false }
        let age = now - shownAt
        if age >= hold + Self.fade { hide(); return true }
        guard age > hold else { return false }
        Transaction.withoutActions { layer.opacity = 1 - (age - hold) / Self.fade }
        return true
    }

    /// Sizes the plate to its text, wrapped to the canvas width (an error line is often longer than the window is
    /// wide), and puts it in its corner.
    private func resize() {
        let pad = text.fontSize * 0.4, margin = text.fontSize * 0.6
        let widest = Double(canvas.width) - 2 * (margin + pad)
        text.isWrapped = widest > text.fontSize // before the first place(), or on a tiny canvas: one line
        if text.isWrapped { text.bounds = Rect(x: 0, y: 0, width: widest, height: 0) }
        let size = text.preferredFrameSize()
        text.frame = Rect(x: pad, y: pad * 0.5, width: ceil(size.width), height: ceil(size.height))
        layer.cornerRadius = pad * 0.6
        let plate = Size(width: ceil(size.width) + 2 * pad, height: ceil(size.height) + pad)
        let y = corner == .bottomLeft ? max(margin, Double(canvas.height) - margin - plate.height) : margin
        let x = corner == .topRight ? max(margin, Double(canvas.width) - margin - plate.width) : margin
        layer.frame = Rect(x: x, y: y, width: plate.width, height: plate.height)
    }

    /// "m:ss" (or "h:mm:ss") of `seconds`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds.isFinite ? seconds : 0).rounded(.down))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
