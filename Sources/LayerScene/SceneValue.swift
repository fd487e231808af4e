import LayerGraphics

/// A value inside a scene after `$name` and `=expr` are resolved: what expressions compute with and what the
/// typed readers (time, angle, colour…) convert. `undefined` is a declared param without a value (SCENES.md §4).
public indirect enum SceneValue: Sendable, Equatable {
    case undefined
    case number(Double)
    case string(String)
    case bool(Bool)
    case list([SceneValue])
    case color(Color)
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
