import Foundation
import LayerGraphics
import LayerKit

/// The short messages a playing window shows at its top left (position and length after a seek, the volume,
/// "Muted", "Paused"), as mpv's and ffplay's users expect: drawn with the project's own layers, a `TextLayer` on a
/// rounded translucent plate, in the played tree, so that what a user sees is what the tests see. A message stays
/// 1.2 s and fades out over 0.3 s of wall time (also while paused); "Paused" stays while paused.
public final class OnScreenDisplay {
    /// The plate, added as the tree's last sublayer; hidden when nothing is shown.
    public let layer = Layer()
    let text = TextLayer()
    private var shownAt: Double?
    private var sticky = false
    static let hold = 1.2, fade = 0.3

    public init() {
        layer.name = "osd"
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

    /// Lays the plate out for a canvas of `height` pixels at the top left (text a 22nd of the height).
    func place(canvasHeight height: Int) {
        Transaction.withoutActions {
            text.fontSize = max(10, Double(height) / 22)
            resize()
        }
    }

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
        if age >= Self.hold + Self.fade { hide(); return true }
        guard age > Self.hold else { return false }
        Transaction.withoutActions { layer.opacity = 1 - (age - Self.hold) / Self.fade }
        return true
    }

    private func resize() {
        let size = text.preferredFrameSize()
        let pad = text.fontSize * 0.4
        text.frame = Rect(x: pad, y: pad * 0.5, width: ceil(size.width), height: ceil(size.height))
        layer.cornerRadius = pad * 0.6
        layer.frame = Rect(x: text.fontSize * 0.6, y: text.fontSize * 0.6, width: ceil(size.width) + 2 * pad, height: ceil(size.height) + pad)
    }

    /// "m:ss" (or "h:mm:ss") of `seconds`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds.isFinite ? seconds : 0).rounded(.down))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
