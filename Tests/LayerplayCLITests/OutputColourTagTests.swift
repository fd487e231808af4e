import Foundation
import Testing
import TestSupport

/// Every file we write says what its pixels are, so players do not guess (issue 27).
@Suite("Colour tags of what layerplay writes")
struct OutputColourTagTests {
    /// ffprobe's colour fields of the first video stream: space, primaries, transfer, range.
    private func tags(_ file: String, in dir: URL) throws -> [String] {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                       "stream=color_space,color_primaries,color_transfer,color_range",
                                                       "-of", "default=nw=1", file], in: dir)
        return out.split(separator: "\n").map(String.init).sorted()
    }

    @Test func anHDMovieIsTaggedBT709() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--size", "1280x720", "-o", "hd.mp4"], in: dir))
            let found = try tags("hd.mp4", in: dir)
            #expect(found == ["color_primaries=bt709", "color_range=tv", "color_space=bt709", "color_transfer=bt709"])
        }
    }

    @Test func anSDMovieIsTaggedBT601() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "-o", "sd.mp4"], in: dir))
            let found = try tags("sd.mp4", in: dir)
            #expect(found == ["color_primaries=smpte170m", "color_range=tv", "color_space=smpte170m", "color_transfer=smpte170m"])
        }
    }

    @Test func anHDRInputIsWrittenTaggedAsTheSDRItBecame() throws {
        try withTemporaryDirectory { dir in
            let clip = try HDRPatchClip(.pq, in: dir)
            expectSuccess(runLayerplay([clip.path, "--size", "1280x720", "-o", "sdr.mp4"], in: dir))
            let found = try tags("sdr.mp4", in: dir)
            #expect(found == ["color_primaries=bt709", "color_range=tv", "color_space=bt709", "color_transfer=bt709"])
        }
    }

    @Test func aPNGStillCarriesAnSRGBChunkRightAfterItsHeader() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "-o", "still.png"], in: dir))
            let png = [UInt8](try Data(contentsOf: dir.appendingPathComponent("still.png")))
            // Signature, IHDR (25 bytes), then the sRGB chunk: length 1, type, intent 0 (perceptual), CRC.
            #expect(Array(png[33..<46]) == [0, 0, 0, 1, 0x73, 0x52, 0x47, 0x42, 0, 0xAE, 0xCE, 0x1C, 0xE9])
            // Still a PNG every reader takes.
            #expect(readPNG(dir.appendingPathComponent("still.png")) != nil)
            let probe = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", "still.png"], in: dir)
            #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "320")
        }
    }
}
