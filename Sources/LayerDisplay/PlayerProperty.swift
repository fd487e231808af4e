import Foundation

/// A property's value as the JSON IPC carries it (mpv's node types: flag, number, string, none).
public enum PropertyValue: Equatable, Sendable, CustomStringConvertible {
    /// A yes or no (mpv's flag: `pause`, `mute`).
    case flag(Bool)
    /// A real number (`time-pos`, `speed`).
    case number(Double)
    /// A whole number (`playlist-pos`, `chapter`).
    case integer(Int)
    /// Text (`filename`).
    case string(String)
    /// mpv's `null`: no value (no subtitle track, say).
    case null

    /// The value for `JSONSerialization`.
    public var jsonObject: Any {
        switch self {
        case .flag(let b): return b
        case .number(let d): return d
        case .integer(let i): return i
        case .string(let s): return s
        case .null: return NSNull()
        }
    }

    /// A value decoded by `JSONSerialization` (a bool, a number, a string or null); nil for arrays and objects.
    public init?(json: Any) {
        switch json {
        case is NSNull: self = .null
        case let n as NSNumber where n.isJSONBool: self = .flag(n.boolValue)
        case let n as NSNumber: self = .number(n.doubleValue)
        case let s as String: self = .string(s)
        default: return nil
        }
    }

    /// A value written as text (an input.conf `set` line, a command's argument): yes/no, a number, or a string.
    public init(text: String) {
        switch text {
        case "yes", "true": self = .flag(true)
        case "no", "false": self = .flag(false)
        default: self = PlayerCommand.number(text).map(PropertyValue.number) ?? .string(text)
        }
    }

    /// The value as a number (flags as 0/1), or nil.
    var double: Double? {
        switch self {
        case .number(let d): return d
        case .integer(let i): return Double(i)
        case .flag(let b): return b ? 1 : 0
        case .string(let s): return PlayerCommand.number(s)
        case .null: return nil
        }
    }

    /// The value as a flag (yes/no strings too), or nil.
    var bool: Bool? {
        switch self {
        case .flag(let b): return b
        case .string("yes"): return true
        case .string("no"): return false
        case .number(let d) where d == 0 || d == 1: return d == 1
        case .integer(let i) where i == 0 || i == 1: return i == 1
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .flag(let b): return b ? "yes" : "no"
        case .number(let d): return String(format: "%g", d)
        case .integer(let i): return "\(i)"
        case .string(let s): return s
        case .null: return "no"
        }
    }
}

/// Why a command or a property access failed, in mpv's words (`error` of a JSON IPC reply) with the detail a person
/// reads (the OSD, a warning).
public struct CommandError: Error, Equatable, CustomStringConvertible {
    /// mpv's error string: "property not found", "property unavailable", "invalid parameter",
    /// "unsupported format for accessing property", "error running command".
    public let mpvError: String
    /// What went wrong, in words a person reads (the OSD, a warning).
    public let detail: String
    /// An error with mpv's error string and our own words for it.
    public init(_ mpvError: String, _ detail: String) { self.mpvError = mpvError; self.detail = detail }
    public var description: String { detail }

    static func notFound(_ name: String) -> CommandError { CommandError("property not found", "no property '\(name)'") }
    static func readOnly(_ name: String) -> CommandError { CommandError("unsupported format for accessing property", "'\(name)' cannot be set") }
    static func badValue(_ name: String, _ value: PropertyValue, _ expected: String) -> CommandError {
        CommandError("unsupported format for accessing property", "'\(name)' takes \(expected), not '\(value)'")
    }
}

/// One entry of the property table (`PlaybackSession.properties`): how to read it, set it and cycle it, and what the
/// on-screen display says after a key changed it. Keys (`cycle`, `add`, `set`), input.conf and the IPC's
/// `get_property`/`set_property`/`observe_property` all go through this table.
struct PlayerProperty: Sendable {
    /// The value now; nil: unavailable (no sound for `volume`, say).
    let get: @Sendable (PlaybackSession) -> PropertyValue?
    /// Sets it; nil: read-only.
    var set: (@Sendable (PlaybackSession, PropertyValue) throws(CommandError) -> Void)?
    /// Moves a choice (a track, a mode) to its next value (previous when `down`); nil: a flag toggles, a number
    /// cannot be cycled.
    var cycle: (@Sendable (PlaybackSession, _ down: Bool) throws(CommandError) -> Void)?
    /// The OSD's message after a key changed it (nil: nothing shown).
    var osd: (@Sendable (PlaybackSession) -> String?)?
    /// The smallest and largest values a number takes (`add`/`multiply`/`set` clamp to them).
    var range: ClosedRange<Double>?
}

extension NSNumber {
    /// Whether JSONSerialization made this number of a JSON `true` or `false` (its type is C's char), not of 0 or 1.
    var isJSONBool: Bool { String(cString: objCType) == "c" }
}
