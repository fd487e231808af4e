import Foundation
import Testing
import TestSupport

/// Live network inputs (issue 28, CLI.md "Streams"): an RTMP server, a UDP and an SRT stream are connected to once
/// and feed both the picture and the sound; a publisher that stops ends the input with one line, or is waited for
/// and continued with `--reconnect`. The peers are real ffmpeg processes; every export is decoded back.
@Suite("layerplay live inputs", .serialized)
struct LiveInputCLITests {
    /// A `seconds`-long clip with sound (H.264 and AAC, as an RTMP publisher sends) of `picture` (a lavfi source).
    func makeClip(_ name: String, picture: String = "testsrc2=size=160x120:rate=25", seconds: Int = 3, in dir: URL) throws {
        _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", picture, "-f", "lavfi", "-i", "sine=frequency=440",
                                                "-t", String(seconds), "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", name], in: dir)
    }

    /// An RTMP server (`ffmpeg -listen 1`) publishing `clip` in real time to its one client.
    func publishRTMP(_ clip: String, port: Int, in dir: URL, name: String = "rtmp") throws -> PeerProcess {
        let p = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-re", "-i", clip, "-c", "copy", "-f", "flv", "-listen", "1",
                                           "rtmp://127.0.0.1:\(port)/live/x"], in: dir, name: name)
        // Not `waitListening`: a connection to look would be the server's one client.
        let needle = String(format: ":%04X 00000000:0000 0A", port), deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8), table.contains(needle) { return p }
            usleep(50_000)
        }
        throw PeerError("the RTMP server did not start: \(p.logText)")
    }

    /// A run that ended well (exit 0, in time), whatever warnings it wrote (a live input's end is one).
    func expectEnded(_ r: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 0 && !r.timedOut, "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
    }

    /// The mean colour (r, g, b) of `file`'s first or last picture, scaled to one pixel.
    func colour(of file: String, last: Bool, in dir: URL) -> [Int] {
        let seek = last ? "-sseof -0.2 " : ""
        let r = runShell("ffmpeg -nostdin -v error \(seek)-i \(file) -frames:v 1 -vf scale=1:1 -pix_fmt rgb24 -f rawvideo - | od -An -tu1", in: dir)
        return r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    }

    @Test func anRTMPServerIsConnectedToOnceForPictureAndSound() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", in: dir)
            let port = freeLoopbackPort()
            // Before: the probe took the server's one client and the picture's open was refused.
            let server = try publishRTMP("clip.mp4", port: port, in: dir)
            defer { server.stop() }
            let r = runLayerplay(["rtmp://127.0.0.1:\(port)/live/x", "-o", "out.mp4"], in: dir, timeout: 40)
            expectEnded(r)
            let video = try probeVideo("out.mp4", in: dir)
            // The stream is 3 s at 25 frames/s; the export follows it from the first picture received to its end.
            #expect((60...80).contains(video.frames), "\(video) \(r.stderr)")
            #expect(try hasAudio("out.mp4", in: dir))
            // The server's end (RTMP says so as an I/O error) ends the input with one line; the movie is kept.
            #expect(r.stderrLines.count == 1 && r.stderr.contains("ends there"), "\(r.stderr)")
            // And in a window (headless): picture and sound from one connection, for --duration.
            let again = try publishRTMP("clip.mp4", port: port, in: dir, name: "rtmp2")
            defer { again.stop() }
            let play = runLayerplay(["rtmp://127.0.0.1:\(port)/live/x", "--duration", "1"], in: dir, timeout: 40,
                                    environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"])
            expectEnded(play)
        }
    }

    @Test func aUDPStreamIsBoundOnce() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", in: dir)
            let port = freeLoopbackPort()
            // Before: the second open of the port failed with "Address already in use". The publisher starts once
            // layerplay listens; when it stops, the input falls silent and ends after --timeout.
            let r = runShell("\"$LAYERPLAY\" udp://127.0.0.1:\(port) --timeout 5 -o out.mp4 & sleep 1; "
                             + "ffmpeg -nostdin -v error -re -i clip.mp4 -c:v mpeg2video -c:a mp2 -f mpegts udp://127.0.0.1:\(port); wait $!",
                             in: dir, timeout: 60)
            expectEnded(r)
            let video = try probeVideo("out.mp4", in: dir)
            #expect((50...80).contains(video.frames), "\(video) \(r.stderr)")
            #expect(try hasAudio("out.mp4", in: dir))
            #expect(r.stderr.contains("timed out"), "\(r.stderr)")
        }
    }

    @Test func anSRTStreamIsConnectedToOnce() throws {
        try withTemporaryDirectory { dir in
            guard try SubtitleFixtures.run("ffmpeg", ["-hide_banner", "-protocols"], in: dir).split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "srt" }) else {
                print("skipped: this FFmpeg has no srt protocol (libsrt)")
                return
            }
            try makeClip("clip.mp4", in: dir)
            let port = freeLoopbackPort()
            let server = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-re", "-i", "clip.mp4", "-c", "copy", "-f", "mpegts",
                                                    "srt://127.0.0.1:\(port)?mode=listener"], in: dir, name: "srt")
            defer { server.stop() }
            usleep(1_000_000) // the listener binds its UDP port
            let r = runLayerplay(["srt://127.0.0.1:\(port)?mode=caller", "--timeout", "3", "-o", "out.mp4"], in: dir, timeout: 40)
            expectEnded(r)
            #expect((50...80).contains(try probeVideo("out.mp4", in: dir).frames), "\(r.stderr)")
            #expect(try hasAudio("out.mp4", in: dir))
        }
    }

    /// A red publisher for 2 s, then (after a second without a server) a blue one on the same URL.
    func redThenBlue(port: Int) -> String {
        "( ffmpeg -nostdin -v error -re -i red.mp4 -c copy -f flv -listen 1 rtmp://127.0.0.1:\(port)/live/x; sleep 1; "
            + "ffmpeg -nostdin -v error -re -i blue.mp4 -c copy -f flv -listen 1 rtmp://127.0.0.1:\(port)/live/x ) >publishers.log 2>&1 & "
            + "sleep 1; "
    }

    @Test func reconnectContinuesAfterThePublisherCameBack() throws {
        try withTemporaryDirectory { dir in
            try makeClip("red.mp4", picture: "color=red:size=160x120:rate=25", seconds: 2, in: dir)
            try makeClip("blue.mp4", picture: "color=blue:size=160x120:rate=25", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            let r = runShell(redThenBlue(port: port) + "\"$LAYERPLAY\" rtmp://127.0.0.1:\(port)/live/x --reconnect -o out.mp4; s=$?; wait; exit $s",
                             in: dir, timeout: 60)
            expectEnded(r)
            // Red first, blue last: both publishers are in the movie, on one clock (the gap holds the last red picture).
            let first = colour(of: "out.mp4", last: false, in: dir), last = colour(of: "out.mp4", last: true, in: dir)
            #expect(first.count == 3 && first[0] > 200 && first[2] < 60, "\(first)")
            #expect(last.count == 3 && last[2] > 200 && last[0] < 60, "\(last)")
            let video = try probeVideo("out.mp4", in: dir)
            #expect(video.duration > 4.5, "\(video)")
            #expect(try hasAudio("out.mp4", in: dir))
            #expect(r.stderr.contains("reconnecting"), "\(r.stderr)")
        }
    }

    @Test func withoutReconnectTheFirstStopEndsTheInputWithOneLine() throws {
        try withTemporaryDirectory { dir in
            try makeClip("red.mp4", picture: "color=red:size=160x120:rate=25", seconds: 2, in: dir)
            try makeClip("blue.mp4", picture: "color=blue:size=160x120:rate=25", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            let r = runShell(redThenBlue(port: port) + "\"$LAYERPLAY\" rtmp://127.0.0.1:\(port)/live/x -o out.mp4; s=$?; "
                             + "sleep 2; ffmpeg -v error -i rtmp://127.0.0.1:\(port)/live/x -f null - 2>/dev/null; wait; exit $s", in: dir, timeout: 60)
            expectEnded(r)
            #expect(r.stderrLines.count == 1 && r.stderr.contains("rtmp://127.0.0.1:\(port)/live/x"), "\(r.stderr)")
            let last = colour(of: "out.mp4", last: true, in: dir)
            #expect(last.count == 3 && last[0] > 200 && last[2] < 60, "\(last)")
            #expect(try probeVideo("out.mp4", in: dir).duration < 2.5)
        }
    }

    @Test func aDeadServerIsOneErrorLineWithinTheTimeout() throws {
        try withTemporaryDirectory { dir in
            // The harness fails a run that takes longer than 15 s.
            let r = runLayerplay(["rtmp://127.0.0.1:\(freeLoopbackPort())/live/x", "--reconnect", "-o", "out.mp4"], in: dir, timeout: 15)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["Connection refused"])
        }
    }
}
