import Foundation
import LayerGallery
import LayerGraphics
import Testing

// Figures 4.20 and 4.21 on their pixels (independently of the references, whose text depends on the font): the
// translucent button's label box shows without group opacity and disappears once the button is rasterized.

/// The largest channel difference between the translucent button's face (left of its label) and a point inside its
/// label's white box below the text: the label box as it shows over the button.
private func labelBoxContrast(_ s: Surface) -> Int {
    // Button 2's frame is (53, 91, 150, 50); its label's (73, 101, 110, 30); the text sits at the label's top.
    let face = s.pixel(x: 60, y: 116), box = s.pixel(x: 76, y: 129)
    return max(abs(Int(face.r) - Int(box.r)), abs(Int(face.g) - Int(box.g)), abs(Int(face.b) - Int(box.b)))
}

@Suite("group opacity figures")
struct GroupOpacityFigureTests {
    @Test func withoutGroupOpacityTheLabelBoxShows() throws {
        let s = try #require(renderFigure("4.20-group-opacity"))
        #expect(labelBoxContrast(s) > 15, "the label's white blends over the half-white button: a lighter box")
        // The opaque button shows no box: white on white.
        #expect(s.pixel(x: 60, y: 44) == s.pixel(x: 76, y: 57))
    }

    @Test func rasterizedTheButtonFadesAsOneImage() throws {
        let s = try #require(renderFigure("4.21-rasterize"))
        #expect(labelBoxContrast(s) <= 2, "one image faded evenly: no box")
        // And it is translucent: the face is between the grey screen and white.
        let face = s.pixel(x: 60, y: 116), screen = s.pixel(x: 10, y: 116)
        #expect(Int(face.r) > Int(screen.r) + 20 && face.r < 250)
    }
}
