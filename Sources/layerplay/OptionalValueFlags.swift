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

    /// Options whose value may start with '-' (a negative number): argument-parser would take it for a flag,
    /// so such a value is joined to its option as `--axis=-1,0,0`.
    static let numericOptions: Set<String> = ["--rotate", "--spin", "--axis", "--perspective", "--corner-radius", "--opacity", "--shadow", "--border"]

    static func expand(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { out += arguments[i...]; break }
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            if let spec = defaults[a] {
                if let next, spec.accepts(next) {
                    out.append("\(a)=\(next)"); i += 2; continue
                }
                out.append("\(a)=\(spec.default)"); i += 1; continue
            }
            if numericOptions.contains(a), let next, next.hasPrefix("-"), next.dropFirst().first.map({ $0.isNumber || $0 == "." }) == true {
                out.append("\(a)=\(next)"); i += 2; continue
            }
            out.append(a); i += 1
        }
        return out
    }
}
