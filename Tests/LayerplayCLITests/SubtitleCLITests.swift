import Foundation
import LayerGraphics
import Testing
import TestSupport

// `--subtitles`, `--no-subtitles` and subtitle streams in exports, end to end (CLI.md, "Subtitles").

/// Pixels of the rows `rows` that differ between two frames.
private func differing(_ a: Image, _ b: Image, rows: Range<Int>) -> Int {
    var n = 0
    for y in rows { for x in 0..<min(a.width, b.width) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
    return n
}

@Suite("layerplay subtitles")
struct SubtitleCLITests {
    /// Cue 1 is 0.5–1.0 s, cue 2 1.0–1.5 s; at 10 frames/s frame i is at i/10 s: frames 5–9 show cue 1, 10–14 cue 2.
    @Test func aBurntInCueCoversExactlyTheFramesOfItsTime() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let r = runLayerplay([f.greyMP4, "--subtitles", f.srt, "-o", f.path("f_%02d.png")], in: f.directory, timeout: 120)
        expectSuccess(r)
        let frames = (1...20).compactMap { readPNG(URL(fileURLWithPath: f.path(String(format: "f_%02d.png", $0)))) }
        try #require(frames.count == 20, "20 frames of 2 s at 10 frames/s")
        let bottom = 150..<240
        // The pictures under the subtitles are all the same grey: any difference is a subtitle.
        for i in [0, 4, 15, 19] { #expect(differing(frames[i], frames[0], rows: bottom) == 0, "frame \(i) (\(Double(i) / 10) s) shows no cue") }
        #expect(differing(frames[5], frames[4], rows: bottom) > 50, "frame 5 (0.5 s) shows cue 1")
        for i in 6...9 { #expect(differing(frames[i], frames[5], rows: bottom) == 0, "frame \(i) shows cue 1 as frame 5") }
        #expect(differing(frames[10], frames[9], rows: bottom) > 50, "frame 10 (1.0 s) shows cue 2, not cue 1")
        for i in 11...14 { #expect(differing(frames[i], frames[10], rows: bottom) == 0, "frame \(i) shows cue 2 as frame 10") }
    }

    /// A movie whose frames are the input's pictures as they are is encoded without compositing: a cue must still
    /// be burnt into the frames of its time, and only those.
    @Test func aCueIsBurntIntoAPlainTranscode() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        expectSuccess(runLayerplay([f.greyMP4, "--subtitles", f.srt, "-o", "burnt.mp4"], in: f.directory, timeout: 120))
        try f.ffmpeg(["-i", "burnt.mp4", "-vf", "select=eq(n\\,4)+eq(n\\,5)+eq(n\\,15)", "-vsync", "0", "n_%d.png"])
        guard let before = readPNG(URL(fileURLWithPath: f.path("n_1.png"))), let during = readPNG(URL(fileURLWithPath: f.path("n_2.png"))),
              let after = readPNG(URL(fileURLWithPath: f.path("n_3.png"))) else { return }
        func strongly(_ a: Image, _ b: Image) -> Int {
            var n = 0
            for y in 150..<240 { for x in 0..<320 where abs(Int(a.pixel(x: x, y: y).g) - Int(b.pixel(x: x, y: y).g)) > 40 { n += 1 } }
            return n
        }
        #expect(strongly(before, during) > 50, "frame 5 (0.5 s) has cue 1, frame 4 none")
        #expect(strongly(before, after) == 0, "frame 15 (1.5 s) has none")
    }

    @Test func anEmbeddedStreamByNumberIsBurntInAndASSKeepsItsPlaceAndColour() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let plain = runLayerplay([f.assMKV, "--at", "0.7", "-o", "plain.png"], in: f.directory)
        let burnt = runLayerplay([f.assMKV, "--subtitles", "0", "--at", "0.7", "-o", "burnt.png"], in: f.directory)
        expectSuccess(plain); expectSuccess(burnt)
        guard let a = readPNG(f.directory.appendingPathComponent("plain.png")),
              let b = readPNG(f.directory.appendingPathComponent("burnt.png")) else { return }
        #expect(differing(a, b, rows: 0..<25) == 0, "nothing above \\pos(40,30)")
        #expect(differing(a, b, rows: 25..<80) > 50, "RED at \\pos(40,30)")
        #expect(differing(a, b, rows: 80..<240) == 0)
        var red = 0
        for y in 25..<80 { for x in 0..<320 { let p = b.pixel(x: x, y: y); if p.r > 240 && p.g < 20 && p.b < 20 { red += 1 } } }
        #expect(red > 30, "the style's colour is red")
    }

    @Test func aMissingFontFallsBackWithoutAWord() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let r = runLayerplay([f.greyMP4, "--subtitles", f.ass, "--at", "1.2", "-o", "green.png"], in: f.directory)
        expectSuccess(r)
        guard let out = readPNG(f.directory.appendingPathComponent("green.png")) else { return }
        var green = 0
        for y in 140..<200 { for x in 0..<320 { let p = out.pixel(x: x, y: y); if p.g > 240 && p.r < 20 && p.b < 20 { green += 1 } } }
        #expect(green > 30, "GREEN in a fallback font at \\pos(40,150)")
    }

    @Test func aMalformedFileWarnsOnceAndTheGoodCuesShow() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        let plain = runLayerplay([f.greyMP4, "--at", "1.2", "-o", "plain.png"], in: f.directory)
        let r = runLayerplay([f.greyMP4, "--subtitles", f.malformedSRT, "--at", "1.2", "-o", "good.png"], in: f.directory)
        expectSuccess(plain)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderrLines.first?.hasPrefix("layerplay: warning:") == true, "one warning line; \(r)")
        guard let a = readPNG(f.directory.appendingPathComponent("plain.png")),
              let b = readPNG(f.directory.appendingPathComponent("good.png")) else { return }
        #expect(differing(a, b, rows: 150..<240) > 50, "'Good two' shows at 1.2 s")
    }

    @Test func subtitleStreamsAreCarriedIntoContainersThatTakeThem() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        for (input, output, codec) in [(f.assMKV, "out.mkv", "ass"), (f.movTextMP4, "out.mp4", "mov_text"),
                                       (f.assMKV, "fromass.mp4", "mov_text"), (f.movTextMP4, "out.webm", "webvtt")] {
            let r = runLayerplay([input, "-o", output], in: f.directory, timeout: 120)
            expectSuccess(r)
            let streams = try f.streams(of: f.path(output))
            #expect(streams.contains("subtitle:\(codec)"), "\(output) from \(input): \(streams)")
        }
        // The cue times survive the trip.
        let back = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-i", "out.mp4", "-map", "0:s", "-f", "srt", "-"], in: f.directory)
        #expect(back.contains("00:00:00,500 --> 00:00:01,000") && back.contains("00:00:01,000 --> 00:00:01,500"), "\(back)")
        // Burnt in or --no-subtitles: no stream.
        for extra in [["--subtitles", "0"], ["--no-subtitles"]] {
            let r = runLayerplay([f.movTextMP4, "-y", "-o", "out.mp4"] + extra, in: f.directory, timeout: 120)
            expectSuccess(r)
            #expect(try !f.streams(of: f.path("out.mp4")).contains { $0.hasPrefix("subtitle") }, "\(extra)")
        }
    }

    /// From 0.8 s for 1 s: cue 1 (0.5–1.0 s) is cut to 0–0.2 s, cue 2 (1.0–1.5 s) moves to 0.2–0.7 s.
    @Test func carriedCuesFollowTheExportedRange() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        expectSuccess(runLayerplay([f.movTextMP4, "--start", "0.8", "--duration", "1", "-o", "part.mkv"], in: f.directory, timeout: 120))
        let cues = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-i", "part.mkv", "-map", "0:s", "-f", "srt", "-"], in: f.directory)
        #expect(cues.contains("00:00:00,000 --> 00:00:00,200\nFirst") && cues.contains("00:00:00,200 --> 00:00:00,700\nSecond"), "\(cues)")
    }

    @Test func aContainerWithoutSubtitlesDropsThemWithOneWarning() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        // MPEG-TS would take anything as an opaque data stream: that is no subtitle either.
        for output in ["out.avi", "out.ts"] {
            let r = runLayerplay([f.assMKV, "-o", output], in: f.directory, timeout: 120)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderrLines.count == 1 && r.stderrLines.first?.hasPrefix("layerplay: warning:") == true, "one warning line; \(r)")
            let streams = try f.streams(of: f.path(output))
            #expect(streams.contains { $0.hasPrefix("video") } && !streams.contains { $0.hasPrefix("subtitle") || $0.hasPrefix("data") },
                    "\(output): \(streams)")
        }
    }

    @Test func badSubtitleArgumentsFailWithOneLine() throws {
        let f = try SubtitleFixtures()
        defer { f.remove() }
        expectRunFailure(runLayerplay([f.greyMP4, "--subtitles", "missing.srt", "-o", "a.mp4"], in: f.directory),
                         absentOutput: f.directory.appendingPathComponent("a.mp4"), mentions: ["missing.srt"])
        expectRunFailure(runLayerplay([f.greyMP4, "--subtitles", f.greyMP4, "-o", "b.mp4"], in: f.directory),
                         absentOutput: f.directory.appendingPathComponent("b.mp4"), mentions: [".srt"])
        expectRunFailure(runLayerplay([f.movTextMP4, "--subtitles", "3", "-o", "c.mp4"], in: f.directory),
                         absentOutput: f.directory.appendingPathComponent("c.mp4"), mentions: ["subtitle stream 3"])
        expectUsageError(runLayerplay([f.greyMP4, "--subtitles", f.srt, "--no-subtitles", "-o", "d.mp4"], in: f.directory),
                         absentOutput: f.directory.appendingPathComponent("d.mp4"))
        // The subtitle file is an input: never an output.
        expectRunFailure(runLayerplay([f.greyMP4, "--subtitles", f.srt, "-y", "-o", f.srt], in: f.directory), mentions: ["--subtitles"])
    }
}
