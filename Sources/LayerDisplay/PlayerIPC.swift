import Foundation
import LayerMedia

/// mpv's JSON IPC on `--input-ipc-server PATH` (the protocol mpv's clients speak: python-mpv-jsonipc, mpv.el, the
/// media-server shims): each line a JSON object `{"command": [NAME, ARG…], "request_id": N}`, answered by
/// `{"request_id": N, "error": "success", "data": …}`; `get_property`, `set_property`, `observe_property` (then
/// `property-change` events), and every command of the vocabulary (`PlayerCommand`) with the same names. A line that
/// is not JSON is read as an input.conf command (as mpv does). It outlives a session: a playlist's items are played
/// by one session each, and clients and their observers stay connected across them. Reads are answered on the
/// socket's thread from the values the loop publishes each turn (PlayerIPC+Reads.swift); the rest on the loop's.
public final class PlayerIPC {
    let server: IPCServer
    private let published: PublishedProperties
    /// The sequence of the last queued line carried out (`IPCServer.Request.sequence`).
    private var applied = 0
    private var lastCheck = -Double.infinity
    /// The least wall time between two looks at the observed properties (time-pos changes continuously).
    static let observeInterval = 0.05

    /// Listens on `path` (errors as `IPCServer.init` says).
    public init(path: String) throws {
        let published = PublishedProperties()
        self.published = published
        server = try IPCServer(path: path) { server, request, queued in
            published.answerAtOnce(request, queued: queued, on: server)
        }
    }

    /// Stops listening and removes the socket.
    public func stop() { server.stop() }

    /// Sends an event to every client: `{"event": NAME, …fields}`.
    public func event(_ name: String, _ fields: [String: Any] = [:]) {
        var object = fields
        object["event"] = name
        guard let line = Self.json(object) else { return }
        for client in server.clients { server.send(line, to: client) }
    }

    /// Answers what arrived since the last turn, publishes the properties for the reads answered at once, then tells
    /// observers what changed (on the session's thread).
    func serve(_ session: PlaybackSession) {
        let requests = server.takeRequests()
        for request in requests { answer(request, session) }
        finishTurn(after: requests) { PlaybackSession.properties.mapValues { $0.get(session) } }
    }

    /// After the loop carried out `requests`: publishes the properties' values (`values`, taken only while someone is
    /// connected: a client that connects later has its first reads queued until the next turn) and tells observers.
    func finishTurn(after requests: [IPCServer.Request], values: () -> [String: PropertyValue?]) {
        if let last = requests.last { applied = last.sequence }
        let turn = server.clients.isEmpty ? nil : PublishedProperties.Values(values: values(), applied: applied)
        published.publish(turn)
        if let turn { notifyObservers(turn, force: !requests.isEmpty) }
    }

    /// The session stops playing: reads wait for the next one (a playlist's next item) rather than read the old one's.
    func sessionEnded() { published.publish(nil) }

    /// A line of the JSON IPC, parsed: a request, or what is wrong with it.
    enum ParsedLine {
        case request(id: Int?, name: String, args: [Any])
        case invalid(id: Int?, detail: String)
    }

    /// Parses a JSON line (nil: not JSON, an input.conf line).
    static func parse(_ line: String) -> ParsedLine? {
        guard line.hasPrefix("{") else { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            return .invalid(id: nil, detail: "not a JSON object")
        }
        var id: Int?
        if let raw = object["request_id"] {
            guard let n = raw as? NSNumber, !n.isJSONBool, n.doubleValue == n.doubleValue.rounded() else {
                return .invalid(id: nil, detail: "request_id must be an integer")
            }
            id = n.intValue
        }
        guard let words = object["command"] as? [Any], let name = words.first as? String else {
            return .invalid(id: id, detail: "command must be an array starting with a name")
        }
        return .request(id: id, name: name, args: Array(words.dropFirst()))
    }

    private func answer(_ request: IPCServer.Request, _ session: PlaybackSession) {
        switch Self.parse(request.line) {
        case nil:
            // mpv's text commands: input.conf syntax, no reply.
            if let command = try? PlayerCommand(line: request.line) { try? session.execute(command) }
        case .invalid(let id, let detail)?:
            reply(request.client, id: id, error: "invalid parameter", detail: detail)
        case .request(let id, let name, let args)?:
            do {
                let data = try run(name, args, client: request.client, session)
                reply(request.client, id: id, data: data)
            } catch {
                reply(request.client, id: id, error: error.mpvError, detail: error.detail)
            }
        }
    }

    /// Carries out one request; its `data` (nil: none).
    private func run(_ name: String, _ args: [Any], client: Int, _ session: PlaybackSession) throws(CommandError) -> Any? {
        func text(_ i: Int) throws(CommandError) -> String {
            guard i < args.count, let s = args[i] as? String else { throw CommandError("invalid parameter", "'\(name)' wants a name as argument \(i + 1)") }
            return s
        }
        func integer(_ i: Int) throws(CommandError) -> Int {
            guard i < args.count, let n = args[i] as? NSNumber, !n.isJSONBool else {
                throw CommandError("invalid parameter", "'\(name)' wants a number as argument \(i + 1)")
            }
            return n.intValue
        }
        switch name {
        case "get_property":
            let property = try text(0)
            switch property {
            case "property-list": return PlaybackSession.properties.keys.sorted()
            case "command-list": return Self.commandNames.map { ["name": $0] }
            case "scene-params": // ours: a node, as mpv's structured properties are
                guard let params = session.sceneParams else { throw CommandError("property unavailable", "no scene is playing") }
                return params()
            default: return try session.getProperty(property).jsonObject
            }
        case "get_property_string":
            return try session.getProperty(try text(0)).description
        case "set_property", "set_property_string":
            guard args.count == 2, let value = PropertyValue(json: args[1]) else {
                throw CommandError("invalid parameter", "set_property wants a name and a value")
            }
            try session.setProperty(try text(0), name == "set_property_string" ? PropertyValue(text: value.description) : value)
            return nil
        case "observe_property", "observe_property_string":
            let id = try integer(0), property = try text(1)
            _ = try PlaybackSession.property(property) // an unknown name is an error now, not silence later
            // Its value follows at the next look (the loop's `notifyObservers`, forced by this request).
            published.observers.withLock { $0.append(PublishedProperties.Observer(client: client, id: id, name: property, last: nil)) }
            return nil
        case "unobserve_property":
            let id = try integer(0)
            published.observers.withLock { $0.removeAll { $0.client == client && $0.id == id } }
            return nil
        case "client_name": return "ipc-\(client)"
        case "get_version": return 0x0002_0000
        case "enable_event", "disable_event", "request_log_messages", "get_time_us":
            return name == "get_time_us" ? Int(Date().timeIntervalSince1970 * 1e6) : nil
        default:
            let command: PlayerCommand
            do { command = try PlayerCommand(words: [name] + args.map(Self.word)) } catch {
                throw CommandError("invalid parameter", error.description)
            }
            try session.execute(command)
            return nil
        }
    }

    /// An argument of a JSON command as the word input.conf would have (numbers without a needless ".0", flags as
    /// yes/no).
    private static func word(_ value: Any) -> String {
        if let n = value as? NSNumber {
            if n.isJSONBool { return n.boolValue ? "yes" : "no" }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        }
        return "\(value)"
    }

    /// The commands a client may send, for `command-list`.
    static let commandNames = ["cycle", "add", "multiply", "set", "seek", "frame-step", "frame-back-step", "screenshot",
                               "screenshot-to-file", "ab-loop", "playlist-next", "playlist-prev", "loadfile", "show-text",
                               "show-progress", "keypress", "quit", "quit-watch-later", "scene-set", "get_property", "set_property",
                               "observe_property", "unobserve_property"]

    /// Sends each observer its property's value where it changed since the last it was sent (the published values).
    private func notifyObservers(_ published: PublishedProperties.Values, force: Bool) {
        let now = hostSeconds()
        guard force || now - lastCheck >= Self.observeInterval else { return }
        lastCheck = now
        let connected = Set(server.clients)
        let server = self.server
        self.published.observers.withLock { observers in
            observers.removeAll { !connected.contains($0.client) }
            for i in observers.indices {
                let value = published.values[observers[i].name] ?? nil
                if let last = observers[i].last, last == value { continue }
                observers[i].last = .some(value)
                Self.sendChange(server, client: observers[i].client, id: observers[i].id, name: observers[i].name, value: value)
            }
        }
    }

    /// A `property-change` event for one observer (no `data`: unavailable).
    static func sendChange(_ server: IPCServer, client: Int, id: Int, name: String, value: PropertyValue?) {
        var event: [String: Any] = ["event": "property-change", "id": id, "name": name]
        if let value { event["data"] = value.jsonObject }
        if let line = json(event) { server.send(line, to: client) }
    }

    private func reply(_ client: Int, id: Int?, data: Any? = nil, error: String = "success", detail: String? = nil) {
        Self.reply(server, client, id: id, data: data, error: error, detail: detail)
    }

    /// A reply in mpv's form: `{"request_id": N, "error": "success", "data": …}` (with `message` on an error).
    static func reply(_ server: IPCServer, _ client: Int, id: Int?, data: Any? = nil, error: String = "success", detail: String? = nil) {
        var object: [String: Any] = ["error": error]
        if let id { object["request_id"] = id }
        if let data { object["data"] = data } else if error == "success" { object["data"] = NSNull() }
        if let detail { object["message"] = detail }
        if let line = json(object) { server.send(line, to: client) }
    }

    private static func json(_ object: [String: Any]) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
