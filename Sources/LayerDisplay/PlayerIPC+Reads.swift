import Foundation
import LayerGraphics

/// The reads of the JSON IPC answered on the socket's own thread (issue 30, item 9: a round trip under 5 ms while
/// playing). The session's loop serves the socket once a turn, and a turn can wait on a frame's upload; so each turn it
/// also publishes every property's value (`PublishedProperties`), and `get_property`, `get_property_string` and
/// `observe_property` are answered from those at once. Commands, which change the state, still go to the loop
/// through the inbox: one command vocabulary (`PlayerCommand`), whatever sent it.
///
/// A read must see every command sent before it (a `seek`, then `time-pos`): it is answered at once only when the
/// values were published after the loop carried out every line queued so far; otherwise it is queued behind them and
/// the loop answers it in turn, as it answers everything else.
final class PublishedProperties: Sendable {
    /// What a turn of the loop published.
    struct Values: Sendable {
        /// Every property of the table (`PlaybackSession.properties`); nil: unavailable now.
        let values: [String: PropertyValue?]
        /// The `IPCServer.Request.sequence` of the last queued line carried out before these values were taken.
        let applied: Int
    }

    /// One `observe_property`: who asked, under which id, and the value it was last sent (none yet: `.none`).
    struct Observer: Sendable { let client: Int; let id: Int; let name: String; var last: PropertyValue?? }

    private let published = Guarded<Values?>(nil)
    /// The observers, read and changed by both threads; events are sent holding it, so that an observer's first value
    /// (sent by the socket's thread) always comes before a change (sent by the loop).
    let observers = Guarded<[Observer]>([])

    /// Publishes a turn's values; nil: none to read (no session plays, or nobody is connected).
    func publish(_ values: Values?) { published.withLock { $0 = values } }

    /// The values, when they reflect every line queued so far (`queued`), else nil.
    func current(queued: Int) -> Values? {
        published.withLock { v in v.flatMap { $0.applied == queued ? $0 : nil } }
    }

    /// Answers `request` on the socket's thread when it is a read that the published values can answer; false:
    /// queue it for the loop.
    func answerAtOnce(_ request: IPCServer.Request, queued: Int, on server: IPCServer) -> Bool {
        guard request.line.hasPrefix("{"), let values = current(queued: queued),
              case .request(let id, let name, let args)? = PlayerIPC.parse(request.line) else { return false }
        func reply(_ data: Any?) { PlayerIPC.reply(server, request.client, id: id, data: data) }
        func fail(_ error: CommandError) { PlayerIPC.reply(server, request.client, id: id, error: error.mpvError, detail: error.detail) }
        switch name {
        case "get_property", "get_property_string":
            guard args.count == 1, let property = args[0] as? String else { return false } // the loop says what is wrong
            if name == "get_property" && property == "property-list" { reply(PlaybackSession.properties.keys.sorted()); return true }
            if name == "get_property" && property == "command-list" { reply(PlayerIPC.commandNames.map { ["name": $0] }); return true }
            // Not in the table (`scene-params`, a name that does not exist): the loop's, which says which.
            guard let known = values.values[property] else { return false }
            guard let value = known else { fail(CommandError("property unavailable", "'\(property)' is unavailable")); return true }
            reply(name == "get_property" ? value.jsonObject : value.description)
            return true
        case "observe_property", "observe_property_string":
            guard args.count >= 2, let n = args[0] as? NSNumber, !n.isJSONBool, let property = args[1] as? String,
                  let value = values.values[property] else { return false } // the loop says what is wrong
            observers.withLock { list in
                list.append(Observer(client: request.client, id: n.intValue, name: property, last: .some(value)))
                reply(nil)
                PlayerIPC.sendChange(server, client: request.client, id: n.intValue, name: property, value: value)
            }
            return true
        default:
            return false
        }
    }
}
