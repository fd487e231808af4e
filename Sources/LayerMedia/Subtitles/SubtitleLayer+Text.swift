import LayerGraphics
import LayerKit

/// Text cues: white, wrapped to 90 % of the canvas width, centred at the bottom, in a size that follows the
/// canvas height, with a tight dark shadow that keeps them legible on any picture.
extension SubtitleLayer {
    /// The text size for a canvas `height` pixels tall: 5.5 % of it (59 px at 1080 lines), never below 10.
    static func fontSize(canvasHeight height: Double) -> Double { max(10, height * 0.055) }

    /// The gap between the text's last line and the canvas's bottom edge.
    static func bottomMargin(canvasHeight height: Double) -> Double { (height * 0.05).rounded() }

    func configureText() {
        textLayer.isWrapped = true
        textLayer.alignmentMode = .center
        textLayer.foregroundColor = .white
        textLayer.shadowColor = .black
        textLayer.shadowOpacity = 1
    }

    /// Shows `text` (hides the text layer when empty); lays it out again only when the text or the canvas changed.
    func showText(_ text: String, canvas: Rect) {
        guard !text.isEmpty else { textLayer.isHidden = true; return }
        if shownText?.text != text || shownText?.canvas != canvas.size {
            shownText = (text, canvas.size)
            let size = Self.fontSize(canvasHeight: canvas.height)
            let width = (canvas.width * 0.9).rounded()
            textLayer.fontSize = size
            textLayer.string = .plain(text)
            textLayer.bounds = Rect(x: 0, y: 0, width: width, height: canvas.height)
            let height = min(textLayer.preferredFrameSize().height.rounded(.up), canvas.height)
            textLayer.bounds = Rect(x: 0, y: 0, width: width, height: max(1, height))
            textLayer.position = Point(x: canvas.midX, y: canvas.maxY - Self.bottomMargin(canvasHeight: canvas.height) - height / 2)
            // An outline more than a drop shadow: close to the glyphs, slightly down.
            textLayer.shadowRadius = max(1, size / 16)
            textLayer.shadowOffset = Size(width: 0, height: max(1, size / 24))
        }
        textLayer.isHidden = false
    }
}
