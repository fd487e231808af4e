@testable import LayerScene
import Testing

@Test func readsCommentsTrailingCommasAndPositions() throws {
    let text = """
    {
      // a comment
      "a": [1, 2,], /* block
      comment */ "b": "x",
    }
    """
    let v = try JSONCReader.parse(text)
    #expect(v["a"]?.elements?.count == 2)
    #expect(v["a"]?.position == SourcePosition(line: 3, column: 8))
    #expect(v["b"]?.position == SourcePosition(line: 4, column: 19))
    #expect(v.members?[1].keyPosition == SourcePosition(line: 4, column: 14))
}

@Test func syntaxErrorsPointAtTheCharacter() {
    #expect(throws: JSONSyntaxError.self) { try JSONCReader.parse("{\"a\": }") }
    do { _ = try JSONCReader.parse("{\n  \"a\": 1\n  \"b\": 2}") } catch {
        #expect(error.position == SourcePosition(line: 3, column: 3))
        #expect(error.message == "expected ',' or '}', got '\"'")
    }
}

@Test func garbageAndDepthAreRefusedNotCrashed() {
    for text in ["", "{", "[", "\"abc", "/*", "-", "1e999", "{\"a\" 1}", "tru", "\u{0}", "[1,,]", "{\"a\":1,,}", "\"\\u12\""] {
        #expect(throws: JSONSyntaxError.self, "\(text.debugDescription)") { try JSONCReader.parse(text) }
    }
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONSyntaxError.self) { try JSONCReader.parse(deep) }
}

@Test func multibyteCharactersCountAsOneColumn() throws {
    let v = try JSONCReader.parse("{\"é\": \"ü\", \"x\": 1}")
    #expect(v["x"]?.position == SourcePosition(line: 1, column: 17))
    #expect(v["é"]?.string == "ü")
}
