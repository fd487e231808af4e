import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why an `IPCClient` call failed.
public struct IPCClientError: Error, CustomStringConvertible {
    public let description: String
}

/// A raw Unix socket client speaking newline-delimited JSON.
public final class IPCClient {
    private let fd: Int32
    private var pending = [UInt8]()
    /// Lines received but not yet asked for (events while waiting for a reply).
    private var backlog: [[String: Any]] = []

    /// Connects to the socket at `path` (replies are waited for 10 s at most).
    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { close(fd); throw IPCClientError(description: "cannot connect to \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends one line.
    public func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw IPCClientError(description: "send failed") }
    }

    private var nextID = 1000
    /// Sends `command` with a new request_id and returns its reply.
    public func ask(_ command: [Any]) throws -> [String: Any] {
        nextID += 1
        return try request(["command": command, "request_id": nextID])
    }

    /// Sends a request and returns the reply with its request_id (events meanwhile are kept for `event`).
    public func request(_ object: [String: Any]) throws -> [String: Any] {
        try send(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        let id = object["request_id"] as? Int
        return try event { $0["request_id"] as? Int == id && $0["event"] == nil }
    }

    /// The first line (received now or before) that `matches`.
    public func event(_ matches: ([String: Any]) -> Bool) throws -> [String: Any] {
        if let i = backlog.firstIndex(where: matches) { return backlog.remove(at: i) }
        while true {
            let object = try readLine()
            if matches(object) { return object }
            backlog.append(object)
        }
    }

    private func readLine() throws -> [String: Any] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw IPCClientError(description: "not a JSON object: \(String(decoding: line, as: UTF8.self))")
                }
                return object
            }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { throw IPCClientError(description: "the socket closed or timed out") }
            pending += buffer[0..<n]
        }
    }
}
