import Foundation
@testable import LayerDisplay
import Testing
import TestSupport

/// The JSON IPC's reads answered on the socket's thread (PlayerIPC+Reads.swift, issue 30 item 9): here no session's
/// loop serves the socket at all (the test is the loop, and it is busy), yet reads are answered from what the last
/// turn published, and a read sent after a command waits for the loop to carry the command out first.
@Suite("IPC reads", .serialized)
struct IPCReadsTests {
    /// A player's socket in a fresh directory, a client connected to it, and the first turn published.
    private func connected(_ body: (PlayerIPC, IPCClient) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ipc-reads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ipc = try PlayerIPC(path: dir.appendingPathComponent("s").path)
        defer { ipc.stop() }
        let client = try IPCClient(path: dir.appendingPathComponent("s").path)
        // The loop publishes only while someone is connected: wait for the server to have seen the client.
        let deadline = Date().addingTimeInterval(5)
        while ipc.server.clients.isEmpty && Date() < deadline { usleep(1000) }
        try body(ipc, client)
    }

    private static let turn: [String: PropertyValue?] = ["time-pos": .number(1.5), "pause": .flag(false), "volume": nil,
                                                         "filename": .string("clip.mp4")]

    @Test func readsAreAnsweredWhileTheLoopIsBusy() throws {
        try connected { ipc, client in
            ipc.finishTurn(after: []) { Self.turn }
            let position = try client.ask(["get_property", "time-pos"])
            #expect(position["error"] as? String == "success" && position["data"] as? Double == 1.5, "\(position)")
            #expect(try client.ask(["get_property_string", "pause"])["data"] as? String == "no")
            #expect(try client.ask(["get_property", "volume"])["error"] as? String == "property unavailable")
            #expect((try client.ask(["get_property", "property-list"])["data"] as? [String])?.contains("time-pos") == true)
            // Observing sends the value now, after the reply.
            let observed = try client.ask(["observe_property", 3, "filename"])
            #expect(observed["error"] as? String == "success")
            let change = try client.event { $0["event"] as? String == "property-change" }
            #expect(change["id"] as? Int == 3 && change["data"] as? String == "clip.mp4", "\(change)")
            // Nothing of this reached the loop's inbox.
            #expect(ipc.server.takeRequests().isEmpty)
        }
    }

    @Test func aReadAfterACommandWaitsForTheLoopToCarryItOut() throws {
        try connected { ipc, client in
            ipc.finishTurn(after: []) { Self.turn }
            try client.send(#"{"command": ["seek", 3, "absolute"], "request_id": 1}"#)
            try client.send(#"{"command": ["get_property", "time-pos"], "request_id": 2}"#)
            // Both wait for the loop, in order: the read would otherwise say 1.5, the position before the seek.
            var queued: [IPCServer.Request] = []
            let deadline = Date().addingTimeInterval(5)
            while queued.count < 2 && Date() < deadline { queued += ipc.server.takeRequests(); usleep(1000) }
            #expect(queued.map(\.line).map { $0.contains("seek") } == [true, false], "\(queued.map(\.line))")
            #expect(queued.map(\.sequence) == [1, 2])
            // The loop carried them out and published; reads are answered at once again.
            var after = Self.turn
            after["time-pos"] = .number(3)
            ipc.finishTurn(after: queued) { after }
            #expect(try client.ask(["get_property", "time-pos"])["data"] as? Double == 3)
            #expect(ipc.server.takeRequests().isEmpty)
        }
    }
}
