import CFFmpeg
import CShims
import Foundation

/// Reads the packets of one stream of a container on a dedicated thread into a bounded queue, so that
/// reading (disk, network) overlaps decoding. Seeks are carried out on that thread and empty the queue.
///
/// After `init`, only the demux thread touches the container; stream fields that never change (time base,
/// parameters) may still be read elsewhere.
final class Demuxer: @unchecked Sendable { // state guarded by `condition`
    private let format: FFmpegFormat
    private let stream: Int32
    private let capacity: Int
    private let condition = NSCondition()
    /// Held while the container is read or sought, and by `withContainerLocked`.
    private let containerLock = NSLock()
    private var queue: [UnsafeMutablePointer<AVPacket>] = []
    private var atEnd = false
    private var stopped = false
    private var seekRequest: Double?
    private var seekResult: Bool?
    private var threadDone = false

    init(format: FFmpegFormat, stream: Int, capacity: Int = 48) {
        self.format = format
        self.stream = Int32(stream)
        self.capacity = capacity
        format.reads(only: stream)
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.demux"
        thread.start()
    }

    deinit {
        stop()
        for p in queue { var p: UnsafeMutablePointer<AVPacket>? = p; av_packet_free(&p) }
    }

    /// Ends the thread and waits for it (it may be inside a read), so the container can be closed safely.
    func stop() {
        format.watchdog.stop()  // a read waiting on a silent server gives up now
        condition.lock()
        stopped = true
        condition.broadcast()
        while !threadDone { condition.wait() }
        condition.unlock()
    }

    /// The next packet of the stream, owned by the caller (free it with `av_packet_free`); nil at the end.
    func nextPacket() -> UnsafeMutablePointer<AVPacket>? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !atEnd && !stopped { condition.wait() }
        guard !queue.isEmpty else { return nil }
        let packet = queue.removeFirst()
        condition.broadcast()
        return packet
    }

    /// Runs `body` while the demux thread is neither reading nor seeking (to look at the container's index).
    func withContainerLocked<T>(_ body: () -> T) -> T {
        containerLock.lock()
        defer { containerLock.unlock() }
        return body()
    }

    /// Moves reading back to the keyframe at or before `seconds` and forgets queued packets; false when the
    /// container cannot seek by time (then it went back to the start by bytes).
    func seek(to seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        for p in queue { var p: UnsafeMutablePointer<AVPacket>? = p; av_packet_free(&p) }
        queue.removeAll()
        seekResult = nil
        seekRequest = seconds
        condition.broadcast()
        while seekResult == nil && !threadDone { condition.wait() }
        return seekResult ?? false
    }

    private func run() {
        condition.lock()
        defer {
            threadDone = true
            condition.broadcast()
            condition.unlock()
        }
        while !stopped {
            if let target = seekRequest {
                seekRequest = nil
                condition.unlock()
                containerLock.lock()
                let ok = format.seek(stream: Int(stream), to: target)
                if !ok { avformat_seek_file(format.context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE) }
                containerLock.unlock()
                condition.lock()
                atEnd = false
                seekResult = ok
                condition.broadcast()
                continue
            }
            if atEnd || queue.count >= capacity { condition.wait(); continue }
            condition.unlock()
            let packet = readPacket()
            condition.lock()
            if seekRequest != nil {
                // Read before the seek: belongs to the old position.
                var stale = packet
                av_packet_free(&stale)
                continue
            }
            if let packet { queue.append(packet) } else { atEnd = true }
            condition.broadcast()
        }
    }

    /// The next packet of our stream from the container, or nil at its end (or a read error).
    private func readPacket() -> UnsafeMutablePointer<AVPacket>? {
        containerLock.lock()
        defer { containerLock.unlock() }
        while true {
            let (read, status) = PacketReading.next { format.readFrame($0) }
            guard let packet = read else {
                // The end is the end; anything else (a cut connection, a timeout) is said once by the host.
                if status != lp_averror_eof() && !format.watchdog.isCancelled && !format.location.isFile {
                    InputFailures.record(format.failure("reading '\(format.path)' failed", status).description)
                }
                return nil
            }
            if packet.pointee.stream_index == stream { return packet }
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
        }
    }
}
