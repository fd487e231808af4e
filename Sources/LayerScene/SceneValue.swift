import LayerGraphics

/// A value inside a scene after `$name` and `=expr` are resolved: what expressions compute with and what the
/// typed readers (time, angle, colour…) convert. `undefined` is a declared param without a value (SCENES.md §4).
public indirect enum SceneValue: Sendable, Equatable {
    /// A declared param without a value: only `defined()` accepts it; a key set to it is left out.
    case undefined
    /// A number (lengths in points, times in seconds, angles as written).
    case number(Double)
    /// Text, also units not yet read (`"2.5s"`, `"50%"`).
    case string(String)
    /// `true` or `false`.
    case bool(Bool)
    /// A list: points, sizes, rects, colours as components, lists of values.
    case list([SceneValue])
    /// A colour already parsed.
    case color(Color)
    /// An object: a `border`, a `shadow`, or an input's probe (`inputs.ID`).
    case object([String: SceneValue])

    /// How messages name it: `"soft"`, `12`, `a list of 4`.
    public var shortDescription: String {
        switch self {
        case .undefined: return "an undefined value"
        case .number(let n): return formatNumber(n)
        case .string(let s): return "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .bool(let b): return b ? "true" : "false"
        case .list(let l): return "a list of \(l.count)"
        case .color: return "a colour"
        case .object: return "an object"
        }
    }

    /// The literal a JSON value stands for (strings stay strings: `$` and `=` are resolved by the loader).
    init(literal json: JSONValue) {
        switch json.kind {
        case .null: self = .undefined
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .list(a.map(SceneValue.init(literal:)))
        case .object(let m): self = .object(Dictionary(m.map { ($0.key, SceneValue(literal: $0.value)) }, uniquingKeysWith: { $1 }))
        }
    }
}
