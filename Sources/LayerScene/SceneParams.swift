import Foundation
import LayerGraphics

/// A declared scene parameter (SCENES.md §5).
public struct SceneParam: Sendable {
    public enum Kind: Sendable, Equatable {
        case number, integer, bool, string, color, time, angle, point, size, vector, media, image, file, `enumeration`, border, shadow
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

        public var name: String {
            if case .list(let k) = self { return "list:" + k.name }
            return Self.names.first { $0.value == self }!.key
        }
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: SceneValue?
    public var required = false
    public var min: Double?
    public var max: Double?
    public var values: [String] = []
    /// Filled by the Nth argument after the scene file.
    public var position: Int?
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

public struct ParamTextError: Error, Sendable { public var message: String }
