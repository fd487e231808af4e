import Foundation
import LayerGraphics
import Testing
import TestSupport

/// A transparent canvas exported with codecs that keep alpha (CLI.md "Alpha"). The card is opaque orange at
/// opacity 0.5 over a fully transparent canvas: straight alpha reads it back as orange (255, 128, 0) at alpha
/// 128. Written premultiplied without conversion, it would read back as (128, 64, 0): the dark fringe.
@Suite("layerplay alpha export")
struct AlphaExportCLITests {
    static let orange = Color(red: 1, green: 128.0 / 255, blue: 0, alpha: 1)

    /// Writes the orange card input and exports it over a transparent canvas (96×64, the card 48 wide in the middle).
    func export(_ extra: [String], to file: String, in dir: URL) -> RunResult {
        let card = Image(width: 32, height: 32) { px in for i in 0..<(32 * 32) { px[i] = word(Self.orange) } }
        _ = try? writePNG(card, "card.png", in: dir)
        return runLayerplay(["card.png", "--size", "96x64", "--layer-size", "48x64", "--gravity", "resize", "--opacity", "0.5",
                             "--background", "#00000000", "--duration", "0.2", "--fps", "10"] + extra + ["-o", file], in: dir)
    }

    /// The first frame decoded back by ffmpeg as straight RGBA bytes (`decoder`: ffmpeg's decoder to use, for VP9's alpha).
    func decodedRGBA(_ file: String, in dir: URL, decoder: [String] = []) throws -> [UInt8] {
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + decoder + ["-i", file, "-frames:v", "1",
                                            "-f", "rawvideo", "-pix_fmt", "rgba", "frame.rgba"], in: dir)
        return [UInt8](try Data(contentsOf: dir.appendingPathComponent("frame.rgba")))
    }

    /// Expects the card's middle to be orange at alpha 128 (straight) and the canvas's edge fully transparent.
    func expectStraightAlpha(_ rgba: [UInt8], _ what: String, tolerance: Int = 6, sourceLocation: SourceLocation = #_sourceLocation) {
        guard rgba.count == 96 * 64 * 4 else { Issue.record("\(what): \(rgba.count) bytes", sourceLocation: sourceLocation); return }
        func px(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(rgba[(y * 96 + x) * 4 + $0]) } }
        let middle = px(48, 32), edge = px(4, 32)
        let expected = [255, 128, 0, 128]
        #expect(zip(middle, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(what): the half-transparent card reads \(middle), straight \(expected)",
                sourceLocation: sourceLocation)
        #expect(edge[3] <= 2, "\(what): the transparent canvas reads \(edge)", sourceLocation: sourceLocation)
    }

    @Test func codecsWithAlphaKeepItStraight() throws {
        try withTemporaryDirectory { dir in
            // FFmpeg 5.1's ProRes decoder reports 4444 with alpha as 12-bit whatever was written (ffmpeg's own
            // `-pix_fmt yuva444p10le` encode probes so too): the profile says 4444.
            for (args, file, pixFmt) in [(["--codec", "prores_ks"], "p.mov", "yuva444p12le"), (["--codec", "ffv1"], "f.mkv", "bgra"),
                                         (["--codec", "qtrle"], "q.mov", "argb"), (["--codec", "png"], "png.mov", "rgba")] {
                let r = export(args, to: file, in: dir)
                expectSuccess(r)
                let video = probedStreams(try ffprobeJSON(file, in: dir), "video").first
                #expect(video?["pix_fmt"] as? String == pixFmt, "\(file): \(String(describing: video))")
                if file == "p.mov" { #expect(video?["profile"] as? String == "4444", "\(String(describing: video))") }
                expectStraightAlpha(try decodedRGBA(file, in: dir), file)
            }
        }
    }

    @Test func webmCarriesAnAlphaPlaneWithTheAlphaModeTag() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(export([], to: "a.webm", in: dir))
            let video = probedStreams(try ffprobeJSON("a.webm", in: dir), "video").first
            let tags = video?["tags"] as? [String: Any]
            #expect((tags?["alpha_mode"] ?? tags?["ALPHA_MODE"]) as? String == "1", "browsers need alpha_mode=1: \(String(describing: video))")
            // FFmpeg's own VP9 decoder drops the alpha plane; libvpx's reads it (as browsers do).
            expectStraightAlpha(try decodedRGBA("a.webm", in: dir, decoder: ["-c:v", "libvpx-vp9"]), "webm", tolerance: 8)
        }
    }

    @Test func pngAndWebpSequencesKeepAlpha() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(export([], to: "f_%02d.png", in: dir))
            expectStraightAlpha(try decodedRGBA("f_01.png", in: dir), "png sequence", tolerance: 1)
            expectSuccess(export([], to: "w_%02d.webp", in: dir))
            expectStraightAlpha(try decodedRGBA("w_01.webp", in: dir), "webp sequence", tolerance: 2)
        }
    }

    @Test func aSceneWithATransparentCanvasKeepsItsAlpha() throws {
        try withTemporaryDirectory { dir in
            let scene = ##"""
            {"version": "1.0", "canvas": {"size": "64x48", "fps": 10, "duration": 0.3, "background": "#00000000"},
             "layers": [{"type": "layer", "backgroundColor": "#ff000080", "frame": [16, 12, 32, 24]}]}
            """##
            try scene.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
            expectSuccess(runLayerplay(["t.json", "--codec", "ffv1", "-o", "t.mkv"], in: dir))
            let rgba = try decodedRGBA("t.mkv", in: dir)
            let middle = (0..<4).map { Int(rgba[(24 * 64 + 32) * 4 + $0]) }, corner = Int(rgba[3])
            #expect(zip(middle, [255, 0, 0, 128]).allSatisfy { abs($0 - $1) <= 3 } && corner == 0, "\(middle), corner alpha \(corner)")
        }
    }

    @Test func aCodecWithoutAlphaWarnsOnceAndPixFmtOverrides() throws {
        try withTemporaryDirectory { dir in
            let r = export([], to: "x.mp4", in: dir)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("layerplay: warning:") && r.stderr.contains("libx264"), "\(r)")
            // --pix-fmt says what the user wants: no alpha, no warning.
            expectSuccess(export(["--codec", "prores_ks", "--pix-fmt", "yuv422p10le"], to: "o.mov", in: dir))
            #expect(probedStreams(try ffprobeJSON("o.mov", in: dir), "video").first?["pix_fmt"] as? String == "yuv422p10le")
            // An opaque canvas keeps today's formats.
            let card = Image(width: 8, height: 8) { px in for i in 0..<64 { px[i] = word(.white) } }
            try writePNG(card, "white.png", in: dir)
            expectSuccess(runLayerplay(["white.png", "--duration", "0.2", "--codec", "prores_ks", "-o", "opaque.mov"], in: dir))
            #expect(probedStreams(try ffprobeJSON("opaque.mov", in: dir), "video").first?["pix_fmt"] as? String == "yuv422p10le")
        }
    }
}
