import Foundation
import LayerGraphics

/// Why an expression failed; `offset` is the character offset inside the expression text (after the `=`), so the
/// loader can point the column into the string (SCENES.md §7).
public struct ExpressionError: Error, Sendable, Equatable {
    /// Where the problem is, in characters from the start of the expression text (after the `=`).
    public var offset: Int
    /// What was wrong, e.g. "unknown name 'wdth'".
    public var message: String
}

/// The small, safe expression language of SCENES.md §4: numbers, 'strings', [lists], names, `+ - * / %`,
/// comparisons, `&& || !`, `c ? a : b`, calls of a fixed set of pure functions, `a[i]` and `a.b`. No assignment,
/// loops or I/O: a scene stays a pure function of its params and probed inputs. Bounded in length and depth.
public struct Expression {
    /// The longest expression text accepted, in characters; a longer one is an error, not a slow evaluation.
    public static let maxLength = 4096
    static let maxDepth = 64

    /// Evaluates `text` with `names` in scope (params, `let`, `W`, `H`, `w`, `h`, `i`, `inputs`). A name that is not
    /// in scope is an error; a declared param without a value is `.undefined`, which only `defined()` accepts.
    /// - Parameters:
    ///   - text: the expression, without its leading `=`.
    ///   - names: the values in scope, by name.
    ///   - lenient: `scene check` without values for required params: anything computed from an undefined
    ///     value is undefined instead of an error, so the rest of the expression is still checked by type.
    public static func evaluate(_ text: String, names: [String: SceneValue], lenient: Bool = false) throws(ExpressionError) -> SceneValue {
        guard text.count <= maxLength else { throw ExpressionError(offset: 0, message: "expression longer than \(maxLength) characters") }
        var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(text), names: names)
        if lenient { parser.lenient = true }
        return try parser.parseAll()
    }
}

enum ExpressionToken: Equatable {
    case number(Double), string(String), name(String), op(String), end
}

enum ExpressionLexer {
    static func tokens(_ text: String) throws(ExpressionError) -> [(ExpressionToken, Int)] {
        let c = Array(text)
        var i = 0
        var out: [(ExpressionToken, Int)] = []
        let twoChar: Set<String> = ["==", "!=", "<=", ">=", "&&", "||"]
        while i < c.count {
            let ch = c[i]
            if ch.isWhitespace { i += 1; continue }
            let start = i
            if ch.isNumber || (ch == "." && i + 1 < c.count && c[i + 1].isNumber) {
                while i < c.count, c[i].isNumber || c[i] == "." { i += 1 }
                if i < c.count, c[i] == "e" || c[i] == "E" {
                    i += 1
                    if i < c.count, c[i] == "+" || c[i] == "-" { i += 1 }
                    while i < c.count, c[i].isNumber { i += 1 }
                }
                guard let v = Double(String(c[start..<i])), v.isFinite else {
                    throw ExpressionError(offset: start, message: "'\(String(c[start..<i]))' is not a number")
                }
                out.append((.number(v), start))
            } else if ch.isLetter || ch == "_" {
                while i < c.count, c[i].isLetter || c[i].isNumber || c[i] == "_" { i += 1 }
                out.append((.name(String(c[start..<i])), start))
            } else if ch == "'" {
                i += 1
                var s = ""
                while i < c.count, c[i] != "'" {
                    if c[i] == "\\", i + 1 < c.count { i += 1 }
                    s.append(c[i]); i += 1
                }
                guard i < c.count else { throw ExpressionError(offset: start, message: "unterminated 'string'") }
                i += 1
                out.append((.string(s), start))
            } else if i + 1 < c.count, twoChar.contains(String(c[i...i + 1])) {
                out.append((.op(String(c[i...i + 1])), start)); i += 2
            } else if "+-*/%<>!?:()[],.".contains(ch) {
                out.append((.op(String(ch)), start)); i += 1
            } else if ch == "−" {  // the minus sign SCENES.md writes
                out.append((.op("-"), start)); i += 1
            } else {
                throw ExpressionError(offset: start, message: "unexpected character '\(ch)'")
            }
        }
        out.append((.end, c.count))
        return out
    }
}

/// Recursive descent that evaluates as it parses (expressions are short and evaluated once per load). Both
/// branches of `?:`, `&&` and `||` are parsed; the untaken one is evaluated with `skipping` set so that
/// `defined(x) ? x.radius : 3` does not fail on an undefined `x`.
struct ExpressionParser {
    let tokens: [(ExpressionToken, Int)]
    let names: [String: SceneValue]
    var index = 0
    var depth = 0
    var skipping = 0
    var lenient = false

    init(tokens: [(ExpressionToken, Int)], names: [String: SceneValue]) { self.tokens = tokens; self.names = names }

    var token: ExpressionToken { tokens[index].0 }
    var offset: Int { tokens[index].1 }

    func fail(_ message: String, at offset: Int? = nil) -> ExpressionError { ExpressionError(offset: offset ?? self.offset, message: message) }

    mutating func parseAll() throws(ExpressionError) -> SceneValue {
        let v = try ternary()
        guard token == .end else { throw fail("unexpected \(describe(token))") }
        return v
    }

    func describe(_ t: ExpressionToken) -> String {
        switch t {
        case .number(let n): return formatNumber(n)
        case .string(let s): return "'\(s)'"
        case .name(let n): return n
        case .op(let o): return "'\(o)'"
        case .end: return "end of expression"
        }
    }

    mutating func accept(_ op: String) -> Bool {
        if token == .op(op) { index += 1; return true }
        return false
    }

    mutating func expect(_ op: String) throws(ExpressionError) {
        guard accept(op) else { throw fail("expected '\(op)', got \(describe(token))") }
    }

    mutating func ternary() throws(ExpressionError) -> SceneValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Expression.maxDepth else { throw fail("expression nested too deeply") }
        let at = offset
        let c = try or()
        guard accept("?") else { return c }
        let yes: Bool
        if skipping > 0 || (lenient && c == .undefined) { yes = true } else { yes = try truth(c, at: at) }
        if !yes { skipping += 1 }
        let a = try ternary()
        if !yes { skipping -= 1 }
        try expect(":")
        if yes { skipping += 1 }
        let b = try ternary()
        if yes { skipping -= 1 }
        return yes ? a : b
    }

    func truth(_ v: SceneValue, at: Int) throws(ExpressionError) -> Bool {
        if skipping > 0 || (lenient && v == .undefined) { return false }
        guard case .bool(let b) = v else { throw fail("expected true or false, got \(v.shortDescription)", at: at) }
        return b
    }

    mutating func or() throws(ExpressionError) -> SceneValue {
        let at = offset
        var v = try and()
        while accept("||") {
            let left = try truth(v, at: at)
            if left { skipping += 1 }
            let rightAt = offset
            let r = try and()
            if left { skipping -= 1; v = .bool(true) } else { v = .bool(try truth(r, at: rightAt)) }
        }
        return v
    }

    mutating func and() throws(ExpressionError) -> SceneValue {
        let at = offset
        var v = try comparison()
        while accept("&&") {
            let left = try truth(v, at: at)
            if !left { skipping += 1 }
            let rightAt = offset
            let r = try comparison()
            if !left { skipping -= 1; v = .bool(false) } else { v = .bool(try truth(r, at: rightAt)) }
        }
        return v
    }

    mutating func comparison() throws(ExpressionError) -> SceneValue {
        var v = try additive()
        while case .op(let o) = token, ["==", "!=", "<", ">", "<=", ">="].contains(o) {
            let at = offset
            index += 1
            let r = try additive()
            if skipping > 0 { v = .bool(false); continue }
            if lenient, v == .undefined || r == .undefined { v = .undefined; continue }
            switch o {
            case "==": v = .bool(v == r)
            case "!=": v = .bool(v != r)
            default:
                let (a, b) = try numbers(v, r, at: at)
                v = .bool(o == "<" ? a < b : o == ">" ? a > b : o == "<=" ? a <= b : a >= b)
            }
        }
        return v
    }

    func numbers(_ a: SceneValue, _ b: SceneValue, at: Int) throws(ExpressionError) -> (Double, Double) {
        guard case .number(let x) = a else { throw fail("expected a number, got \(a.shortDescription)", at: at) }
        guard case .number(let y) = b else { throw fail("expected a number, got \(b.shortDescription)", at: at) }
        return (x, y)
    }

    mutating func additive() throws(ExpressionError) -> SceneValue {
        var v = try multiplicative()
        while case .op(let o) = token, o == "+" || o == "-" {
            let at = offset
            index += 1
            let r = try multiplicative()
            if skipping > 0 { continue }
            if lenient, v == .undefined || r == .undefined { v = .undefined; continue }
            if o == "+", case .string(let a) = v, case .string(let b) = r { v = .string(a + b); continue }
            let (a, b) = try numbers(v, r, at: at)
            v = .number(o == "+" ? a + b : a - b)
        }
        return v
    }

    mutating func multiplicative() throws(ExpressionError) -> SceneValue {
        var v = try unary()
        while case .op(let o) = token, o == "*" || o == "/" || o == "%" {
            let at = offset
            index += 1
            let r = try unary()
            if skipping > 0 { continue }
            if lenient, v == .undefined || r == .undefined { v = .undefined; continue }
            let (a, b) = try numbers(v, r, at: at)
            if o != "*", b == 0 { throw fail("division by zero", at: at) }
            // `%` is the floored modulo, so `i % 3` stays in 0..<3 for negative i too.
            v = .number(o == "*" ? a * b : o == "/" ? a / b : a - (a / b).rounded(.down) * b)
        }
        return v
    }

    mutating func unary() throws(ExpressionError) -> SceneValue {
        let at = offset
        if accept("-") {
            let v = try unary()
            if skipping > 0 || (lenient && v == .undefined) { return v }
            guard case .number(let n) = v else { throw fail("expected a number after '-', got \(v.shortDescription)", at: at) }
            return .number(-n)
        }
        if accept("!") {
            let v = try unary()
            return .bool(!(try truth(v, at: at)))
        }
        return try postfix()
    }

    mutating func postfix() throws(ExpressionError) -> SceneValue {
        var v = try primary()
        while true {
            let at = offset
            if accept("[") {
                let i = try ternary()
                try expect("]")
                if skipping > 0 { continue }
                if lenient, v == .undefined || i == .undefined { v = .undefined; continue }
                guard case .list(let l) = v else { throw fail("cannot index \(v.shortDescription)", at: at) }
                guard case .number(let n) = i, n == n.rounded(), n >= 0, n < Double(l.count) else {
                    throw fail("index \(i.shortDescription) is outside 0..<\(l.count)", at: at)
                }
                v = l[Int(n)]
            } else if accept(".") {
                guard case .name(let member) = token else { throw fail("expected a member name after '.'") }
                index += 1
                if skipping > 0 { continue }
                if lenient, v == .undefined { continue }
                guard case .object(let o) = v else { throw fail("\(v.shortDescription) has no member '\(member)'", at: at) }
                guard let m = o[member] else {
                    let hint = suggestion(for: member, among: o.keys).map { "; did you mean '\($0)'?" } ?? ""
                    throw fail("no member '\(member)'\(hint)", at: at)
                }
                v = m
            } else { return v }
        }
    }

    mutating func primary() throws(ExpressionError) -> SceneValue {
        let at = offset
        switch token {
        case .number(let n): index += 1; return .number(n)
        case .string(let s): index += 1; return .string(s)
        case .op("("):
            index += 1
            let v = try ternary()
            try expect(")")
            return v
        case .op("["):
            index += 1
            var items: [SceneValue] = []
            if !accept("]") {
                repeat { items.append(try ternary()) } while accept(",")
                try expect("]")
            }
            return .list(items)
        case .name(let name):
            index += 1
            if accept("(") {
                var args: [(SceneValue, Int)] = []
                if !accept(")") {
                    repeat { args.append((try ternary(), offset)) } while accept(",")
                    try expect(")")
                }
                if skipping > 0 { return .undefined }
                if lenient, name != "defined", args.contains(where: { $0.0 == .undefined }) { return .undefined }
                return try ExpressionFunctions.call(name, args.map(\.0), at: at)
            }
            if name == "true" { return .bool(true) }
            if name == "false" { return .bool(false) }
            guard let v = names[name] else {
                if skipping > 0 { return .undefined }
                let hint = suggestion(for: name, among: names.keys).map { "; did you mean '\($0)'?" } ?? ""
                throw fail("unknown name '\(name)'\(hint)", at: at)
            }
            if v == .undefined, skipping == 0, !lenient, !calledFromDefined(at: at) {
                throw fail("'\(name)' has no value (test it with defined(\(name)))", at: at)
            }
            return v
        default:
            throw fail("expected a value, got \(describe(token))")
        }
    }

    /// Whether the name at `at` is the whole argument of `defined(…)`, the one place an undefined value may go.
    func calledFromDefined(at: Int) -> Bool {
        let i = tokens.firstIndex { $0.1 == at } ?? 0
        return i >= 2 && tokens[i - 1].0 == .op("(") && tokens[i - 2].0 == .name("defined")
    }
}

/// The fixed set of pure functions expressions may call (angles in degrees, as everywhere in scene files).
enum ExpressionFunctions {
    static let names = ["defined", "min", "max", "abs", "floor", "ceil", "round", "sqrt", "sin", "cos", "len", "alpha"]

    static func call(_ name: String, _ args: [SceneValue], at: Int) throws(ExpressionError) -> SceneValue {
        func fail(_ m: String) -> ExpressionError { ExpressionError(offset: at, message: m) }
        func number(_ v: SceneValue) throws(ExpressionError) -> Double {
            guard case .number(let n) = v else { throw fail("\(name)() expects numbers, got \(v.shortDescription)") }
            return n
        }
        func arity(_ n: Int) throws(ExpressionError) {
            guard args.count == n else { throw fail("\(name)() takes \(n) argument\(n == 1 ? "" : "s"), got \(args.count)") }
        }
        switch name {
        case "defined": try arity(1); return .bool(args[0] != .undefined)
        case "min", "max":
            guard !args.isEmpty else { throw fail("\(name)() needs at least one argument") }
            var values: [Double] = []
            for a in args { values.append(try number(a)) }
            return .number(name == "min" ? values.min()! : values.max()!)
        case "abs", "floor", "ceil", "round", "sqrt", "sin", "cos":
            try arity(1)
            let x = try number(args[0])
            switch name {
            case "abs": return .number(Swift.abs(x))
            case "floor": return .number(x.rounded(.down))
            case "ceil": return .number(x.rounded(.up))
            case "round": return .number(x.rounded())
            case "sqrt":
                guard x >= 0 else { throw fail("sqrt() of a negative number") }
                return .number(x.squareRoot())
            case "sin": return .number(Foundation.sin(x * .pi / 180))
            default: return .number(Foundation.cos(x * .pi / 180))
            }
        case "len":
            try arity(1)
            switch args[0] {
            case .list(let l): return .number(Double(l.count))
            case .string(let s): return .number(Double(s.count))
            default: throw fail("len() expects a list or a string, got \(args[0].shortDescription)")
            }
        case "alpha":
            try arity(2)
            let a = try number(args[1])
            let c: Color
            switch args[0] {
            case .color(let given): c = given
            case .string(let s):
                guard let parsed = try? Color(parsing: s) else { throw fail("alpha() expects a colour, got \(args[0].shortDescription)") }
                c = parsed
            default: throw fail("alpha() expects a colour, got \(args[0].shortDescription)")
            }
            return .color(Color(red: c.red, green: c.green, blue: c.blue, alpha: min(max(a, 0), 1)))
        default:
            let hint = suggestion(for: name, among: names).map { "; did you mean \($0)()?" } ?? ""
            throw fail("unknown function \(name)()\(hint)")
        }
    }
}
