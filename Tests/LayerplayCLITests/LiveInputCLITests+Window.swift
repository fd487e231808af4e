import Foundation
import Testing
import TestSupport

/// A window playing a live input ends when the stream does (CLI.md "Streams"): once its last frame is on screen and
/// its sound has played out, with the one warning line of a live input's end, exit 0. Headless (SDL's dummy video
/// and sound drivers), against real publishers; a window that keeps its last picture instead runs into the bound.
extension LiveInputCLITests {
    static let headless: [String: String?] = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

    /// The `--stats` line.
    func stats(_ r: RunResult) -> [String: Any] {
        guard let line = r.stderrLines.first(where: { $0.hasPrefix("{") }), let data = line.data(using: .utf8),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return json
    }

    /// The `--stats` line's frames on screen.
    func framesPresented(_ r: RunResult) -> Int? { stats(r)["frames_presented"] as? Int }

    @Test func aWindowOnAnRTMPStreamEndsWhenThePublisherStops() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            let server = try publishRTMP("clip.mp4", port: port, in: dir)
            defer { server.stop() }
            let began = Date()
            // Before: the window kept its last picture until quit, so the run was killed at the bound.
            let r = runLayerplay(["rtmp://127.0.0.1:\(port)/live/x", "--stats"], in: dir, timeout: 30, environment: Self.headless)
            let took = Date().timeIntervalSince(began)
            expectEnded(r)
            // 2 s of stream, its probe, and the sound played out: well within 12 s (the reconnect-free end is at once).
            #expect(took < 12, "took \(took) s: \(r.stderr)")
            let warnings = r.stderrLines.filter { !$0.hasPrefix("{") }
            #expect(warnings.count == 1 && warnings[0].hasPrefix("layerplay: warning:") && warnings[0].contains("ends there"), "\(r.stderr)")
            // It played the stream, not just its first picture (2 s at 25 frames/s; a loaded machine drops some).
            #expect((framesPresented(r) ?? 0) >= 10, "\(r.stderr)")
        }
    }

    /// Through a reconnect's gap the window's clock runs on (the wall clock is the stream's) and its loop never waits
    /// for the decoder: the blue frames after the gap are shown when due, in step with their sound. Before, the loop
    /// blocked in the decoder while the clock was more than 2 s ahead of the last red frame, and showed the first blue
    /// frame seconds late (av_drift_ms_max above 10 000 for the 15 s of failed attempts after the blue publisher).
    @Test func aWindowKeepsTheLiveClockThroughAReconnect() throws {
        try withTemporaryDirectory { dir in
            try makeClip("red.mp4", picture: "color=red:size=160x120:rate=25", seconds: 2, in: dir)
            try makeClip("blue.mp4", picture: "color=blue:size=160x120:rate=25", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            let r = runShell(redThenBlue(port: port) + "SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 50 \"$LAYERPLAY\" "
                             + "rtmp://127.0.0.1:\(port)/live/x --reconnect --stats; s=$?; wait; exit $s", in: dir, timeout: 70)
            expectEnded(r)
            let s = stats(r)
            #expect((s["frames_presented"] as? Int ?? 0) >= 60, "both publishers' 2 s at 25 frames/s: \(r.stderr)")
            #expect((s["av_drift_ms_max"] as? Double ?? .infinity) < 500, "\(r.stderr)")
            #expect(r.stderr.contains("reconnecting failed") && r.stderr.contains("ends there"), "\(r.stderr)")
        }
    }

    @Test func aWindowOnAUDPStreamEndsWhenItFallsSilent() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            // The stream falls silent when the sender stops: the input ends after --timeout (2 s) without data.
            // `timeout 25` bounds the window (a hang is exit 124).
            let r = runShell("SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 25 \"$LAYERPLAY\" udp://127.0.0.1:\(port) --timeout 2 & sleep 1; "
                             + "ffmpeg -nostdin -v error -re -i clip.mp4 -c:v mpeg2video -c:a mp2 -f mpegts udp://127.0.0.1:\(port); "
                             + "s0=$(date +%s.%N); wait $!; s=$?; awk \"BEGIN { print $(date +%s.%N) - $s0 }\"; exit $s",
                             in: dir, timeout: 40)
            expectEnded(r)
            let afterSender = Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
            // Ends --timeout after the last packet, plus the queued frames and sound: a few seconds.
            #expect(afterSender < 8, "ended \(afterSender) s after the sender: \(r.stderr)")
            #expect(r.stderr.contains("timed out") && r.stderr.contains("ends there"), "\(r.stderr)")
        }
    }
}
