import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

/// What subtitles look like over a picture: a text cue wrapped at the bottom centre (Helvetica = Nimbus Sans
/// through fontconfig), and an ASS track's styled, positioned cues drawn by libass (DejaVu Sans, and a font no
/// machine has in fontconfig's fallback). Glyph edges may differ by a few levels between FreeType builds.
@Suite("Subtitle goldens")
struct SubtitleGoldenTests {
    static let tolerance = GoldenTolerance(maxChannelDifference: 12, maxDifferingPixels: 60)

    /// A 256×144 canvas: white on its left half, dark blue on the right, so that the legibility of white text
    /// over white shows; `subtitles` over it.
    func render(_ subtitles: SubtitleLayer, at time: Double) -> Surface {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 256, height: 144)
        root.position = Point(x: 128, y: 72)
        root.backgroundColor = Color(red: 0.1, green: 0.15, blue: 0.35)
        let white = Layer()
        white.frame = Rect(x: 0, y: 0, width: 128, height: 144)
        white.backgroundColor = .white
        root.addSublayer(white)
        subtitles.frame = root.bounds
        root.addSublayer(subtitles)
        return Compositor(threads: 1).render(root.snapshot(at: time), width: 256, height: 144)
    }

    @Test func aTextCueWrapsAtTheBottomCentreWithAShadow() throws {
        let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "", cues: [
            SubtitleCue(start: 0, end: 2000, text: "A subtitle cue that is long enough to wrap onto a second line", assEvent: ""),
        ])
        let surface = render(SubtitleLayer(tracks: [track]), at: 1)
        if let message = GoldenImage.compare(surface, area: "subtitles", name: "text-cue", tolerance: Self.tolerance) {
            Issue.record(Comment(rawValue: message))
        }
    }

    @Test func assCuesKeepTheirStylesAndPositions() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let track = try SubtitleReader.track(file: f.ass)
        // Both cues at once: the same events, made to overlap.
        var both = track
        both.cues = track.cues.map { var c = $0; c.start = 0; c.end = 2000; return c }
        let surface = render(SubtitleLayer(tracks: [SubtitleTrack(kind: .ass, codec: "ass", assHeader: track.assHeader, cues: both.cues)]), at: 1)
        if let message = GoldenImage.compare(surface, area: "subtitles", name: "ass-cues", tolerance: Self.tolerance) {
            Issue.record(Comment(rawValue: message))
        }
    }
}
