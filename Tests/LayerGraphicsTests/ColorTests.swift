import LayerGraphics
import Testing

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

private func isColor(_ c: Color, _ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> Bool {
    close(c.red, Double(r) / 255) && close(c.green, Double(g) / 255) && close(c.blue, Double(b) / 255)
        && close(c.alpha, Double(a) / 255)
}

// MARK: - Names

@Test func cssNames() throws {
    #expect(isColor(try Color(parsing: "rebeccapurple"), 0x66, 0x33, 0x99))
    #expect(isColor(try Color(parsing: "white"), 255, 255, 255))
    #expect(isColor(try Color(parsing: "black"), 0, 0, 0))
    #expect(isColor(try Color(parsing: "cornflowerblue"), 0x64, 0x95, 0xed))
    #expect(isColor(try Color(parsing: "green"), 0, 0x80, 0))
    #expect(isColor(try Color(parsing: "lime"), 0, 255, 0))
    #expect(isColor(try Color(parsing: "grey"), 0x80, 0x80, 0x80))
    #expect(isColor(try Color(parsing: "gray"), 0x80, 0x80, 0x80))
    #expect(try Color(parsing: "white") == .white)
    #expect(try Color(parsing: "red") == .red)
}

@Test func cssNamesAreCaseInsensitiveAndTrimmed() throws {
    #expect(try Color(parsing: "Red") == .red)
    #expect(try Color(parsing: "RED") == .red)
    #expect(isColor(try Color(parsing: "RebeccaPurple"), 0x66, 0x33, 0x99))
    #expect(try Color(parsing: "  blue ") == .blue)
}

@Test func transparentIsClear() throws {
    let c = try Color(parsing: "transparent")
    #expect(c == .clear)
    #expect(c.alpha == 0)
    #expect(try Color(parsing: "Transparent") == .clear)
}

// MARK: - Hexadecimal

@Test func shortHex() throws {
    #expect(isColor(try Color(parsing: "#f80"), 0xff, 0x88, 0x00))
    #expect(isColor(try Color(parsing: "#FFF"), 255, 255, 255))
    #expect(try Color(parsing: "#000") == .black)
}

@Test func shortHexWithAlpha() throws {
    let c = try Color(parsing: "#f008")
    #expect(isColor(c, 0xff, 0, 0, 0x88))
    #expect(!c.isOpaque)
}

@Test func longHex() throws {
    #expect(isColor(try Color(parsing: "#663399"), 0x66, 0x33, 0x99))
    #expect(isColor(try Color(parsing: "#12AbEf"), 0x12, 0xab, 0xef))
    #expect(try Color(parsing: "#663399").alpha == 1)
    #expect(try Color(parsing: "#663399") == Color(parsing: "rebeccapurple"))
}

@Test func longHexWithAlpha() throws {
    let c = try Color(parsing: "#ff000080")
    #expect(isColor(c, 255, 0, 0, 0x80))
    #expect(isColor(try Color(parsing: "#01020304"), 1, 2, 3, 4))
}

@Test(arguments: ["#12", "#gggggg", "notacolour", "", "#", "#12345", "#1234567", "#123456789", "fff", "##fff", "#ff 00 00", "red!"])
func refusedColours(text: String) {
    #expect(throws: ColorParseError.self) { try Color(parsing: text) }
}

@Test func theErrorNamesTheText() {
    do {
        _ = try Color(parsing: "notacolour")
        Issue.record("expected an error")
    } catch let error as ColorParseError {
        #expect(error.text == "notacolour")
        #expect(error.description.contains("'notacolour'"))
    } catch {
        Issue.record("unexpected error \(error)")
    }
}

// MARK: - Premultiplied

@Test func premultipliedHalfRed() throws {
    let p = try Color(parsing: "#ff000080").premultiplied
    #expect(p == PremultipliedColor(r: 128, g: 0, b: 0, a: 128))
}

@Test func premultipliedRoundsEachChannel() {
    let p = Color(red: 1, green: 0.5, blue: 0.2, alpha: 0.5).premultiplied
    // 127.5 → 128, 63.75 → 64, 25.5 → 26, 127.5 → 128.
    #expect(p == PremultipliedColor(r: 128, g: 64, b: 26, a: 128))
    #expect(Color.white.premultiplied == PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
    #expect(Color.clear.premultiplied == .clear)
    #expect(Color(red: 1, green: 1, blue: 1, alpha: 0).premultiplied == .clear)
}

@Test func premultipliedClampsOutOfRangeComponents() {
    let p = Color(red: 2, green: -1, blue: 0.5, alpha: 3).premultiplied
    #expect(p == PremultipliedColor(r: 255, g: 0, b: 128, a: 255))
    #expect(Color(white: 1, alpha: -0.5).premultiplied == .clear)
}

@Test func bgraWordLayout() {
    let p = PremultipliedColor(r: 0x11, g: 0x22, b: 0x33, a: 0x44)
    #expect(p.bgra == 0x4411_2233)
    #expect(PremultipliedColor(bgra: 0x4411_2233) == p)
    #expect(PremultipliedColor(bgra: 0xff00_00ff) == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
}

@Test func descriptionIsHex() throws {
    #expect(try Color(parsing: "rebeccapurple").description == "#663399")
    #expect(try Color(parsing: "#ff000080").description == "#ff000080")
    #expect(Color.clear.description == "#00000000")
}

@Test func withAlphaKeepsTheColour() {
    let c = Color.red.withAlpha(0.25)
    #expect(c.red == 1 && c.green == 0 && c.blue == 0 && c.alpha == 0.25)
    #expect(!c.isOpaque)
    #expect(Color.red.isOpaque)
}

/// Fullwidth letters and digits count as hexadecimal for `Character.isHexDigit`, but `Int(_:radix:)` refuses
/// them: the parser must throw, not trap. (Run in a child process so that a trap fails only this test.)
@Test func fullwidthHexDigitsAreRefusedWithoutCrashing() async {
    await #expect(processExitsWith: .success) {
        do {
            _ = try Color(parsing: "#ｆｆｆ")
        } catch {
            return
        }
    }
}
