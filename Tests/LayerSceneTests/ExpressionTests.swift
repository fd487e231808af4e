import Testing
@testable import LayerScene

@Test func expressionsComputeWithPrecedenceAndShortCircuit() throws {
    let names: [String: SceneValue] = ["W": .number(1920), "x": .undefined, "l": .list([.number(1), .number(2), .number(3)]),
                                       "s": .object(["radius": .number(4)])]
    func eval(_ s: String) throws -> SceneValue { try Expression.evaluate(s, names: names) }
    #expect(try eval("W * 0.45 + 1") == .number(865))
    #expect(try eval("-(W * 0.5)") == .number(-960))
    #expect(try eval("7 % 3 == 1 && !(1 > 2)") == .bool(true))
    #expect(try eval("-7 % 3") == .number(2))
    #expect(try eval("defined(x) ? x.radius : s.radius") == .number(4))
    #expect(try eval("l[len(l) - 1]") == .number(3))
    #expect(try eval("[max(1, floor(W * 2 / 3)), 'a' + 'b']") == .list([.number(1280), .string("ab")]))
    #expect(try eval("round(sin(90) * 100)") == .number(100))
}

@Test func expressionErrorsHaveOffsets() {
    func error(_ s: String) -> ExpressionError? {
        do throws(ExpressionError) { _ = try Expression.evaluate(s, names: ["x": .undefined, "n": .number(1)]); return nil } catch { return error }
    }
    #expect(error("n + x") == ExpressionError(offset: 4, message: "'x' has no value (test it with defined(x))"))
    #expect(error("n / 0") == ExpressionError(offset: 2, message: "division by zero"))
    #expect(error("n +") == ExpressionError(offset: 3, message: "expected a value, got end of expression"))
    #expect(error("system('ls')") == ExpressionError(offset: 0, message: "unknown function system()"))
    #expect(error("[1][5]") == ExpressionError(offset: 3, message: "index 5 is outside 0..<1"))
    #expect(error(String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500))?.message == "expression nested too deeply")
}
