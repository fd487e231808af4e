import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
@testable import LayerMedia
import Testing
import TestSupport

/// A grey canvas of `width`×`height` with `subtitles` over it, as the card scene stacks them.
private func canvas(_ subtitles: SubtitleLayer, width: Int = 320, height: Int = 240) -> Layer {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    root.position = Point(x: root.bounds.midX, y: root.bounds.midY)
    root.backgroundColor = Color(white: 0.5)
    subtitles.frame = root.bounds
    root.addSublayer(subtitles)
    return root
}

/// Pixels of `rect` that differ from the plain grey canvas.
private func changedPixels(_ surface: Surface, in rect: (x: Range<Int>, y: Range<Int>)) -> Int {
    let grey = surface.pixel(x: 0, y: 0)
    var count = 0
    for y in rect.y { for x in rect.x where surface.pixel(x: x, y: y) != grey { count += 1 } }
    return count
}

@Suite("Subtitles: tracks, cues, libass, the layer")
struct SubtitleTests {
    // MARK: The model

    @Test func cueTimesAreStartInclusiveEndExclusiveToTheMillisecond() {
        let cue = SubtitleCue(start: 1000, end: 2500, text: "x", assEvent: "")
        #expect(!cue.covers(SubtitleTrack.millisecond(at: 0.999)))
        #expect(cue.covers(SubtitleTrack.millisecond(at: 1.0)))
        // A frame time computed as 30 × (1/30) lands a hair below 1.0: still in the cue.
        #expect(cue.covers(SubtitleTrack.millisecond(at: 0.9999999999)))
        #expect(cue.covers(SubtitleTrack.millisecond(at: 2.4999)))
        #expect(!cue.covers(SubtitleTrack.millisecond(at: 2.5)))
        // Hostile times are clamped, never a trap.
        _ = SubtitleTrack.millisecond(at: .nan)
        _ = SubtitleTrack.millisecond(at: 1e300)
        _ = SubtitleTrack.millisecond(at: -.infinity)
    }

    @Test func assMarkupNeverShowsAsText() {
        let event = #"3,0,Default,,0,0,0,,{\i1}Hello{\i0},\Nworld{\pos(10,20)\c&HFF&}!\hend"#
        #expect(SubtitleTrack.plainText(ofEvent: event) == "Hello,\nworld! end")
        #expect(SubtitleTrack.plainText(ofEvent: "0,0,Default,,0,0,0,,{unclosed") == "")
    }

    @Test func italicAndBoldBecomeRunsOtherTagsAreDropped() {
        let event = #"0,0,Default,,0,0,0,, Plain {\b1}bold{\b0} {\i1\c&H00FF00&}italic {\b700}both{\r}\Nend{\bord3\blur2} "#
        #expect(SubtitleTrack.spans(ofEvent: event) == [
            SubtitleSpan(text: "Plain "), SubtitleSpan(text: "bold", isBold: true), SubtitleSpan(text: " "),
            SubtitleSpan(text: "italic ", isItalic: true), SubtitleSpan(text: "both", isItalic: true, isBold: true),
            SubtitleSpan(text: "\nend"),
        ])
        #expect(SubtitleTrack.spans(ofEvent: event).map(\.text).joined() == SubtitleTrack.plainText(ofEvent: event))
        #expect(SubtitleTrack.spans(ofEvent: "0,0,Default,,0,0,0,, {\\i1} ").isEmpty)
    }

    @Test func italicRunsDrawInAnotherFace() {
        func render(_ spans: [SubtitleSpan]) -> Image {
            let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "", cues: [
                SubtitleCue(start: 0, end: 1000, text: spans.map(\.text).joined(), assEvent: "", spans: spans),
            ])
            return Compositor(threads: 1).render(canvas(SubtitleLayer(tracks: [track])).snapshot(at: 0.5), width: 320, height: 240).makeImage()
        }
        let plain = render([SubtitleSpan(text: "Plain "), SubtitleSpan(text: "slanted")])
        let italic = render([SubtitleSpan(text: "Plain "), SubtitleSpan(text: "slanted", isItalic: true)])
        #expect(!samePixels(plain, italic))
        #expect(samePixels(plain, render([SubtitleSpan(text: "Plain slanted")])), "unstyled runs are the plain text")
    }

    @Test func overlappingCuesAreAllFound() {
        let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "", cues: [
            SubtitleCue(start: 0, end: 10_000, text: "long", assEvent: ""),
            SubtitleCue(start: 2000, end: 3000, text: "short", assEvent: ""),
            SubtitleCue(start: 5000, end: 6000, text: "later", assEvent: ""),
        ])
        #expect(track.cues(at: 2.5).map(\.text) == ["long", "short"])
        #expect(track.cues(at: 3.0).map(\.text) == ["long"])
        #expect(track.cues(at: 11).isEmpty)
    }

    @Test func theCuesAtATimeAreThoseABruteForceScanFinds() {
        var random = SplitMix(state: 17)
        let cues = (0..<500).map { i -> SubtitleCue in
            let start = Int64.random(in: 0..<100_000, using: &random)
            let length = Int64.random(in: 1..<(i % 50 == 0 ? 30_000 : 3000), using: &random)
            return SubtitleCue(start: start, end: start + length, text: "\(i)", assEvent: "")
        }
        let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "", cues: cues)
        for _ in 0..<300 {
            let t = Double.random(in: -1...110, using: &random)
            let ms = SubtitleTrack.millisecond(at: t)
            let expected = Set(cues.filter { $0.covers(ms) }.map(\.text))
            #expect(Set(track.cues(at: t).map(\.text)) == expected, "at \(t) s")
        }
    }

    // MARK: t

    @Test func tCyclesThroughTheTracksThenNoneThenTheFirst() {
        var s = SubtitleSelection(trackCount: 3)
        var seen: [Int?] = [s.current]
        for _ in 0..<5 { s.cycle(); seen.append(s.current) }
        #expect(seen == [0, 1, 2, nil, 0, 1])
        var off = SubtitleSelection(trackCount: 2, current: nil) // --no-subtitles
        #expect(off.current == nil)
        off.cycle()
        #expect(off.current == 0)
        var none = SubtitleSelection(trackCount: 0)
        #expect(none.current == nil)
        none.cycle()
        #expect(none.current == nil)
        #expect(SubtitleSelection(trackCount: 2, current: 7).current == nil)
    }

    // MARK: Reading

    @Test func filesAndEmbeddedStreamsReadIntoCues() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let srt = try SubtitleReader.track(file: f.srt)
        #expect(srt.kind == .text)
        #expect(srt.cues.map(\.start) == [500, 1000] && srt.cues.map(\.end) == [1000, 1500])
        #expect(srt.cues.map(\.text) == ["First cue", "Second cue"], "italics are markup, not text")
        #expect(srt.cues.first?.spans == [SubtitleSpan(text: "First "), SubtitleSpan(text: "cue", isItalic: true)])
        let ass = try SubtitleReader.track(file: f.ass)
        #expect(ass.kind == .ass && ass.assHeader.contains("Style: Red"))
        #expect(ass.cues.map(\.start) == [500, 1000] && ass.cues.map(\.text) == ["RED", "GREEN"])

        let mp4 = try SubtitleReader.tracks(in: f.movTextMP4)
        #expect(mp4.map(\.codec) == ["mov_text"] && mp4.first?.cues.map(\.start) == [500, 1000])
        #expect(mp4.first?.cues.map(\.end) == [1000, 1500])
        let mkv = try SubtitleReader.tracks(in: f.assMKV)
        #expect(mkv.map(\.kind) == [.ass] && mkv.first?.cues.map(\.text) == ["RED", "GREEN"])
        #expect(try SubtitleReader.tracks(in: f.greyMP4).isEmpty)
    }

    @Test func malformedCuesAreSkippedAndCountedTheGoodOnesKept() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let track = try SubtitleReader.track(file: f.malformedSRT)
        #expect(track.cues.map(\.text) == ["Good one", "Good two"])
        #expect(track.cues.map(\.start) == [500, 1000])
        #expect(track.skippedCues == 2)
    }

    @Test func wrongFilesAreRefusedWithAReason() throws {
        #expect(throws: MediaError.self) { try SubtitleReader.track(file: "/nonexistent/x.srt") }
        #expect(throws: MediaError.self) { try SubtitleReader.track(file: "/etc/hostname") } // not a subtitle extension
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let empty = f.path("empty.srt")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: MediaError.self) { try SubtitleReader.track(file: empty) }
    }

    @Test func garbageFilesNeverTrap() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        var random = SplitMix(state: 4711)
        for (i, ext) in ["srt", "ass", "ssa", "vtt"].enumerated() {
            for length in [1, 100, 5000] {
                let path = f.path("garbage\(i)-\(length).\(ext)")
                _ = FileManager.default.createFile(atPath: path, contents: Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }))
                if let track = try? SubtitleReader.track(file: path) {
                    _ = track.cues(at: 1)
                    let layer = SubtitleLayer(tracks: [track])
                    let root = canvas(layer)
                    _ = root.snapshot(at: 0.5)
                }
            }
        }
        // A header and events libass cannot make sense of, times out of any range.
        let nonsense = SubtitleTrack(kind: .ass, codec: "ass", assHeader: "[Script Info]\nPlayResX: -5\nPlayResY: 99999999999\n[V4+ Styles]\nFormat: Name\nStyle: ,,,,", cues: [
            SubtitleCue(start: -5000, end: Int64.max / 2, text: "", assEvent: "x,y,{\\pos(1e30,nan)\\fs1e9}huge"),
            SubtitleCue(start: 0, end: 1, text: "", assEvent: ""),
        ])
        let root = canvas(SubtitleLayer(tracks: [nonsense]))
        _ = Compositor(threads: 1).render(root.snapshot(at: 0), width: 320, height: 240)
    }

    // MARK: libass

    @Test func assDrawsAtItsPositionInItsStyleColour() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let track = try SubtitleReader.track(file: f.ass)
        let renderer = try #require(AssRenderer(track))
        let red = try #require(renderer.frame(width: 320, height: 240, at: 700))
        // \pos(40,30) with top-left alignment: the text's box starts there (glyph bearings add a few pixels).
        #expect((38...50).contains(red.origin.x) && (28...45).contains(red.origin.y), "origin \(red.origin)")
        var reddest = PremultipliedColor.clear
        for y in 0..<red.image.height { for x in 0..<red.image.width where red.image.pixel(x: x, y: y).a == 255 { reddest = red.image.pixel(x: x, y: y) } }
        #expect(reddest.r == 255 && reddest.g == 0 && reddest.b == 0, "the style's colour &H000000FF is red; got \(reddest)")
        // No change between two times of one cue: the same picture, not composited again.
        let again = try #require(renderer.frame(width: 320, height: 240, at: 800))
        #expect(again.image === red.image)
        // Nothing before the first cue.
        #expect(renderer.frame(width: 320, height: 240, at: 100) == nil)
    }

    @Test func aMissingFontFallsBackAndStillDraws() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let renderer = try #require(AssRenderer(try SubtitleReader.track(file: f.ass)))
        let green = try #require(renderer.frame(width: 320, height: 240, at: 1200))
        #expect((140...170).contains(green.origin.y), "\\pos(40,150): origin \(green.origin)")
        var hasGreen = false
        for y in 0..<green.image.height { for x in 0..<green.image.width {
            let p = green.image.pixel(x: x, y: y)
            if p.a == 255 && p.g == 255 && p.r == 0 { hasGreen = true }
        } }
        #expect(hasGreen)
    }

    // MARK: The layer

    @Test func theLayerShowsExactlyTheCuesOfEachSnapshotsTime() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let subtitles = SubtitleLayer(tracks: [try SubtitleReader.track(file: f.srt), try SubtitleReader.track(file: f.ass)])
        let root = canvas(subtitles)
        let compositor = Compositor(threads: 1)
        let bottom = (x: 0..<320, y: 160..<240), top = (x: 0..<160, y: 0..<100)
        func frame(_ t: Double) -> Surface { compositor.render(root.snapshot(at: t), width: 320, height: 240) }
        #expect(changedPixels(frame(0.4), in: bottom) == 0)
        let first = frame(0.5), firstLate = frame(0.9), second = frame(1.0), after = frame(1.5)
        #expect(changedPixels(first, in: bottom) > 50, "the first cue shows from 0.5 s")
        #expect(samePixels(first.makeImage(), firstLate.makeImage()), "one cue: the same pixels all along")
        #expect(!samePixels(firstLate.makeImage(), second.makeImage()), "the second cue replaces it at 1.0 s")
        #expect(changedPixels(after, in: bottom) == 0, "nothing at 1.5 s, the end")

        subtitles.cycleTracks() // t: the ASS track
        let ass = frame(0.7)
        #expect(changedPixels(ass, in: top) > 50 && changedPixels(ass, in: bottom) == 0)
        subtitles.cycleTracks() // t: none
        #expect(changedPixels(frame(0.7), in: (x: 0..<320, y: 0..<240)) == 0)
    }

    @Test func hostileSizesDrawNothingAndNeverTrap() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let subtitles = SubtitleLayer(tracks: [try SubtitleReader.track(file: f.ass), try SubtitleReader.track(file: f.srt)])
        let root = canvas(subtitles)
        for bounds in [Rect(x: 0, y: 0, width: 0, height: 0), Rect(x: 0, y: 0, width: .nan, height: 10),
                       Rect(x: 0, y: 0, width: 1e9, height: 1e9), Rect(x: 0, y: 0, width: 1, height: 1)] {
            subtitles.bounds = bounds
            _ = root.snapshot(at: 0.7)
            subtitles.cycleTracks()
            _ = root.snapshot(at: 0.7)
            subtitles.cycleTracks(); subtitles.cycleTracks()
        }
    }
}

private func samePixels(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    return a.withUnsafePixels { pa in b.withUnsafePixels { pb in pa.elementsEqual(pb) } }
}
