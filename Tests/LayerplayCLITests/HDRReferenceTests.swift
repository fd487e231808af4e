import Foundation
import LayerGraphics
import Testing
import TestSupport

/// HDR patch clips (PQ and HLG) rendered by layerplay — a still and an exported movie's frame — against
/// FFmpeg's libplacebo filter (`HDRPatchClip.reference`), which no one here wrote.
///
/// Tolerance (`HDRPatchClip.disagreements`; 8-bit sRGB-encoded codes, 8×8 means at the patch centres): greys ±2.
/// Colours ±6 on every channel the reference shows above 48. Below that — the zero channels of saturated colours — libplacebo's default tone
/// mapping (its "hybrid" mode mixes per-channel mapping in) lifts them to 20–35 (desaturating bright primaries and
/// secondaries), where we tone-map one intensity and keep hue (issue 27): there ours may be up to 40 lower, never
/// more than 2 higher (at least as saturated). The exported frame goes through 4:2:0, the encoder's matrix and
/// ffmpeg's decoding once more: one code more everywhere.
@Suite("HDR against libplacebo", .serialized)
struct HDRReferenceTests {
    @Test(arguments: HDRPatchClip.Kind.hdr)
    func stillAgreesWithLibplacebo(_ kind: HDRPatchClip.Kind) throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(kind, in: dir)
            let reference = try clip.reference(in: dir)
            let r = runLayerplay([clip.path, "-o", "still.png"], in: dir)
            expectSuccess(r)
            let still = try #require(readPNG(dir.appendingPathComponent("still.png")))
            #expect(still.width == HDRPatchClip.width && still.height == HDRPatchClip.height)
            compare(rgbRows(of: still), with: reference, slack: 0, what: "\(kind) still")
        }
    }

    @Test(arguments: HDRPatchClip.Kind.hdr)
    func exportedFrameAgreesWithLibplacebo(_ kind: HDRPatchClip.Kind) throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(kind, in: dir)
            let reference = try clip.reference(in: dir)
            let r = runLayerplay([clip.path, "--codec", "libx264", "--crf", "0", "-o", "out.mp4"], in: dir)
            expectSuccess(r)
            let frame = try HDRPatchClip.firstFrameRGB(of: "out.mp4", in: dir)
            compare(frame, with: reference, slack: 1, what: "\(kind) export")
        }
    }

    @Test(arguments: HDRPatchClip.Kind.hdr)
    func probeReportsTheTransferAndSideData(_ kind: HDRPatchClip.Kind) throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(kind, in: dir)
            let r = runLayerplay(["probe", clip.path], in: dir)
            expectSuccess(r)
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let video = try #require(object?["video"] as? [String: Any])
            #expect(video["color_transfer"] as? String == (kind == .pq ? "smpte2084" : "arib-std-b67"))
            #expect(video["color_primaries"] as? String == "bt2020")
            let frame = try #require(video["frame_color"] as? [String: Any])
            #expect(frame["transfer"] as? String == kind.rawValue)
            #expect(frame["primaries"] as? String == "bt2020")
            #expect(frame["matrix"] as? String == "bt2020")
            #expect(frame["converted_for_display"] as? Bool == true)
            #expect(frame["tone_mapping_peak"] as? Double == 1000)
            if kind == .pq {
                let mastering = try #require(frame["mastering_display"] as? [String: Any])
                #expect(mastering["max_luminance"] as? Double == 1000)
                #expect(mastering["min_luminance"] as? Double == 0.0001)
                let light = try #require(frame["content_light_level"] as? [String: Any])
                #expect(light["max_content_light_level"] as? Double == 1000)
                #expect(light["max_frame_average_light_level"] as? Double == 400)
            }
        }
    }

    @Test func wideGamutSDRVideoShowsItsBT709Colours() throws {
        // BT.709 colours carried in BT.2020 SDR come back as BT.709 codes (change of primaries in linear light);
        // before, the BT.2020 codes were shown as they were, desaturated.
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.sdr2020, in: dir)
            expectSuccess(runLayerplay([clip.path, "-o", "still.png"], in: dir))
            let still = rgbRows(of: try #require(readPNG(dir.appendingPathComponent("still.png"))))
            for (i, colour) in HDRPatchClip.colours.enumerated() {
                let centre = HDRPatchClip.patchCentres[8 + i]
                let ours = HDRPatchClip.mean(still, x: centre.x, y: centre.y)
                for c in 0..<3 {
                    let expected = 255 * HDRPatchClip.bt1886Code(203 * colour[c])
                    // Channels near 0 take the 10-bit source's rounding through BT.1886's steep foot: looser there.
                    #expect(abs(ours[c] - expected) <= (expected < 48 ? 20 : 3), "colour \(i): ours \(ours), BT.709 \(expected)")
                }
            }
            for (i, nits) in HDRPatchClip.greyNits.enumerated() {
                let centre = HDRPatchClip.patchCentres[i], ours = HDRPatchClip.mean(still, x: centre.x, y: centre.y)
                #expect(abs(ours.x - 255 * HDRPatchClip.bt1886Code(min(nits, 203))) <= 2, "grey \(nits) nits: \(ours)")
            }
        }
    }

    private func rgbRows(of image: Image) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<image.height { for x in 0..<image.width {
            let c = image.pixel(x: x, y: y)
            rows += [c.r, c.g, c.b]
        } }
        return rows
    }

    private func compare(_ ours: [UInt8], with reference: [UInt8], slack: Double, what: String,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        let result = HDRPatchClip.disagreements(ours, with: reference, slack: slack, what: what)
        for problem in result.problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
        print("\(what): worst difference from libplacebo: greys \(result.worstGrey), colours \(result.worstColour) (8-bit codes)")
    }
}
