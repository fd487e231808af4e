import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

extension PlaybackSession {
    /// Writes the frame on screen (paused: the frame of the clock's time), composited as an export composites it (the tree without the on-screen display,
    /// at the canvas size): the same pixels as `-o x.png --at T` at that frame's time. `path` nil: a new file in
    /// `screenshotDirectory` named after the input and the time (`clip_12.345.png`). Returns the path written.
    func screenshot(to path: String?) throws(CommandError) -> String {
        // Paused, the clock holds at the time of the frame shown or about to be (a seek's frame may not be on screen
        // yet: `presentedTime` would still be the frame before the seek); playing, the frame last shown.
        let time = clock.isPaused ? clock.time : (presentedTime ?? clock.time)
        let target = path ?? screenshotPath(time: options.range.mediaTime(time))
        // The OSD and the notice are the window's, not the picture's: they are not in the tree (`WindowOverlay`).
        willSnapshot?(time) // a playlist's tree posed for this time, as its export poses it
        let snapshot = root.snapshot(at: time)
        let surface = Compositor().render(snapshot, width: canvas.width, height: canvas.height)
        do { try surface.writePNG(to: target, replacing: true) } catch {
            throw CommandError("error running command", "cannot write the screenshot '\(target)': \(error)")
        }
        return target
    }

    /// `DIR/STEM_SECONDS.png`, with `-2`, `-3`… before `.png` when that file exists.
    private func screenshotPath(time: Double) -> String {
        let directory = screenshotDirectory ?? FileManager.default.currentDirectoryPath
        let stem = (options.title as NSString).deletingPathExtension
        let base = (directory as NSString).appendingPathComponent("\(stem)_\(String(format: "%.3f", time))")
        var candidate = base + ".png", n = 2
        while FileManager.default.fileExists(atPath: candidate) { candidate = "\(base)-\(n).png"; n += 1 }
        return candidate
    }
}
