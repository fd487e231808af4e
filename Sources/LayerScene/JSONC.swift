import Foundation

/// A JSON value read from a scene file, with the line and column where it starts, so that every later check can
/// point at the text that caused it (Foundation's JSONDecoder keeps no positions).
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters (UTF-8 continuation bytes do not count).
    public var column: Int
    /// The position at `line` and `column` (both 1-based).
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public var description: String { "\(line):\(column)" }
}

/// One member of a JSON object, with the position of its key (where "unknown key" errors point).
public struct JSONMember: Sendable {
    /// The member's key, unescaped.
    public var key: String
    /// Where the key's opening quote is.
    public var keyPosition: SourcePosition
    /// The member's value, with its own position.
    public var value: JSONValue
}

/// A parsed JSON(C) value and where it starts.
public struct JSONValue: Sendable {
    /// What kind of JSON value it is, with its contents.
    public indirect enum Kind: Sendable {
        /// JSON `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number (JSON has one number type; integers are exact up to 2^53).
        case number(Double)
        /// A string, unescaped.
        case string(String)
        /// A list, in file order.
        case array([JSONValue])
        /// Members in file order (order matters for `let`, and duplicates are reported, not silently merged).
        case object([JSONMember])
    }
    /// The value and its kind.
    public var kind: Kind
    /// Where the value's first character is.
    public var position: SourcePosition

    /// A value of `kind` that starts at `position`.
    public init(_ kind: Kind, at position: SourcePosition) { self.kind = kind; self.position = position }

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The members in file order, if this is an object.
    public var members: [JSONMember]? { if case .object(let m) = kind { m } else { nil } }
    /// The elements, if this is a list.
    public var elements: [JSONValue]? { if case .array(let a) = kind { a } else { nil } }
    /// The text, if this is a string.
    public var string: String? { if case .string(let s) = kind { s } else { nil } }

    /// How an error message names what it found: `"soft"`, `12`, `an object`.
    public var shortDescription: String {
        switch kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return formatNumber(n)
        case .string(let s): return "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array(let a): return "a list of \(a.count)"
        case .object: return "an object"
        }
    }
}

/// A syntax error, with the position of the offending character.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The offending character's line and column.
    public var position: SourcePosition
    /// What was expected and what was found.
    public var message: String
    public var description: String { "\(position): \(message)" }
}

/// A small hand-written JSONC reader: JSON plus `//` and `/* */` comments and trailing commas (SCENES.md §4).
/// Bounded: documents over `maxBytes` and nesting deeper than `maxDepth` are refused with an error, never a crash.
public struct JSONCReader {
    /// The largest document read, in bytes (8 MiB): a scene is written by hand, so anything bigger is refused.
    public static let maxBytes = 8 << 20
    /// The deepest nesting of lists and objects read (64).
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    /// Parses `text` as one JSONC document.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONCReader(bytes: Array(text.utf8))
        return try reader.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(position: position, message: message) }

    private mutating func document() throws(JSONSyntaxError) -> JSONValue {
        guard bytes.count <= Self.maxBytes else { throw fail("scene file is larger than \(Self.maxBytes >> 20) MB") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark
        try skipSpace()
        let v = try value()
        try skipSpace()
        guard index == bytes.count else { throw fail("expected the end of the file, got \(describeHere())") }
        return v
    }

    private mutating func advance() {
        let b = bytes[index]
        index += 1
        if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func describeHere() -> String {
        guard let c = current else { return "the end of the file" }
        if c >= 0x20 && c < 0x7F { return "'\(Character(UnicodeScalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    private mutating func skipSpace() throws(JSONSyntaxError) {
        while let c = current {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            case UInt8(ascii: "/"):
                let start = position
                guard index + 1 < bytes.count else { throw fail("expected a comment after '/'") }
                if bytes[index + 1] == UInt8(ascii: "/") {
                    while let c = current, c != 0x0A { advance() }
                } else if bytes[index + 1] == UInt8(ascii: "*") {
                    advance(); advance()
                    while true {
                        guard let c = current else { throw JSONSyntaxError(position: start, message: "unterminated /* comment") }
                        if c == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                            advance(); advance(); break
                        }
                        advance()
                    }
                } else { throw fail("expected a comment after '/'") }
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        guard let c = current else { throw fail("expected a value, got the end of the file") }
        switch c {
        case UInt8(ascii: "{"): return JSONValue(.object(try object()), at: start)
        case UInt8(ascii: "["): return JSONValue(.array(try array()), at: start)
        case UInt8(ascii: "\""): return JSONValue(.string(try string()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(.number(try number()), at: start)
        default:
            for (word, kind) in [("true", JSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)]
            where bytes[index...].starts(with: word.utf8) {
                for _ in word.utf8 { advance() }
                return JSONValue(kind, at: start)
            }
            throw fail("expected a value, got \(describeHere())")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws(JSONSyntaxError) -> [JSONMember] {
        try enter()
        advance()  // {
        var members: [JSONMember] = []
        while true {
            try skipSpace()
            if current == UInt8(ascii: "}") { advance(); break }
            guard current == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes or '}', got \(describeHere())") }
            let keyPosition = position
            let key = try string()
            try skipSpace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':' after the key \"\(key)\", got \(describeHere())") }
            advance()
            try skipSpace()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: try value()))
            try skipSpace()
            if current == UInt8(ascii: ",") { advance(); continue }
            if current == UInt8(ascii: "}") { advance(); break }
            throw fail("expected ',' or '}', got \(describeHere())")
        }
        depth -= 1
        return members
    }

    private mutating func array() throws(JSONSyntaxError) -> [JSONValue] {
        try enter()
        advance()  // [
        var elements: [JSONValue] = []
        while true {
            try skipSpace()
            if current == UInt8(ascii: "]") { advance(); break }
            elements.append(try value())
            try skipSpace()
            if current == UInt8(ascii: ",") { advance(); continue }
            if current == UInt8(ascii: "]") { advance(); break }
            throw fail("expected ',' or ']', got \(describeHere())")
        }
        depth -= 1
        return elements
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // "
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw JSONSyntaxError(position: start, message: "unterminated string") }
            if c == UInt8(ascii: "\"") { advance(); break }
            if c < 0x20 { throw fail("control character in a string (write \\n or \\t)") }
            if c != UInt8(ascii: "\\") { out.append(c); advance(); continue }
            advance()
            guard let e = current else { throw JSONSyntaxError(position: start, message: "unterminated string") }
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                advance()
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), bytes[index...].starts(with: "\\u".utf8) {
                    advance(); advance()
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid UTF-16 surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                continue  // hex4 already advanced past the digits
            default: throw fail("unknown escape '\\\(Character(UnicodeScalar(e)))'")
            }
            advance()
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw JSONSyntaxError(position: start, message: "string is not valid UTF-8") }
        return s
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let d = hexDigit(c) else { throw fail("expected 4 hex digits after \\u") }
            v = v << 4 | d
            advance()
        }
        return v
    }

    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        let startPosition = position
        func digits(_ r: inout JSONCReader) -> Int {
            var n = 0
            while let c = r.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { r.advance(); n += 1 }
            return n
        }
        if current == UInt8(ascii: "-") { advance() }
        guard digits(&self) > 0 else { throw fail("expected digits, got \(describeHere())") }
        if current == UInt8(ascii: ".") {
            advance()
            guard digits(&self) > 0 else { throw fail("expected digits after '.', got \(describeHere())") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard digits(&self) > 0 else { throw fail("expected exponent digits, got \(describeHere())") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw JSONSyntaxError(position: startPosition, message: "number \(text) is out of range")
        }
        return v
    }
}

/// `12`, `0.5`, `-3`: how numbers appear in messages and in printed scenes (no trailing `.0`).
func formatNumber(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
}
