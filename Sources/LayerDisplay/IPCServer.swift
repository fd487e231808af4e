import Foundation
import LayerGraphics
#if canImport(Glibc)
import Glibc
#endif

/// The listening end of `--input-ipc-server PATH`: a Unix socket whose clients send lines (mpv's JSON IPC, one JSON
/// object a line) and receive lines.
///
/// A small POSIX loop on one thread of its own (poll over the listening socket, the clients and a wake pipe) rather
/// than swift-nio: a handful of local clients sending short lines needs no event-loop group. A line that changes
/// something must be carried out on the session's thread (SDL and the tree live there), so the thread reads lines into
/// an inbox that the session drains each turn of its loop; a line that only reads may be answered on this thread at
/// once (`answersAtOnce`), so that a read never waits for a frame being shown. Replies and events are written from
/// either thread, a whole line at a time.
public final class IPCServer: @unchecked Sendable { // mutable state in `state`; descriptors fixed after init
    /// A line read from a client, and which client.
    public struct Request: Sendable {
        /// The client's number on this server, to reply to.
        public let client: Int
        /// The line it sent, without its newline.
        public let line: String
        /// How many lines were put in the inbox before this one, plus one: this line's place in the order the
        /// session carries them out (0 for a line answered at once, which never enters the inbox).
        public let sequence: Int
    }

    /// The Unix socket's path.
    public let path: String
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private struct State {
        var clients: [Int: Int32] = [:]   // client id → descriptor
        var partial: [Int: [UInt8]] = [:] // bytes after a client's last newline
        var inbox: [Request] = []
        /// Lines put in the inbox so far (written by the reading thread only).
        var queued = 0
        var nextID = 1
        var closed = false
    }
    private let state = Guarded(State())
    private let done = DispatchSemaphore(value: 0)
    /// Signalled for each line read, so that a waiting session wakes to answer it at once.
    private let arrived = DispatchSemaphore(value: 0)
    /// The longest line taken (a client sending more without a newline is dropped: it is not speaking the protocol).
    static let maximumLine = 1 << 20
    /// Called on the reading thread with each line and the number of lines put in the inbox so far: true when it
    /// answered the line itself (then the line does not enter the inbox). Lines of one client reach it in order.
    private let answersAtOnce: (@Sendable (IPCServer, Request, _ queued: Int) -> Bool)?
    /// Held while a line is written, so that a reply from the reading thread and one from the session's never mix.
    private let writing = Guarded(())

    /// Listens at `path`. A path that exists and is not a socket is refused (never deleted); a socket nobody
    /// answers on (left by a player that died) is replaced; one a running player answers on is refused.
    /// `answersAtOnce` may answer a line on the reading thread instead of queueing it for `takeRequests()`.
    public init(path: String, answersAtOnce: (@Sendable (IPCServer, Request, _ queued: Int) -> Bool)? = nil) throws {
        self.path = path
        self.answersAtOnce = answersAtOnce
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & 0o170000 == 0o140000 else { // S_IFMT, S_IFSOCK
                throw DisplayError("--input-ipc-server: '\(path)' exists and is not a socket; choose another path")
            }
            if Self.answers(path) { throw DisplayError("--input-ipc-server: another player listens on '\(path)'") }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DisplayError("--input-ipc-server: cannot make a socket: \(String(cString: strerror(errno)))") }
        // Bound and listening under a name of its own first, then renamed into place: a client that sees the path
        // can connect at once (between bind and listen it would be refused).
        let staging = path + ".\(getpid()).listening"
        guard Self.address(path) != nil, var address = Self.address(staging) else {
            close(fd)
            throw DisplayError("--input-ipc-server: the path '\(path)' is too long for a socket (at most 107 bytes less a suffix)")
        }
        unlink(staging)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0, rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(staging)
            throw DisplayError("--input-ipc-server: cannot listen on '\(path)': \(reason)")
        }
        listener = fd
        var pipeEnds: [Int32] = [0, 0]
        _ = pipe(&pipeEnds)
        wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.ipc"
        thread.start()
    }

    deinit { stop() }

    /// Stops listening, closes every client and removes the socket file; safe to call twice.
    public func stop() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        var byte: UInt8 = 0
        _ = write(wake.write, &byte, 1)
        done.wait()
        for fd in state.withLock({ Array($0.clients.values) }) { close(fd) }
        close(listener)
        close(wake.read)
        close(wake.write)
        unlink(path)
    }

    /// Waits up to `seconds` for a line to arrive (the session's pause between turns of its loop): a request is
    /// answered at once rather than after the pause.
    public func wait(seconds: Double) {
        _ = arrived.wait(timeout: .now() + seconds)
    }

    /// The lines read since the last call, in order.
    public func takeRequests() -> [Request] {
        state.withLock { s in
            defer { s.inbox.removeAll() }
            return s.inbox
        }
    }

    /// Writes `line` and a newline to a client (nothing if it has gone). A client that does not read for a second
    /// is dropped rather than stalling the player.
    public func send(_ line: String, to client: Int) {
        guard let fd = state.withLock({ $0.clients[client] }) else { return }
        let bytes = Array((line + "\n").utf8)
        let sent = writing.withLock { _ -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        if !sent { drop(client) }
    }

    /// The clients connected now.
    public var clients: [Int] { state.withLock { Array($0.clients.keys).sorted() } }

    private func drop(_ client: Int) {
        // The reading thread closes the descriptor when it sees the hang-up; shutting it down wakes that thread.
        if let fd = state.withLock({ $0.clients[client] }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    // MARK: The thread

    private func run() {
        defer { done.signal() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let clients = state.withLock { $0.clients }
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let ids = Array(clients.keys)
            for id in ids { fds.append(pollfd(fd: clients[id]!, events: Int16(POLLIN), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 || state.withLock({ $0.closed }) { return }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let fd = accept(listener, nil, nil)
                if fd >= 0 {
                    var timeout = timeval(tv_sec: 1, tv_usec: 0)
                    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    state.withLock { s in s.clients[s.nextID] = fd; s.nextID += 1 }
                }
            }
            for (index, id) in ids.enumerated() where fds[index + 2].revents != 0 {
                let fd = fds[index + 2].fd
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 {
                    state.withLock { s in s.clients[id] = nil; s.partial[id] = nil }
                    close(fd)
                    continue
                }
                receive(Array(buffer[0..<n]), from: id, fd: fd)
            }
        }
    }

    /// Splits what a client sent into lines, keeping an unfinished line for next time; each line is answered at once
    /// or put in the inbox, in order.
    private func receive(_ bytes: [UInt8], from id: Int, fd: Int32) {
        let (lines, tooLong) = state.withLock { s -> ([String], Bool) in
            var pending = s.partial[id, default: []] + bytes
            var lines: [String] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !line.isEmpty { lines.append(line) }
                pending.removeSubrange(...newline)
            }
            s.partial[id] = pending
            return (lines, pending.count > Self.maximumLine)
        }
        var queuedAny = false
        for line in lines {
            // Outside the lock: answering sends, which takes it. Only this thread adds to `queued`.
            let queued = state.withLock { $0.queued }
            if let answersAtOnce, answersAtOnce(self, Request(client: id, line: line, sequence: 0), queued) { continue }
            state.withLock { s in
                s.queued += 1
                s.inbox.append(Request(client: id, line: line, sequence: s.queued))
            }
            queuedAny = true
        }
        if tooLong { shutdown(fd, Int32(SHUT_RDWR)) }
        if queuedAny { arrived.signal() }
    }

    // MARK: Socket addresses

    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return address
    }

    /// Whether something accepts connections at `path`.
    private static func answers(_ path: String) -> Bool {
        guard var address = address(path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
