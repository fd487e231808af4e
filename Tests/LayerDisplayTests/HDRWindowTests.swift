import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

/// Issue 27's third place: the PQ patch clip played in a window (headless) shows the frame the still and the
/// export show — against FFmpeg's libplacebo filter with the same tolerance (`HDRPatchClip.disagreements`).
extension PlaybackTests {
    @Test func aWindowFrameOfThePQPatchClipAgreesWithLibplacebo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hdr-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let clip = try HDRPatchClip(.pq, in: dir)
            let reference = try clip.reference(in: dir)
            useDummyDrivers()
            let player = try Player(path: clip.path)
            // The clip filling the canvas at its own size, as `layerplay clip.mp4` plays it.
            let root = Layer(), video = PlayerLayer(player: player)
            let (w, h) = (HDRPatchClip.width, HDRPatchClip.height)
            root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
            root.position = Point(x: Double(w) / 2, y: Double(h) / 2)
            video.frame = root.bounds
            root.addSublayer(video)
            // A 2×2 mark in a corner, away from the patch centres: the frame is then composited (a frame that is only
            // the video goes to SDL's YUV texture, `DirectVideo`, whose pixels the session does not see; DirectVideoTests
            // hold that path to the compositor's).
            let mark = Layer()
            mark.frame = Rect(x: 0, y: 0, width: 2, height: 2)
            mark.backgroundColor = Color(white: 0.5)
            root.addSublayer(mark)
            let options = PlaybackSession.Options(title: "pq.mp4", range: PlaybackRange(start: 0, end: 0.04, loops: false), frameRate: 25)
            let session = try PlaybackSession(root: root, size: (w, h), player: player, audioPath: nil, options: options) { _, _ in }
            var shown: [UInt8]?
            session.onPresent = { _, surface in
                guard shown == nil else { return }
                var rows: [UInt8] = []
                for y in 0..<surface.height {
                    for x in 0..<surface.width {
                        let word = surface.pixels[y * surface.pixelsPerRow + x]  // opaque BGRA: B lowest
                        rows += [UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
                    }
                }
                shown = rows
            }
            session.onTick = { state in if state.framesPresented >= 1 { press("q") } }
            _ = session.run()
            let frame = try #require(shown, "the window presented no composited frame")
            let result = HDRPatchClip.disagreements(frame, with: reference, what: "pq window frame")
            #expect(result.problems.isEmpty, "\(result.problems)")
            print("pq window frame: worst difference from libplacebo: greys \(result.worstGrey), colours \(result.worstColour) (8-bit codes)")
        }
    }
}
