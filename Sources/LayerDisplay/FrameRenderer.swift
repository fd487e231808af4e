import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

/// Composites snapshots into surfaces on a dedicated thread (the compositor spreads each frame's bands over
/// the cores), so that the next frame is rendered while the current one is on screen.
final class FrameRenderer: @unchecked Sendable { // state guarded by `condition`
    struct Job {
        let snapshot: LayerSnapshot
        /// Timeline time the frame shows.
        let time: Double
        /// The seek generation it belongs to (frames of an old position are never shown).
        let serial: Int
        let width: Int, height: Int
        /// A window texture to render into (locked on the window's thread), or nil for a surface of our own.
        let target: FrameTexture?
        /// A full-frame video under draws that fall in one rectangle may be shown as its picture with only that
        /// rectangle composited (`overVideo`). Off when every frame must be whole pixels (`onPresent`).
        var composesOverVideo = true
    }
    /// What to show: composited pixels, a video picture the window shows directly (`DirectVideo`), or such a
    /// picture under a composited rectangle of the surface (picture in picture, a lower third over a video).
    enum Picture {
        case surface(Surface)
        case direct(DirectVideo)
        case overVideo(OverlaidVideo, Surface)
    }
    struct Frame {
        let picture: Picture
        let time: Double
        let serial: Int
        let renderMilliseconds: Double
        /// The job's window texture: holds the picture when it is `.surface`, unused when `.direct`.
        let target: FrameTexture?
    }

    /// A window's compositor: tiled layers' tiles are drawn in the background and fade in (§6).
    private let compositor = Compositor(tiles: .background())
    /// Whether tiles are being drawn or fading in: the session then renders again, even while paused.
    var isDrawingTiles: Bool { compositor.isDrawingTiles }
    private let condition = NSCondition()
    private var job: Job?
    /// Finished frames not yet taken, oldest first.
    private var done: [Frame] = []
    /// How many finished frames may wait: the renderer works this far ahead of the screen, so that the time it
    /// has to spare on a quick frame covers a slow one. One for a video shown as it is: it costs nothing to
    /// prepare, and asking for it early only asks the decoder to run further ahead (a 4K stream drifted).
    private var finishedLimit: Int { lastWasDirect ? 1 : 2 }
    private var lastWasDirect = false
    private var spare: [Surface] = []
    private var stopped = false
    private var exited = false
    private(set) var isBusy = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.render"
        thread.start()
    }

    /// Stops the thread and returns once it no longer renders (a job's target may be a window texture that is
    /// about to be destroyed).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
    }

    /// Whether a job is queued or running, or as many finished frames as may wait are waiting: then `submit` must
    /// not be called.
    var isOccupied: Bool { condition.lock(); defer { condition.unlock() }; return isBusy || job != nil || done.count >= finishedLimit }

    /// Starts rendering `job`; the renderer must not be occupied.
    func submit(_ job: Job) {
        condition.lock()
        self.job = job
        isBusy = true
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest finished frame, waiting up to `timeout` seconds for one.
    func take(waiting timeout: Double) -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        if done.isEmpty && isBusy && timeout > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        return done.isEmpty ? nil : done.removeFirst()
    }

    /// Gives a shown (or discarded) frame's surface back for reuse (a window texture goes back to the window).
    func recycle(_ frame: Frame) {
        let surface: Surface
        switch frame.picture {
        case .surface(let s), .overVideo(_, let s): surface = s
        case .direct: return
        }
        guard frame.target == nil else { return }
        condition.lock()
        if spare.count < 3 { spare.append(surface) }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while !stopped && job == nil { condition.wait() }
            if stopped { break }
            let job = self.job!
            self.job = nil
            let reuse = job.target == nil ? spare.firstIndex { $0.width == job.width && $0.height == job.height } : nil
            let surface = job.target?.surface ?? reuse.map { spare.remove(at: $0) } ?? Surface(width: job.width, height: job.height)
            condition.unlock()
            let began = hostSeconds()
            let picture: Picture
            if let direct = compositor.directVideo(job.snapshot, width: job.width, height: job.height) {
                picture = .direct(direct)
            } else if job.composesOverVideo {
                // Only the rectangle above a full-frame picture is composited; the window scales the picture
                // itself (a 1080p main video under a small inset: the inset's rectangle, not two million pixels).
                switch compositor.renderFrame(job.snapshot, into: surface, over: nil, acceptsPicture: { $0.planes.count >= 3 }) {
                case .overVideo(let video): picture = .overVideo(video, surface)
                case .surface: picture = .surface(surface)
                case .mosaic:  // not asked for (no `acceptsMosaicPicture`): composite it after all
                    compositor.render(job.snapshot, into: surface)
                    picture = .surface(surface)
                }
            } else {
                compositor.render(job.snapshot, into: surface)
                picture = .surface(surface)
            }
            let ms = (hostSeconds() - began) * 1000
            condition.lock()
            if case .direct = picture, job.target == nil, spare.count < 3 { spare.append(surface) }
            if case .direct = picture { lastWasDirect = true } else { lastWasDirect = false }
            done.append(Frame(picture: picture, time: job.time, serial: job.serial, renderMilliseconds: ms, target: job.target))
            isBusy = false
            condition.broadcast()
        }
        exited = true
        condition.broadcast()
        condition.unlock()
    }
}
