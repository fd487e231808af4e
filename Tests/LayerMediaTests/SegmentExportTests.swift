import Foundation
import LayerGraphics
import LayerKit
@testable import LayerMedia
import Testing
import TestSupport

// Issue 29: a segment (`Exporter.segment`, `--frames A:B`) shows at each of its frames what a whole export shows at
// the same frame, whatever the tree did before (here: an emitter, whose particles are born from the layer's start,
// and an animation), in a fresh tree as on another machine. FFV1 is lossless, so equal decoded frames (ffmpeg's
// framemd5 of each) mean equal pictures.

/// A 64×48 tree: a turning square and an emitter of white squares in all directions.
private func tree() -> Layer {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 64, height: 48)
    root.backgroundColor = Color(white: 0.1)
    let square = Layer()
    square.frame = Rect(x: 8, y: 8, width: 16, height: 16)
    square.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.2)
    let turn = BasicAnimation(keyPath: "transform.rotation.z")
    turn.fromValue = 0.0; turn.toValue = 2 * Double.pi; turn.duration = 1.3; turn.repeatCount = .infinity
    square.add(turn, forKey: "turn")
    root.addSublayer(square)
    let emitter = EmitterLayer()
    emitter.frame = root.bounds
    emitter.emitterPosition = Point(x: 40, y: 24)
    let cell = EmitterCell()
    cell.birthRate = 30; cell.lifetime = 1.5; cell.velocity = 25; cell.velocityRange = 10; cell.emissionRange = 2 * .pi
    cell.contents = Image(width: 3, height: 3, color: .white)
    emitter.emitterCells = [cell]
    root.addSublayer(emitter)
    return root
}

/// The per-frame hashes of the decoded video of `file`.
private func frameHashes(_ file: URL) throws -> [String] {
    let out = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-i", file.path, "-map", "0:v:0", "-f", "framemd5", "-"],
                                       in: file.deletingLastPathComponent())
    return out.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
}

@Suite("Segment export")
struct SegmentExportTests {
    @Test func aSegmentsFramesAreTheWholeExportsFrames() throws {
        try withTemporaryDirectory { dir in
            let settings = EncoderSettings(codec: "ffv1", frameRate: (10, 1))
            let whole = dir.appendingPathComponent("whole.mkv"), part = dir.appendingPathComponent("part.mkv")
            _ = try Exporter(root: tree(), width: 64, height: 48, settings: settings, start: 0.25, frameCount: 30,
                             audioSource: nil).export(to: whole.path)
            let segment = Exporter(root: tree(), width: 64, height: 48, settings: settings, start: 0.25, frameCount: 12,
                                   audioSource: nil)
            segment.segment = SegmentEncoding(frames: 11..<23, total: 30, rate: (10, 1))
            _ = try segment.export(to: part.path)
            let all = try frameHashes(whole), some = try frameHashes(part)
            #expect(all.count == 30 && some.count == 12)
            #expect(Array(all[11..<23]) == some)
            #expect(Set(all).count > 20) // the frames do change: the comparison means something
        }
    }

    @Test func thePlanCutsOnTheGOPGrid() {
        let plan = SegmentPlan(total: 95, gop: 10, count: 4)
        #expect(plan.segments == [0..<30, 30..<60, 60..<90, 90..<95])
        #expect(SegmentPlan(total: 40, gop: 10, count: 3).segments == [0..<20, 20..<40])
        #expect(SegmentPlan(total: 7, gop: 10, count: 4).segments == [0..<7])
        #expect(SegmentEncoding.gopLength(rate: (30000, 1001)) == 30 && SegmentEncoding.gopLength(rate: (1, 10)) == 1)
    }

    @Test func theSegmentTagReadsBack() {
        let parsed = SegmentCheck.parse("10:20/40@30000/1001")
        #expect(parsed?.frames == 10..<20 && parsed?.total == 40 && parsed?.rate.num == 30000 && parsed?.rate.den == 1001)
        #expect(SegmentCheck.parse("20:10/40@10/1") == nil && SegmentCheck.parse("0:50/40@10/1") == nil)
        #expect(SegmentCheck.parse("0:10/40") == nil)
    }
}
