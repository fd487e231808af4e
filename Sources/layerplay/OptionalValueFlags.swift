/// Flags whose value is optional (`--rotate` alone means 45°, `--rotate 30` and `--rotate=30` set it).
///
/// swift-argument-parser has no optional-value options, so before parsing, a bare flag gets its default
/// value inserted. The next argument is taken as the value only when it parses as one; otherwise
/// (another flag, the input file) the flag is bare.
enum OptionalValueFlags {
    static let defaults: [String: (default: String, accepts: @Sendable (String) -> Bool)] = [
        "--rotate": ("45", { Double($0) != nil }),
        "--spin": ("8", { Double($0) != nil }),
        "--shadow": ("16:0.5:0,8", { ShadowSpec(argument: $0) != nil }),
    ]

    static func expand(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { out += arguments[i...]; break }
            if let spec = defaults[a] {
                if i + 1 < arguments.count, spec.accepts(arguments[i + 1]) {
                    out += [a, arguments[i + 1]]; i += 2; continue
                }
                out += [a, spec.default]; i += 1; continue
            }
            out.append(a); i += 1
        }
        return out
    }
}
