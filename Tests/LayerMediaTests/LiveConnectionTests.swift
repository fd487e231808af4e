import CFFmpeg
import Foundation
@testable import LayerMedia
import Testing
import TestSupport

/// A live connection's readers (`LiveConnection`): one reader that stops reading costs its own oldest packets, never
/// memory without limit, and never the other reader its packets.
@Suite("Live connection queues", .serialized)
struct LiveConnectionTests {
    @Test func aStalledReaderKeepsABoundedQueueAndTheOtherGetsEverything() throws {
        try withTemporaryDirectory { dir in
            let port = 20_000 + Int.random(in: 0..<20_000)
            // 30 s of a small picture with sound sent as fast as ffmpeg makes it (no -re): far more packets than a
            // queue holds. It starts a second after the open below begins listening.
            let publisher = Process()
            publisher.executableURL = URL(fileURLWithPath: "/bin/bash")
            publisher.arguments = ["-c", "sleep 1; ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=64x48:rate=25 -f lavfi -i sine "
                                   + "-t 30 -c:v mpeg2video -c:a mp2 -f mpegts 'udp://127.0.0.1:\(port)?pkt_size=1316'"]
            publisher.currentDirectoryURL = dir
            try publisher.run()
            defer { if publisher.isRunning { publisher.terminate() }; publisher.waitUntilExit() }
            let saved = InputSettings.current
            var settings = saved
            settings.timeout = 3
            InputSettings.current = settings
            defer { InputSettings.current = saved }
            let url = "udp://127.0.0.1:\(port)?fifo_size=1000000&buffer_size=4000000"
            let reader = try FFmpegFormat(path: url)
            let stalled = try FFmpegFormat(path: url)
            #expect(reader.live != nil && reader.live === stalled.live, "one connection for both")
            let packet = av_packet_alloc()!
            defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
            // The stalled reader takes one packet (its queue starts) and then nothing more.
            #expect(stalled.readFrame(packet) == 0)
            av_packet_unref(packet)
            var read = 0
            while reader.readFrame(packet) == 0 { read += 1; av_packet_unref(packet) }
            let capacity = LiveConnection.queueCapacity
            #expect(read > 2 * capacity, "the reader got \(read) packets")
            // The stalled one holds at most a queue's worth; the rest were dropped, oldest first.
            var left = 0
            while stalled.readFrame(packet) == 0 { left += 1; av_packet_unref(packet) }
            #expect(left == capacity, "\(left) packets were queued for the stalled reader")
            #expect(reader.live!.dropped >= read - capacity - 1, "\(reader.live!.dropped) dropped of \(read)")
        }
    }
}
