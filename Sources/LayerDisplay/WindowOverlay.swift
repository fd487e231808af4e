import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

/// The on-screen displays (the OSD, the notice, the statistics) drawn at the WINDOW's pixels, not the canvas's:
/// their layers live in a tree of their own, composited at the window's size into the window's overlay texture
/// whenever what they show changes, and every present copies that texture over the scaled picture. So a 320×180
/// clip in a 1280×720 window gets 1280×720-sharp text (issue 30 item 7), and the played tree (what `S` and `-o`
/// export) never holds them.
final class WindowOverlay {
    /// The part of the window the shown displays cover (its origin at theirs' top left corner).
    private let root = Layer()
    /// Where the canvas shows in the window (letterboxed): the displays are laid out in it.
    private let picture = Layer()
    /// What the overlay texture shows now (placement and each shown display's text and opacity).
    private var drawn: String?

    init() { root.addSublayer(picture) }

    /// Puts `display` in the overlay (`display.layer.removeFromSuperlayer()` takes it out).
    func add(_ display: OnScreenDisplay) {
        Transaction.withoutActions { picture.addSublayer(display.layer) }
    }

    /// Brings the window's overlay up to date with `displays` for a canvas of `canvas` pixels: laid out and drawn
    /// again only when the window's size, the text or the opacity of a shown display changed.
    func update(_ displays: [OnScreenDisplay], canvas: (width: Int, height: Int), window: Window) {
        let size = window.pixelSize
        let fit = window.fitted(canvasWidth: canvas.width, canvasHeight: canvas.height)
        let shown = (width: Int((Double(canvas.width) * fit.scale).rounded()), height: Int((Double(canvas.height) * fit.scale).rounded()))
        let visible = displays.filter { !$0.layer.isHidden }
        let key = "\(size) \(fit.x) \(fit.y) \(shown) " + visible.map { "\($0.layer.name ?? ""):\($0.layer.opacity):\($0.message ?? "")" }.joined(separator: "\u{1}")
        guard key != drawn else { return }
        drawn = key
        guard !visible.isEmpty else { return window.setOverlay(nil) }
        // At window pixels: the text a 22nd of the picture's height shown, and never under 16 pixels.
        Transaction.withoutActions {
            for display in displays { display.place(canvasWidth: shown.width, canvasHeight: shown.height) }
        }
        // Only the plates' part of the window is composited and uploaded (a 4K window's whole overlay, drawn again
        // each frame of a fade, would cost frames).
        let plates = visible.map(\.layer.frame)
        let x0 = max(0, Int((fit.x + plates.map(\.minX).min()!).rounded(.down)))
        let y0 = max(0, Int((fit.y + plates.map(\.minY).min()!).rounded(.down)))
        let x1 = min(size.width, Int((fit.x + plates.map(\.maxX).max()!).rounded(.up)))
        let y1 = min(size.height, Int((fit.y + plates.map(\.maxY).max()!).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return window.setOverlay(nil) }
        Transaction.withoutActions {
            root.frame = Rect(x: 0, y: 0, width: Double(x1 - x0), height: Double(y1 - y0))
            picture.frame = Rect(x: fit.x - Double(x0), y: fit.y - Double(y0), width: Double(shown.width), height: Double(shown.height))
        }
        window.setOverlay(Compositor().render(root.snapshot(), width: x1 - x0, height: y1 - y0), x: x0, y: y0)
    }
}
