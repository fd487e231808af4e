import Foundation
import LayerGraphics
import Testing
import TestSupport

@Suite("layerplay stills from video")
struct VideoStillTests {
    @Test func aStillOfAVideoHasItsDisplaySizeAndEffects() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--at", "1.2", "--corner-radius", "12", "--border", "3", "-o", "still.png"], in: dir)
            expectSuccess(r)
            let image = try #require(readPNG(dir.appendingPathComponent("still.png")))
            #expect(image.width == 320 && image.height == 180)
            // Rounded corners with masksToBounds show the (black) canvas in the very corner; the border is white.
            expectPixel(image, 0, 0, is: .black)
            expectPixel(image, 1, 90, is: .white)
        }
    }

    @Test func rotationMetadataMakesAPortraitStill() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("rotated.mp4"), "-o", "still.png"], in: dir))
            let image = try #require(readPNG(dir.appendingPathComponent("still.png")))
            #expect(image.width == 180 && image.height == 320)
        }
    }

    @Test func differentTimesGiveDifferentFrames() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--at", "0.2", "-o", "a.png"], in: dir))
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--at", "00:01.6", "-o", "b.png"], in: dir))
            let a = try #require(readPNG(dir.appendingPathComponent("a.png")))
            let b = try #require(readPNG(dir.appendingPathComponent("b.png")))
            #expect(!samePixels(a, b))
        }
    }

    @Test func audioOnlyInputMakesAMovieOfTheCanvas() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("tone.m4a"), "--size", "160x90", "--background", "navy", "-o", "tone.mp4"], in: dir))
            let probe = runLayerplay(["probe", "tone.mp4"], in: dir)
            #expect(probe.stdout.contains("\"codec\" : \"h264\"") && probe.stdout.contains("\"codec\" : \"aac\""))
            #expect(probe.stdout.contains("\"width\" : 160"))
        }
    }

    @Test func audioOnlyInputIsRefusedWithAReason() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("tone.m4a"), "-o", "still.png"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("still.png"), mentions: ["audio"])
        }
    }
}
