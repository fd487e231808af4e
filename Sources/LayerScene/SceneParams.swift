import Foundation
import LayerGraphics

/// A declared scene parameter (SCENES.md §5).
public struct SceneParam: Sendable {
    /// A param's `type` (SCENES.md §5).
    public enum Kind: Sendable, Equatable {
        /// A number (`min`/`max` apply).
        case number
        /// A whole number (`min`/`max` apply).
        case integer
        /// `true` or `false`.
        case bool
        /// Any text.
        case string
        /// A colour (CSS name, `#rrggbb`…).
        case color
        /// A time (`"2.5s"`, `"1:02"`…), in seconds.
        case time
        /// An angle, in degrees unless a unit is given.
        case angle
        /// `[x, y]`, or `X,Y` on the command line.
        case point
        /// `[w, h]` or `"WxH"`.
        case size
        /// `[x, y, z]`, or `X,Y,Z` on the command line.
        case vector
        /// A media file (video, still or sound), made an input.
        case media
        /// An image file.
        case image
        /// Any file (a subtitle file, another scene).
        case file
        /// One of `values` (`"enum"` in a file).
        case `enumeration`
        /// `{width, color}`, or `W[:COLOR]` on the command line.
        case border
        /// `{radius, opacity, offset}`, or `R[:OPACITY[:DX,DY]]` on the command line.
        case shadow
        /// `list:T`: several values of one kind, comma-separated or repeated on the command line.
        indirect case list(Kind)

        static let names: [String: Kind] = [
            "number": .number, "integer": .integer, "bool": .bool, "string": .string, "color": .color, "time": .time,
            "angle": .angle, "point": .point, "size": .size, "vector": .vector, "media": .media, "image": .image,
            "file": .file, "enum": .enumeration, "border": .border, "shadow": .shadow,
        ]

        static func named(_ s: String) -> Kind? {
            if s.hasPrefix("list:") { return named(String(s.dropFirst(5))).flatMap { $0.isList ? nil : .list($0) } }
            return names[s]
        }

        var isList: Bool { if case .list = self { true } else { false } }

        /// The type's name as a scene writes it: `number`, `enum`, `list:color`…
        public var name: String {
            if case .list(let k) = self { return "list:" + k.name }
            return Self.names.first { $0.value == self }!.key
        }
    }

    /// The param's name: its key under `params`, and the NAME of `--set NAME=VALUE`.
    public var name: String
    /// The param's type.
    public var kind: Kind
    /// The value when none is given; nil: undefined (references to it leave their key out).
    public var defaultValue: SceneValue?
    /// Whether a run without a value for it is an error.
    public var required = false
    /// The smallest number accepted (numbers, integers, times, angles).
    public var min: Double?
    /// The largest number accepted.
    public var max: Double?
    /// The accepted values of an `enum` param.
    public var values: [String] = []
    /// Filled by the Nth argument after the scene file.
    public var position: Int?
    /// One line for `scene params`.
    public var doc: String?
}

/// Parses a param value written on the command line (`--set NAME=VALUE` or a positional argument) with CLI.md's
/// formats, into the same normal form a default written in the file gets.
public enum ParamText {
    /// The value, or a message saying what was expected.
    public static func parse(_ text: String, as kind: SceneParam.Kind) -> Result<SceneValue, ParamTextError> {
        func fail(_ what: String) -> Result<SceneValue, ParamTextError> { .failure(ParamTextError(message: "expected \(what), got '\(text)'")) }
        func nums(_ s: String, _ sep: Character) -> [Double]? {
            let parts = s.split(separator: sep, omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
            return parts.map { $0! }
        }
        switch kind {
        case .number: return Double(text).flatMap { $0.isFinite ? .success(.number($0)) : nil } ?? fail("a number")
        case .integer: return Int(text).map { .success(.number(Double($0))) } ?? fail("an integer")
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .success(.bool(true))
            case "false", "no", "0", "off": return .success(.bool(false))
            default: return fail("true or false")
            }
        case .string, .enumeration, .media, .image, .file: return .success(.string(text))
        case .color: return (try? Color(parsing: text)).map { .success(.color($0)) } ?? fail("a colour")
        case .time: return SceneUnits.time(text, fps: 30).map { .success(.number($0)) } ?? fail("a time")
        case .angle: return SceneUnits.degrees(text).map { .success(.number($0)) } ?? fail("an angle")
        case .point: return nums(text, ",").flatMap { $0.count == 2 ? .success(.list($0.map(SceneValue.number))) : nil } ?? fail("X,Y")
        case .vector: return nums(text, ",").flatMap { $0.count == 3 ? .success(.list($0.map(SceneValue.number))) : nil } ?? fail("X,Y,Z")
        case .size: return nums(text.lowercased(), "x").flatMap { $0.count == 2 && $0.allSatisfy { $0 >= 0 } ? .success(.list($0.map(SceneValue.number))) : nil } ?? fail("WxH")
        case .border:
            // W[:COLOR]
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard let w = parts.first.flatMap(Double.init), w >= 0 else { return fail("W[:COLOR]") }
            var c: Color? = .white
            if parts.count == 2 { c = try? Color(parsing: parts[1]) }
            guard let c else { return fail("W[:COLOR]") }
            return .success(.object(["width": .number(w), "color": .color(c)]))
        case .shadow:
            // R[:OPACITY[:DX,DY]]
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard (1...3).contains(parts.count), let r = Double(parts[0]), r >= 0 else { return fail("R[:OPACITY[:DX,DY]]") }
            let o = parts.count >= 2 ? Double(parts[1]) : 0.5
            let d = parts.count == 3 ? nums(parts[2], ",") : [0, 3]
            guard let o, (0...1).contains(o), let d, d.count == 2 else { return fail("R[:OPACITY[:DX,DY]]") }
            return .success(.object(["radius": .number(r), "opacity": .number(o), "offset": .list(d.map(SceneValue.number))]))
        case .list(let element):
            var out: [SceneValue] = []
            for part in text.split(separator: ",") {
                switch parse(String(part), as: element) {
                case .success(let v): out.append(v)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(.list(out))
        }
    }
}

/// A command-line param value that did not parse.
public struct ParamTextError: Error, Sendable {
    /// What was expected, e.g. "expected a colour (a CSS name, #rgb, #rrggbb or #rrggbbaa)".
    public var message: String
}
