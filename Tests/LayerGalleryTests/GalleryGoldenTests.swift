import Foundation
import LayerGallery
import LayerGraphics
import Testing
import TestSupport

// Every figure of the gallery against References/gallery/NAME.png, strict: GoldenTolerance(2, 0). Each
// reference was looked at and compared with the book's figure before it was committed (README, Gallery).

/// The sample media of the package (clip.mp4 for the video face).
let mediaDirectory = (mediaSample("clip.mp4") as NSString).deletingLastPathComponent

/// Renders the figure called `name`; records an issue and returns nil when there is none or it throws.
func renderFigure(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Surface? {
    guard let figure = Gallery.figure(named: name) else {
        Issue.record("no figure called \(name)", sourceLocation: sourceLocation)
        return nil
    }
    do { return try figure.render(mediaDirectory: mediaDirectory) } catch {
        Issue.record("figure \(name) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("gallery goldens")
struct GalleryGoldenTests {
    @Test(arguments: Gallery.figures.map(\.name).filter { !fontDependentFigures.contains($0) }) // those: TextFigureTests
    func figureMatchesItsReference(_ name: String) throws {
        let surface = try #require(renderFigure(name))
        if let message = GoldenImage.compare(surface, area: "gallery", name: name, tolerance: .strict) {
            Issue.record(Comment(rawValue: message))
        }
    }

    @Test func figuresHaveDistinctNamesAndSmallCanvases() {
        let names = Gallery.figures.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count >= 11)
        for figure in Gallery.figures {
            #expect(figure.size.width <= 256 && figure.size.height <= 256, "\(figure.name) is \(figure.size)")
            #expect(!figure.title.isEmpty)
        }
    }
}
