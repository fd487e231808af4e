import Foundation
import Testing
import TestSupport

/// RTSP against a real peer, and `--input-opt` (CLI.md "Streams"): layerplay listens as an RTSP server (FFmpeg's
/// `rtsp_flags=listen`, passed as ffmpeg passes input options) and `ffmpeg -f rtsp` publishes to it.
extension LiveInputCLITests {
    @Test func anRTSPPublisherIsReceivedWithInputOptListen() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", seconds: 2, in: dir)
            let port = freeLoopbackPort()
            // layerplay listens first (its open waits for the publisher, bounded by --timeout); the publisher's
            // TEARDOWN at its end ends the live input.
            let r = runShell("timeout 40 \"$LAYERPLAY\" rtsp://127.0.0.1:\(port)/live --input-opt rtsp_flags=listen -o out.mp4 & sleep 1; "
                             + "ffmpeg -nostdin -v error -re -i clip.mp4 -c copy -f rtsp rtsp://127.0.0.1:\(port)/live; wait $!",
                             in: dir, timeout: 60)
            expectEnded(r)
            // The whole stream came through, picture and sound: 2 s at 25 frames/s (the first frames up to the
            // first keyframe the receiver sees may be missing).
            let video = try probeVideo("out.mp4", in: dir)
            #expect((35...60).contains(video.frames), "\(video) \(r.stderr)")
            #expect(try hasAudio("out.mp4", in: dir))
        }
    }

    @Test func anInputOptionTheInputDoesNotTakeIsOneLine() throws {
        try withTemporaryDirectory { dir in
            try makeClip("clip.mp4", seconds: 1, in: dir)
            let r = runLayerplay(["clip.mp4", "--input-opt", "no_such_option=1", "-o", "out.mp4"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.mp4"), mentions: ["no_such_option", "--input-opt"])
            // An option it does take is passed on (the mov demuxer's own), and the export goes on.
            expectSuccess(runLayerplay(["clip.mp4", "--input-opt", "ignore_editlist=1", "-o", "ok.mp4"], in: dir))
            expectUsageError(runLayerplay(["clip.mp4", "--input-opt", "novalue", "-o", "bad.mp4"], in: dir))
        }
    }
}
