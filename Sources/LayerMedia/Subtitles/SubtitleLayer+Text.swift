import Foundation
import LayerGraphics
import LayerKit

/// Text cues: white, wrapped to 90 % of the canvas width, centred at the bottom, in a size that follows the
/// canvas height, outlined in black (four copies nudged by a twentieth of the size) with a soft dark shadow, so
/// that they stay legible on white as on black.
extension SubtitleLayer {
    /// The text size for a canvas `height` pixels tall: 5.5 % of it (59 px at 1080 lines), never below 10.
    static func fontSize(canvasHeight height: Double) -> Double { max(10, height * 0.055) }

    /// The gap between the text's last line and the canvas's bottom edge.
    static func bottomMargin(canvasHeight height: Double) -> Double { (height * 0.05).rounded() }

    /// The outline's width for a text size.
    static func outlineWidth(fontSize: Double) -> Double { max(1, (fontSize / 20).rounded()) }

    func configureText() {
        for layer in outlineLayers + [textLayer] {
            layer.isWrapped = true
            layer.alignmentMode = .center
        }
        textLayer.foregroundColor = .white
        for outline in outlineLayers { outline.foregroundColor = .black }
        textGroup.shadowColor = .black
        textGroup.shadowOpacity = 0.8
    }

    /// Shows the runs (hides the text when there are none); lays them out again only when they or the canvas changed.
    func showText(_ spans: [SubtitleSpan], canvas: Rect) {
        guard !spans.isEmpty else { textGroup.isHidden = true; return }
        if shownText?.spans != spans || shownText?.canvas != canvas.size {
            shownText = (spans, canvas.size)
            let size = Self.fontSize(canvasHeight: canvas.height)
            let width = (canvas.width * 0.9).rounded()
            textLayer.fontSize = size
            textLayer.string = Self.text(spans, size: size, color: .white, font: textLayer.font)
            textLayer.bounds = Rect(x: 0, y: 0, width: width, height: canvas.height)
            let height = max(1, min(textLayer.preferredFrameSize().height, canvas.height))
            let box = Rect(x: 0, y: 0, width: width, height: height)
            textGroup.bounds = box
            textGroup.position = Point(x: canvas.midX, y: canvas.maxY - Self.bottomMargin(canvasHeight: canvas.height) - height / 2)
            textLayer.frame = box
            let d = Self.outlineWidth(fontSize: size)
            for (outline, offset) in zip(outlineLayers, [(-d, 0.0), (d, 0.0), (0.0, -d), (0.0, d)]) {
                outline.fontSize = size
                outline.string = Self.text(spans, size: size, color: .black, font: outline.font)
                outline.frame = box.offsetBy(dx: offset.0, dy: offset.1)
            }
            textGroup.shadowRadius = max(1, size / 12)
            textGroup.shadowOffset = Size(width: 0, height: max(1, size / 30))
        }
        textGroup.isHidden = false
    }

    /// Plain text when no run is styled; else an attributed string whose runs carry the whole look (an attributed
    /// run takes nothing from the layer's font, size or colour): `Helvetica-Oblique` for italic, `-Bold`, `-BoldOblique`.
    static func text(_ spans: [SubtitleSpan], size: Double, color: Color, font: String) -> TextLayer.Text {
        if spans.allSatisfy({ !$0.isItalic && !$0.isBold }) { return .plain(spans.map(\.text).joined()) }
        var text = AttributedString()
        for span in spans {
            var run = AttributedString(span.text)
            let suffix = span.isBold && span.isItalic ? "-BoldOblique" : span.isBold ? "-Bold" : span.isItalic ? "-Oblique" : ""
            run.font = font + suffix
            run.fontSize = size
            run.foregroundColor = color
            text += run
        }
        return .attributed(text)
    }
}
