import Foundation
import LayerGallery
import LayerGraphics
import Testing
import TestSupport

// The text figures (6.2, 6.3) against their references, only where "Helvetica" is the font they were recorded with.

/// Figures whose pixels depend on which font fontconfig picks for "Helvetica"; the generic golden test leaves them out.
let fontDependentFigures: Set<String> = ["6.2-text-layer-scale", "6.3-attributed-text",
                                          "4.20-group-opacity", "4.21-rasterize"]

@Suite("text figures")
struct TextFigureTests {
    @Test(.enabled(if: helveticaIsNimbusSans, Comment(rawValue: helveticaSkipReason)), arguments: fontDependentFigures.sorted())
    func textFigureMatchesItsReference(_ name: String) throws {
        #expect(helveticaFontFile == "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")
        let surface = try #require(renderFigure(name))
        if let message = GoldenImage.compare(surface, area: "gallery", name: name, tolerance: .strict) {
            Issue.record(Comment(rawValue: message))
        }
    }

    /// Contents scale 1 under a 2× magnification is soft: fewer pixels reach full black than at scale 2.
    @Test func theMagnifiedLabelIsSharpOnlyAtContentsScaleTwo() throws {
        let surface = try #require(renderFigure("6.2-text-layer-scale"))
        func darkPixels(_ rows: Range<Int>) -> Int {
            rows.reduce(0) { count, y in count + (0..<surface.width).filter { surface.pixel(x: $0, y: y).r < 40 }.count }
        }
        let soft = darkPixels(12..<124), sharp = darkPixels(136..<248)
        #expect(soft > 0 && sharp > soft * 3 / 2, "dark pixels: \(soft) at scale 1, \(sharp) at scale 2")
    }
}
