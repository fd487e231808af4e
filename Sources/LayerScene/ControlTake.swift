import Foundation
import LayerGraphics

/// A take: the live controls of a scene played in a window, each with its tree time, as `--record-controls FILE`
/// writes them and `--replay-controls FILE` applies them to an export (SCENES.md §11). One JSON object a line:
///
/// ```
/// {"command":["scene-set","accent","#ff0000"],"time":2.5166666666666666}
/// ```
///
/// `time` is the scene clock's time when the command ran (the timeline's, `--start` included), written with every
/// digit so that a replay begins the change at the very same time.
public struct ControlTake: Sendable {
    /// One control of a take.
    public struct Event: Codable, Equatable, Sendable {
        /// The scene clock's time of the change, in seconds.
        public var time: Double
        /// The command as an IPC client sends it: `["scene-set", NAME, VALUE]`.
        public var command: [String]

        /// A `scene-set` of `name` to `value` at `time`.
        public init(time: Double, sceneSet name: String, _ value: String) {
            self.time = time; command = ["scene-set", name, value]
        }
    }

    /// The events in the order they are applied: by time, and in the file's order at equal times (a take recorded
    /// across a seek back is replayed along the timeline).
    public let events: [Event]

    /// Reads a take; a line that is not an event is an error naming the file and the line.
    public init(contentsOf path: String) throws(ControlTakeError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ControlTakeError("cannot read '\(path)': \((error as NSError).localizedDescription)")
        }
        var events: [Event] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let event = try? JSONDecoder().decode(Event.self, from: Data(trimmed.utf8)), event.time.isFinite,
                  event.command.count == 3, event.command[0] == "scene-set" else {
                throw ControlTakeError("\(path):\(n + 1): expected {\"time\": SECONDS, \"command\": [\"scene-set\", NAME, VALUE]}, got '\(trimmed.prefix(80))'")
            }
            events.append(event)
        }
        self.events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Checks every event against the scene before an export starts, so that a bad take never leaves a partial
    /// output: each names a param of the scene and gives it a value that parses and that the scene accepts (with the
    /// events before it applied, media not probed). `scenePath` is the scene file as opened; `path` names the take in
    /// the error.
    public func check(against scene: LoadedScene, options: SceneLoadOptions, scenePath: String, path: String) throws(ControlTakeError) {
        var options = options
        options.checkOnly = true
        options.media = nil
        for e in events {
            let name = e.command[1], value = e.command[2], at = "\(path): the scene-set at \(formatNumber(e.time)) s"
            guard let param = scene.params.first(where: { $0.name == name }) else {
                throw ControlTakeError("\(at): '\(name)' is not a param of this scene")
            }
            if case .failure(let failure) = ParamText.parse(value, as: param.kind) { throw ControlTakeError("\(at): '\(name)': \(failure.message)") }
            options.sets.removeAll { $0.name == name }
            options.sets.append((name, value))
            do throws(SceneErrors) { _ = try SceneLoader.load(contentsOf: scenePath, options: options) } catch {
                throw ControlTakeError("\(at): \(error.description)")
            }
        }
    }

    /// Applies to `scene` every event after `applied` up to tree time `time`, each at its own time; returns how many
    /// are applied now. An export calls it before each frame's snapshot.
    public func apply(upTo time: Double, to scene: LiveScene, after applied: Int) throws(SceneSetError) -> Int {
        var n = applied
        while n < events.count, events[n].time <= time {
            let e = events[n]
            try scene.set(e.command[1], e.command[2], at: e.time)
            n += 1
        }
        return n
    }
}

/// Writes a take as the controls happen, a line each, flushed at once (a window closed by a signal keeps every
/// control made before it).
public final class ControlRecorder {
    private let handle: FileHandle
    /// The file the take goes to.
    public let path: String

    /// Creates (or empties) `path`.
    public init(path: String) throws(ControlTakeError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ControlTakeError("cannot write the take '\(path)'")
        }
        self.path = path
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Appends `event` as one line.
    public func record(_ event: ControlTake.Event) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(event) else { return }
        line.append(0x0A)
        // A full disk loses the take, not the playback.
        try? handle.write(contentsOf: line)
    }
}

/// A take that cannot be read or written.
public struct ControlTakeError: Error, CustomStringConvertible, Sendable {
    /// One line: the file (and line) and what was wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
