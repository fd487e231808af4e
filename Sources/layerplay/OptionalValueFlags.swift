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

    /// Whether `argument` is a negative number, or a value that starts with one (`-30`, `-.5`, `-1,0,0`, `-5x5`,
    /// `-8:0.5`). argument-parser takes any argument starting with '-' for an option ("Missing value for
    /// --corner-radius"), so such a value is joined to the option before it (`--corner-radius=-5`): the option then
    /// gets it and says what is wrong with it, or takes it (`--rotate -30`, `--axis -1,0,0`). No option's name
    /// starts with a digit, so nothing that was an option is lost.
    static func isNegativeValue(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), let next = argument.dropFirst().first else { return false }
        return next.isNumber || (next == "." && argument.dropFirst(2).first?.isNumber == true)
    }

    static func expand(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { out += arguments[i...]; break }
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            // A long option written apart from a negative value (a flag given one is told it takes none).
            if a.hasPrefix("--"), !a.contains("="), let next, isNegativeValue(next) {
                out.append("\(a)=\(next)"); i += 2; continue
            }
            if let spec = defaults[a] {
                if let next, spec.accepts(next) {
                    out.append("\(a)=\(next)"); i += 2; continue
                }
                out.append("\(a)=\(spec.default)"); i += 1; continue
            }
            out.append(a); i += 1
        }
        return out
    }
}
