import Foundation
import LayerGraphics

/// Decodes a `VideoFrameSource` on a dedicated thread (never the Swift concurrency pool), continuously and
/// in order, into a small queue of frames ahead of the times asked for, as ffplay's picture queue: playback
/// and exports find the next frame already decoded, and decoding overlaps compositing.
///
/// `frame(at:)` answers "which frame is shown at t" from the queue; a jump back (or far ahead, when a keyframe
/// lies in between) empties the queue and repositions the decoder, frame-accurately.
final class DecodeAhead: @unchecked Sendable { // state guarded by `condition`
    private let source: VideoFrameSource
    private let depth: Int
    private let condition = NSCondition()
    /// Decoded frames in order; the first is the one shown last (it stays until a later one is due).
    private var queue: [VideoFrame] = []
    /// The stream has no more frames after the queue.
    private var ended = false
    /// Where the decoder must go (a seek), and the generation of the queue's frames.
    private var repositionRequest: Double?
    private var serial = 0
    /// The time of the stream's first frame, once seen (before it, the first frame shows).
    private var firstTime: Double?
    /// Whether the queue starts at the stream's start (no seek since), so the first frame answers early times.
    private var fromStart = true
    private var stopped = false
    /// mpv's `--framedrop=decoder` (a window turns it on; exports never, since every frame they ask for must exist):
    /// while the times asked for run more than two frames ahead of the newest decoded frame, FFmpeg skips the frames
    /// nothing refers to (`AVDISCARD_NONREF`: B-frames, usually), so decoding catches up with the clock instead of
    /// drifting behind until the next keyframe jump; back to decoding every frame once within a frame of it.
    var dropsLateFrames: Bool {
        get { condition.lock(); defer { condition.unlock() }; return dropsLate }
        set {
            condition.lock()
            dropsLate = newValue
            if !newValue { skipping = false; lateSince = nil }
            condition.unlock()
        }
    }
    private var dropsLate = false
    /// Whether the decode thread is told to skip non-reference frames now.
    private var skipping = false
    /// The time asked for when the decoder was first seen more than two frames behind (nil: it is not): skipping
    /// starts only once it has stayed behind for four frames of the times asked for, so that a hiccup (a loaded
    /// machine, the keyframe decoded after a loop's wrap) that decoding every frame soon makes up drops nothing.
    private var lateSince: Double?
    /// Frames the decoder skipped (counted by the gaps they leave between the frames that came out).
    private var framesSkipped = 0
    /// Seconds between frames (the stream's rate; 1/30 when it gives none): the unit of "late".
    private let frameInterval: Double

    /// The source's `levelStream` (a constant of its converter: read without the lock).
    var levelStream: PictureLevels.Stream { source.levelStream }

    init(source: VideoFrameSource, depth: Int = 4) {
        self.source = source
        self.depth = depth
        let rate = source.asset.video?.frameRate ?? 0 // the believable rate (MediaAsset), 0 when unknown
        frameInterval = rate > 0 ? 1 / rate : 1.0 / 30
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.decode"
        thread.start()
    }

    /// Ends the decode thread (after the frame it is decoding).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The frame shown at `seconds`: the last frame whose time is at or before it (the first frame before the
    /// stream's first time, the last frame after its end); nil when the stream has no decodable frame.
    func frame(at seconds: Double) -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        let slack = source.slack
        let t = seconds + slack
        var checkedJumpFrom: Double? = nil   // the head whose keyframe question is answered (no jump)
        while !stopped {
            if repositionRequest == nil, let head = queue.first {
                let beforeHead = t < head.time.seconds
                if beforeHead && !(fromStart && head.time.seconds <= (firstTime ?? head.time.seconds)) {
                    requestReposition(seconds) // behind the frames we hold
                    continue
                }
                dropFramesReplaced(by: t)
                // At the head's own time the head is shown whatever follows (frames are a tick apart or more), so
                // there is nothing to wait for: a window that shows the newest decoded frame while its decoder is
                // behind asks at that time, and a live stream's next frame may be seconds away (a reconnect's gap).
                let atHead = seconds <= queue[0].time.seconds + 1e-9
                if queue.count > 1 || ended || beforeHead || atHead { return queue[0] }
                // Only the head is decoded: is the next frame due yet? Wait for it, unless t is far ahead.
                if seconds - queue[0].time.seconds > 2, checkedJumpFrom != queue[0].time.seconds {
                    let from = queue[0].time.seconds, before = serial
                    condition.unlock()
                    let jump = source.keyframeLies(after: from, atOrBefore: seconds)
                    condition.lock()
                    if jump && serial == before { requestReposition(seconds) }
                    checkedJumpFrom = from
                    // The decode thread may have added a frame or ended (and broadcast) while the lock was
                    // open: look again before waiting, or that wake-up is lost and both threads wait forever.
                    continue
                }
            } else if repositionRequest == nil && ended {
                return nil // nothing decodable
            }
            condition.wait()
        }
        return queue.first
    }

    /// Whether the stream has no frame after the one shown at `seconds`, which is also the last one and
    /// shown since before it: a live input ended there. Waits (as `frame(at:)` does) until the decoder knows.
    func hasEnded(at seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let t = seconds + source.slack
        while !stopped {
            if let known = endKnown(at: t) { return known }
            condition.wait()
        }
        return false
    }

    /// `hasEnded(at:)` as far as the decoder knows now, never waiting: false while it is still decoding towards
    /// `seconds` (or past it). A window asks this each turn of its loop, which must not block on the decoder; the
    /// lock is only ever held for a few comparisons (the decode thread lets go of it while decoding).
    func hasEndedNow(at seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return !stopped && endKnown(at: seconds + source.slack) == true
    }

    /// Whether the stream has no frame after the one shown at `t` (slack added): nil while the decoder has not
    /// decided yet. Called with the lock held.
    private func endKnown(at t: Double) -> Bool? {
        if repositionRequest != nil || queue.count > 1 { return false }
        if let head = queue.first, head.time.seconds >= t { return false }
        return ended ? true : nil
    }

    /// Whether `frame(at:)` would now wait for the decoder: every queued frame is at or before `seconds`, so the
    /// next one decides which is shown, and it is not decoded yet. (Jumps, seeks and the end never count: those
    /// are for `frame(at:)` to handle.) A window shows what it has meanwhile instead of blocking its thread.
    /// Like `frame(at:)`, it lets go of the frames that a later one replaces by then, so that a full queue makes
    /// room and the decoder goes on (else this would say yes until the time ran two seconds ahead).
    func wouldWait(forFrameAt seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, repositionRequest == nil, !ended, let head = queue.first else { return false }
        let t = seconds + source.slack
        if dropsLate, let newest = queue.last?.time.seconds { noteLateness(t - newest, at: t) }
        // Far ahead, `frame(at:)` may jump there by seeking; a live connection cannot, and its clock runs on through
        // a stall or a reconnect's gap, so it is waited for like any next frame (a window never blocks on it).
        guard head.time.seconds <= t, seconds - head.time.seconds <= 2 || source.isLiveConnection else { return false }
        dropFramesReplaced(by: t)
        return queue.count == 1
    }

    /// Whether the decoder holds `count` frames after the one shown at `seconds` (or all it will have: the stream
    /// ends first, or the queue is full). Changes nothing, unlike `wouldWait`.
    func holdsFrames(after seconds: Double, count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if stopped || ended { return true }
        guard repositionRequest == nil else { return false }
        if queue.count >= depth { return true }
        let t = seconds + source.slack
        return queue.reduce(0) { $0 + ($1.time.seconds > t ? 1 : 0) } >= count
    }

    /// `framesSkipped`, read under the lock.
    var skippedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return framesSkipped
    }

    /// The media time of the newest decoded frame (nil: none queued, or a seek pending): while the decoder is
    /// behind, a window shows this frame rather than wait for the one its clock asks for (`Player.newestDecodedTime`).
    var newestTime: Double? {
        condition.lock()
        defer { condition.unlock() }
        return repositionRequest == nil ? queue.last?.time.seconds : nil
    }

    /// Skips non-reference frames from more than two frames late (for four frames of the times asked for) until
    /// caught up within one (with the lock held; `late` is the time asked for, `t`, less the newest decoded frame's).
    private func noteLateness(_ late: Double, at t: Double) {
        if late <= frameInterval {
            skipping = false
            lateSince = nil
        } else if late > 2 * frameInterval {
            guard let since = lateSince else { lateSince = t; return }
            if t - since >= 4 * frameInterval { skipping = true }
        }
    }

    /// Lets go of the queued frames that a later queued frame replaces by `t` (the decoder may go on).
    /// Called with the lock held.
    private func dropFramesReplaced(by t: Double) {
        var k = 0
        while k + 1 < queue.count && queue[k + 1].time.seconds <= t { k += 1 }
        if k > 0 { queue.removeFirst(k); condition.broadcast() }
    }

    private func requestReposition(_ seconds: Double) {
        serial += 1
        queue.removeAll()
        ended = false
        // Going to 0 or before (or NaN) is going back to the start: the first frame then answers every earlier
        // time. Without this, a time before the first frame asked for a new reposition each time it came back,
        // forever (`frame(at: -1)` after a later frame never returned).
        fromStart = !(seconds > 0)
        skipping = false // a seek decodes every frame to the one asked for (frame-accurate)
        lateSince = nil
        repositionRequest = seconds
        condition.broadcast()
    }

    private func run() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if let target = repositionRequest {
                repositionRequest = nil
                let mySerial = serial
                condition.unlock()
                source.reposition(to: target)
                condition.lock()
                if mySerial != serial { continue }
                condition.broadcast()
                continue
            }
            if ended || queue.count >= depth {
                // Idle: a draw that changed the size HDR frames are converted at (`PictureLevels`) would otherwise
                // convert each frame already decoded itself, on the render's time.
                if let levels = queue.lazy.compactMap({ $0.pixelBuffer.levels }).first(where: { !$0.hasDrawnLevels }) {
                    condition.unlock()
                    levels.prepareDrawnLevels()
                    condition.lock()
                    continue
                }
                condition.wait()
                continue
            }
            let mySerial = serial
            let skip = skipping
            let previous = queue.last?.time.seconds
            condition.unlock()
            source.skipsNonReferenceFrames = skip
            // A frame that cannot be decoded ends the stream here; the frames before it stay.
            let frame = try? source.decodeNext()
            condition.lock()
            if mySerial != serial { continue }
            if let frame {
                if firstTime == nil && fromStart { firstTime = frame.time.seconds }
                if skip, let previous { framesSkipped += max(0, Int(((frame.time.seconds - previous) / frameInterval).rounded()) - 1) }
                queue.append(frame)
            } else {
                ended = true
            }
            condition.broadcast()
        }
    }
}
