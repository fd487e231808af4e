import Foundation
import LayerGraphics
import Testing
import TestSupport

// One clock (SEMANTICS-ANIMATION.md §1): the tree's time is the timeline's, so a still at t and the frame an export
// writes for t are the same pixels, video and animations alike, whatever --start the export began at. Before, an
// export with --start S ran the spin from the output's zero: its frames showed the spin S seconds behind.

@Suite("one clock")
struct OneClockTests {
    let look = ["--spin", "2", "--rotate", "15", "--shadow", "--corner-radius", "8", "--size", "160x90"]

    @Test func aStillAndAnExportedFrameAtTheSameTimeAreTheSamePixels() throws {
        try withTemporaryDirectory { dir in
            // Frames at 1.0, 1.1, …, 1.4 (numbered from 1); the clip's own frames are at multiples of 0.04.
            expectSuccess(runLayerplay([mediaSample("clip.mp4")] + look + ["--start", "1", "--duration", "0.5", "--fps", "10",
                                                                            "-o", "f_%03d.png"], in: dir))
            for (file, time) in [("f_001.png", "1"), ("f_004.png", "1.3")] {
                expectSuccess(runLayerplay([mediaSample("clip.mp4")] + look + ["--at", time, "-o", "still-\(time).png"], in: dir))
                guard let frame = readPNG(dir.appendingPathComponent(file)),
                      let still = readPNG(dir.appendingPathComponent("still-\(time).png")) else { continue }
                #expect(samePixels(frame, still), "the export's frame for \(time) s differs from the still at \(time) s")
            }
        }
    }

    @Test func theSpinOfAnExportDependsOnTheTimeNotOnWhereTheExportStarted() throws {
        try withTemporaryDirectory { dir in
            // The frame for 1.2 s, exported from 1.0 and from 1.2: the same picture.
            expectSuccess(runLayerplay([mediaSample("clip.mp4")] + look + ["--start", "1", "--duration", "0.3", "--fps", "10",
                                                                            "-o", "a_%03d.png"], in: dir))
            expectSuccess(runLayerplay([mediaSample("clip.mp4")] + look + ["--start", "1.2", "--duration", "0.1", "--fps", "10",
                                                                            "-o", "b_%03d.png"], in: dir))
            guard let a = readPNG(dir.appendingPathComponent("a_003.png")), let b = readPNG(dir.appendingPathComponent("b_001.png")) else { return }
            #expect(samePixels(a, b))
        }
    }
}
