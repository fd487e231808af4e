import Foundation
import LayerGraphics
import Testing
import TestSupport

/// CLI.md "Audio-only input": an export of a sound file shows the sound, a waveform that moves with time.
@Suite("layerplay audio-only input")
struct AudioOnlyCLITests {
    @Test func anExportDrawsTheWaveformMovingOverTheCanvas() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("tone.m4a"), "--size", "128x72", "--duration", "0.3", "--fps", "10",
                                        "-o", "f_%03d.png"], in: dir))
            let a = try #require(readPNG(dir.appendingPathComponent("f_002.png")))
            let b = try #require(readPNG(dir.appendingPathComponent("f_003.png")))
            #expect(!samePixels(a, b), "the 440 Hz tone's waveform moves from frame to frame")
            // A white line on the black canvas.
            #expect((0..<72).contains { y in (0..<128).contains { x in a.pixel(x: x, y: y).g > 200 } })
        }
    }
}
