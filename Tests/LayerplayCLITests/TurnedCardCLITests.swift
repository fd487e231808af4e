import Foundation
import LayerGraphics
import Testing
import TestSupport

// The headline command end to end (CLI.md "Effects"): `layerplay clip.mp4 --rotate … --shadow` keeps the turned card,
// its border and its shadow inside the canvas. The geometry is checked at every size and angle in LayerSceneTests
// (TurnedCardFitTests); this renders one small frame and looks at the canvas's edges.

@Suite("layerplay: the turned card stays inside")
struct TurnedCardCLITests {
    @Test(arguments: [["--rotate", "75"], ["--spin", "8", "--at", "1.8"]])
    func theCanvasEdgesShowOnlyTheBackground(_ turn: [String]) throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--size", "640x360", "--corner-radius", "24", "--border", "6",
                                  "--shadow", "--background", "#3070b0", "-o", "out.png"] + turn, in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            let background = Color(red: 0x30 / 255.0, green: 0x70 / 255.0, blue: 0xb0 / 255.0)
            var touched: [(Int, Int)] = []
            for x in 0..<out.width {
                for y in [0, 1, out.height - 2, out.height - 1] where !isNear(out.pixel(x: x, y: y), background, tolerance: 0) {
                    touched.append((x, y))
                }
            }
            for y in 0..<out.height {
                for x in [0, 1, out.width - 2, out.width - 1] where !isNear(out.pixel(x: x, y: y), background, tolerance: 0) {
                    touched.append((x, y))
                }
            }
            #expect(touched.isEmpty, "\(turn): \(touched.count) edge pixels are not the background, e.g. \(touched.prefix(5))")
            expectPixel(out, 320, 180, isNot: background, "the card is there")
        }
    }
}
