import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import Synchronization
import Testing

// SEMANTICS-LAYERS.md §8 in an export (deterministic mode): a pull drawable is called once per exported frame with
// that frame's index and time when `isAsynchronous`, once in all otherwise.

/// The frames a drawable's callback was given.
private final class FrameLog: Sendable {
    private let frames = Mutex<[DrawableFrame]>([])
    func record(_ f: DrawableFrame) { frames.withLock { $0.append(f) } }
    var all: [DrawableFrame] { frames.withLock { $0 } }
}

/// Exports `frames` frames at 10 fps of a 16×16 drawable whose callback logs its frames.
private func exportDrawable(asynchronous: Bool, frames: Int, in dir: URL) throws -> [DrawableFrame] {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 16, height: 16)
    let layer = DrawableLayer()
    layer.frame = root.bounds
    layer.isAsynchronous = asynchronous
    let log = FrameLog()
    layer.render = { target, frame in
        log.record(frame)
        target.fill(Color(white: Double(frame.frameIndex ?? 0) / 10))
        return true
    }
    root.addSublayer(layer)
    let exporter = Exporter(root: root, width: 16, height: 16, settings: EncoderSettings(frameRate: (10, 1)), start: 0,
                            frameCount: frames, audioSource: nil)
    _ = try exporter.export(to: dir.appendingPathComponent("drawable.mp4").path)
    return log.all
}

@Suite("Drawable export")
struct DrawableExportTests {
    @Test func anAsynchronousDrawableIsCalledOncePerExportedFrame() throws {
        try withTemporaryDirectory { dir in
            let frames = try exportDrawable(asynchronous: true, frames: 6, in: dir)
            #expect(frames.map(\.frameIndex) == (0..<6).map { Optional($0) })
            for (i, f) in frames.enumerated() {
                #expect(abs(f.outputTime - Double(i) / 10) < 1e-9)
                #expect(abs(f.layerTime - Double(i) / 10) < 1e-9)
            }
        }
    }

    @Test func aSynchronousDrawableIsCalledOnce() throws {
        try withTemporaryDirectory { dir in
            let frames = try exportDrawable(asynchronous: false, frames: 6, in: dir)
            #expect(frames.count == 1)
            #expect(frames.first?.frameIndex == 0)
        }
    }
}
