import Foundation
import LayerGraphics
import Testing

// End-to-end tests of `layerplay INPUT [options] -o OUT.png` (stills), against docs/spec/CLI.md.

private let grey20 = Color(red: 0x20 / 255.0, green: 0x20 / 255.0, blue: 0x20 / 255.0)

@Suite("layerplay stills")
struct StillTests {
    // MARK: 1. A still with every effect

    @Test func stillWithAllEffects() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "--rotate", "30", "--corner-radius", "8", "--border", "3:#ff0000", "--shadow",
                                  "--background", "#202020", "--size", "200x150", "-o", "out.png"], in: dir)
            expectSuccess(r)
            #expect(r.stdout.isEmpty, "\(r)")
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 200 && out.height == 150, "output is \(out.width)x\(out.height)")
            guard out.width == 200, out.height == 150 else { return }
            expectPixel(out, 0, 0, is: grey20, "corner: the background")
            expectPixel(out, 199, 0, is: grey20, "corner: the background")
            expectPixel(out, 100, 75, isNot: grey20, "centre: the card")
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    // MARK: 2. Defaults and flag forms

    @Test func sizeDefaultsToTheInputsAndTheImageIsShownUnchanged() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 64 && out.height == 48, "output is \(out.width)x\(out.height), the input 64x48")
            guard out.width == 64, out.height == 48 else { return }
            expectPixel(out, 16, 12, is: quadrantColors.topLeft)
            expectPixel(out, 48, 12, is: quadrantColors.topRight)
            expectPixel(out, 16, 36, is: quadrantColors.bottomLeft)
            expectPixel(out, 48, 36, is: quadrantColors.bottomRight)
            expectPixel(out, 0, 0, is: quadrantColors.topLeft)
            expectPixel(out, 63, 47, is: quadrantColors.bottomRight)
        }
    }

    @Test func outputPathMayBeAbsoluteAndExtensionUppercase() throws {
        try withTemporaryDirectory { dir in
            let input = try writeQuadrantsPNG(in: dir)
            let output = dir.appendingPathComponent("OUT.PNG")
            expectSuccess(runLayerplay([input.path, "--output", output.path]))
            guard let out = readPNG(output) else { return }
            #expect(out.width == 64 && out.height == 48)
        }
    }

    @Test func bareRotateMeans45() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            // Bare, followed by another flag; bare at the very end; bare before the input; explicit 45; 0.
            expectSuccess(runLayerplay(["in.png", "--rotate", "--size", "120x90", "-o", "bare.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--size", "120x90", "-o", "last.png", "--rotate"], in: dir))
            expectSuccess(runLayerplay(["--rotate", "in.png", "--size", "120x90", "-o", "first.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "45", "--size", "120x90", "-o", "r45.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "0", "--size", "120x90", "-o", "r0.png"], in: dir))
            let images = ["bare", "last", "first", "r45", "r0"].map { readPNG(dir.appendingPathComponent("\($0).png")) }
            guard let bare = images[0], let last = images[1], let first = images[2], let r45 = images[3], let r0 = images[4]
            else { return }
            #expect(samePixels(bare, r45), "--rotate (bare) should render as --rotate 45")
            #expect(samePixels(last, r45), "--rotate (bare, last) should render as --rotate 45")
            #expect(samePixels(first, r45), "--rotate (bare, before the input) should render as --rotate 45")
            #expect(!samePixels(r45, r0), "--rotate 45 should differ from --rotate 0")
        }
    }

    @Test func rotateWithEqualsOrSpace() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            expectSuccess(runLayerplay(["in.png", "--rotate=20", "--size", "120x90", "-o", "eq.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "20", "--size", "120x90", "-o", "sp.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "0", "--size", "120x90", "-o", "r0.png"], in: dir))
            guard let eq = readPNG(dir.appendingPathComponent("eq.png")), let sp = readPNG(dir.appendingPathComponent("sp.png")),
                  let r0 = readPNG(dir.appendingPathComponent("r0.png")) else { return }
            #expect(eq.width == 120 && eq.height == 90)
            #expect(samePixels(eq, sp), "--rotate=20 and --rotate 20 should render the same")
            #expect(!samePixels(eq, r0), "--rotate 20 should differ from --rotate 0")
        }
    }

    /// `--rotate -20` (a value that looks like a flag) as well as `--rotate=-20`.
    @Test func negativeRotation() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            expectSuccess(runLayerplay(["in.png", "--rotate=-20", "--size", "120x90", "-o", "eq.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "-20", "--size", "120x90", "-o", "sp.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "20", "--size", "120x90", "-o", "pos.png"], in: dir))
            guard let eq = readPNG(dir.appendingPathComponent("eq.png")),
                  let pos = readPNG(dir.appendingPathComponent("pos.png")) else { return }
            #expect(!samePixels(eq, pos), "--rotate=-20 should differ from --rotate 20")
            if let sp = readPNG(dir.appendingPathComponent("sp.png")) {
                #expect(samePixels(eq, sp), "--rotate -20 and --rotate=-20 should render the same")
            }
        }
    }

    /// `--axis X,Y,Z` with a negative first component, in both spellings.
    @Test func negativeAxis() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let common = ["--rotate", "30", "--size", "120x90"]
            expectSuccess(runLayerplay(["in.png", "--axis=-1,0,0"] + common + ["-o", "eq.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--axis", "-1,0,0"] + common + ["-o", "sp.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--axis", "1,0,0"] + common + ["-o", "pos.png"], in: dir))
            guard let eq = readPNG(dir.appendingPathComponent("eq.png")),
                  let pos = readPNG(dir.appendingPathComponent("pos.png")) else { return }
            #expect(!samePixels(eq, pos), "--axis=-1,0,0 should differ from --axis 1,0,0")
            if let sp = readPNG(dir.appendingPathComponent("sp.png")) {
                #expect(samePixels(eq, sp), "--axis -1,0,0 and --axis=-1,0,0 should render the same")
            }
        }
    }

    @Test func shadowBareAndWithValues() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            // Canvas 120x90, white; the layer is 2/3 of it (80x60 at 20,15 … 100,75).
            let common = ["--size", "120x90", "--background", "white"]
            expectSuccess(runLayerplay(["in.png", "--shadow"] + common + ["-o", "bare.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--shadow", "16:0.5:0,8"] + common + ["-o", "explicit.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--shadow", "4:0.3:2,2"] + common + ["-o", "small.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--shadow=4:0.3:2,2"] + common + ["-o", "small-eq.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "0"] + common + ["-o", "none.png"], in: dir))
            let names = ["bare", "explicit", "small", "small-eq", "none"]
            let images = names.map { readPNG(dir.appendingPathComponent("\($0).png")) }
            guard let bare = images[0], let explicit = images[1], let small = images[2], let smallEq = images[3],
                  let none = images[4] else { return }
            #expect(samePixels(bare, explicit), "--shadow (bare) should render as --shadow 16:0.5:0,8")
            #expect(samePixels(small, smallEq), "--shadow=4:0.3:2,2 and --shadow 4:0.3:2,2 should render the same")
            #expect(!samePixels(bare, small))
            // Without a shadow, below the card is the white background; with one, it is darker.
            expectPixel(none, 60, 80, is: .white, "below the card, no shadow")
            let shadowed = bare.pixel(x: 60, y: 80)
            #expect(shadowed.r < 240 && shadowed.r > 60, "below the card with --shadow: \(shadowed)")
            // The small shadow (σ 4, offset 2,2) reaches 1 px below the card, not 5.
            let near = small.pixel(x: 60, y: 76)
            #expect(near.r < 250, "just below the card with --shadow 4:0.3:2,2: \(near)")
            expectPixel(small, 60, 88, is: .white, tolerance: 3, "far below the card with --shadow 4:0.3:2,2")
        }
    }

    @Test func borderDefaultsToWhite() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            // Canvas 100x80, black; layer 80x60 at 10,10 … 90,70; border 4 px inside its bounds.
            let common = ["--size", "100x80", "--layer-size", "80x60", "--gravity", "resize", "--background", "black"]
            expectSuccess(runLayerplay(["in.png", "--border", "4"] + common + ["-o", "white.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--border", "4:#00ff00"] + common + ["-o", "green.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--border", "4:blue"] + common + ["-o", "blue.png"], in: dir))
            if let out = readPNG(dir.appendingPathComponent("white.png")) {
                expectPixel(out, 11, 40, is: .white, "left border")
                expectPixel(out, 88, 40, is: .white, "right border")
                expectPixel(out, 50, 11, is: .white, "top border")
                expectPixel(out, 50, 68, is: .white, "bottom border")
                expectPixel(out, 10, 10, is: .white, "top-left corner of the border")
                expectPixel(out, 20, 50, is: quadrantColors.bottomLeft, "content inside the border")
                expectPixel(out, 80, 20, is: quadrantColors.topRight, "content inside the border")
                expectPixel(out, 8, 40, is: .black, "outside the layer")
                expectPixel(out, 91, 40, is: .black, "outside the layer")
            }
            if let out = readPNG(dir.appendingPathComponent("green.png")) {
                expectPixel(out, 11, 40, is: .green, "left border, #00ff00")
                expectPixel(out, 50, 68, is: .green, "bottom border, #00ff00")
            }
            if let out = readPNG(dir.appendingPathComponent("blue.png")) {
                expectPixel(out, 88, 20, is: .blue, "right border, blue")
            }
        }
    }

    @Test func maskAlphaMasksTheLayer() throws {
        try withTemporaryDirectory { dir in
            try writePNG(Image(width: 64, height: 48, color: .white), "white.png", in: dir)
            // A 10x10 mask, opaque in its left half: stretched to the 64x48 layer, the left 32 columns show.
            try writePNG(leftHalfMask(width: 10, height: 10, opaqueColumns: 5), "mask.png", in: dir)
            let r = runLayerplay(["white.png", "--mask", "mask.png", "--background", "black", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 64 && out.height == 48)
            expectPixel(out, 16, 24, is: .white, "where the mask is opaque")
            expectPixel(out, 2, 2, is: .white, "where the mask is opaque")
            expectPixel(out, 48, 24, is: .black, "where the mask is transparent: the background")
            expectPixel(out, 61, 45, is: .black, "where the mask is transparent: the background")
        }
    }

    @Test func opacityBlendsOverTheBackground() throws {
        try withTemporaryDirectory { dir in
            try writePNG(Image(width: 64, height: 48, color: .white), "white.png", in: dir)
            expectSuccess(runLayerplay(["white.png", "--opacity", "0.5", "--background", "black", "-o", "half.png"], in: dir))
            expectSuccess(runLayerplay(["white.png", "--opacity", "0", "--background", "black", "-o", "zero.png"], in: dir))
            if let out = readPNG(dir.appendingPathComponent("half.png")) {
                let grey = Color(white: 128 / 255.0)
                expectPixel(out, 32, 24, is: grey, tolerance: 3, "white at opacity 0.5 over black")
                expectPixel(out, 1, 1, is: grey, tolerance: 3, "white at opacity 0.5 over black")
            }
            if let out = readPNG(dir.appendingPathComponent("zero.png")) {
                expectPixel(out, 32, 24, is: .black, "opacity 0: only the background")
            }
        }
    }

    /// A 64x32 input (red in its left quarter, green elsewhere) on a 64x64 black canvas.
    @Test(arguments: ["aspect", "fill", "resize", nil] as [String?])
    func gravity(_ gravity: String?) throws {
        try withTemporaryDirectory { dir in
            let input = Image(width: 64, height: 32) { px in
                for y in 0..<32 { for x in 0..<64 { px[y * 64 + x] = word(x < 16 ? .red : .green) } }
            }
            try writePNG(input, "wide.png", in: dir)
            let r = runLayerplay(["wide.png", "--size", "64x64", "--background", "black", "-o", "out.png"]
                                 + (gravity.map { ["--gravity", $0] } ?? []), in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 64 && out.height == 64)
            switch gravity ?? "aspect" {
            case "aspect": // letterboxed: 64x32 centred, rows 16…47
                expectPixel(out, 32, 4, is: .black, "above the letterboxed image")
                expectPixel(out, 32, 60, is: .black, "below the letterboxed image")
                expectPixel(out, 4, 32, is: .red, "left quarter")
                expectPixel(out, 40, 32, is: .green)
            case "fill": // scaled to 128x64, centred, cropped to the input's columns 16…47: no red
                expectPixel(out, 32, 4, is: .green, "the image fills the height")
                expectPixel(out, 2, 32, is: .green, "the red quarter is cropped away")
                expectPixel(out, 62, 60, is: .green)
            case "resize": // stretched to 64x64
                expectPixel(out, 2, 4, is: .red, "stretched: the red quarter at the top left")
                expectPixel(out, 12, 60, is: .red)
                expectPixel(out, 32, 4, is: .green)
            default: Issue.record("unexpected gravity")
            }
        }
    }

    @Test(arguments: [("red", Color.red), ("#f00", Color.red), ("#00ff00", Color.green), ("RebeccaPurple", Color(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0)),
                      ("#0000ff80", Color(red: 0, green: 0, blue: 1, alpha: 128 / 255.0))])
    func backgroundColourSyntaxes(_ text: String, _ color: Color) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "--background", text, "--layer-size", "10x10", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            expectPixel(out, 0, 0, is: color, "background \(text)")
            expectPixel(out, 63, 47, is: color, "background \(text)")
        }
    }

    @Test func timeSyntaxesForTheStill() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            expectSuccess(runLayerplay(["in.png", "--at", "2.5", "-o", "a.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--at", "00:01.5", "-o", "b.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--at", "0:00:01", "-o", "c.png"], in: dir))
            for name in ["a", "b", "c"] { _ = readPNG(dir.appendingPathComponent("\(name).png")) }
        }
    }

    // MARK: 3. --layer-size

    @Test func layerSizeIsCentredOnTheCanvas() throws {
        try withTemporaryDirectory { dir in
            try writePNG(Image(width: 64, height: 48, color: .white), "white.png", in: dir)
            let r = runLayerplay(["white.png", "--size", "200x100", "--layer-size", "100x50", "--background", "black",
                                  "--gravity", "resize", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 200 && out.height == 100)
            guard out.width == 200, out.height == 100 else { return }
            // The layer covers x 50…149, y 25…74.
            expectPixel(out, 100, 50, is: .white, "the layer's centre")
            expectPixel(out, 10, 10, is: .black, "outside the layer")
            expectPixel(out, 50, 25, is: .white, "the layer's top-left pixel")
            expectPixel(out, 149, 74, is: .white, "the layer's bottom-right pixel")
            expectPixel(out, 49, 50, is: .black, "just left of the layer")
            expectPixel(out, 150, 50, is: .black, "just right of the layer")
            expectPixel(out, 100, 24, is: .black, "just above the layer")
            expectPixel(out, 100, 75, is: .black, "just below the layer")
        }
    }

    /// With --rotate, --spin or --shadow and no --layer-size, the layer is 2/3 of the canvas (133x66 on 200x100).
    @Test(arguments: [["--rotate"], ["--rotate", "0"], ["--spin"], ["--shadow"]])
    func layerIsTwoThirdsOfTheCanvasWhenTurnedOrShadowed(_ flags: [String]) throws {
        try withTemporaryDirectory { dir in
            try writePNG(Image(width: 64, height: 48, color: .white), "white.png", in: dir)
            let r = runLayerplay(["white.png"] + flags + ["--size", "200x100", "--background", "black", "--gravity", "resize",
                                                          "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            #expect(out.width == 200 && out.height == 100)
            guard out.width == 200, out.height == 100 else { return }
            expectPixel(out, 5, 50, is: .black, "x = 5 mid-height: the background")
            expectPixel(out, 100, 50, isNot: .black, "the centre: the card")
            if flags != ["--rotate"] { // flat card: 133x66 from x 33.5, y 17
                expectPixel(out, 28, 50, is: .black, "left of the 2/3 layer")
                expectPixel(out, 171, 50, is: .black, "right of the 2/3 layer")
                expectPixel(out, 100, 12, is: .black, "above the 2/3 layer")
                expectPixel(out, 40, 50, is: .white, "inside the 2/3 layer")
                expectPixel(out, 160, 50, is: .white, "inside the 2/3 layer")
                expectPixel(out, 100, 22, is: .white, "inside the 2/3 layer")
            }
        }
    }

    @Test func explicitLayerSizeWinsOverTwoThirds() throws {
        try withTemporaryDirectory { dir in
            try writePNG(Image(width: 64, height: 48, color: .white), "white.png", in: dir)
            let r = runLayerplay(["white.png", "--rotate", "0", "--layer-size", "200x100", "--size", "200x100",
                                  "--background", "black", "--gravity", "resize", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            expectPixel(out, 5, 50, is: .white, "the layer fills the canvas")
        }
    }

    // MARK: -y

    @Test func overwriteWithY() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let output = dir.appendingPathComponent("out.png")
            try Data("not a picture".utf8).write(to: output)
            let r = runLayerplay(["in.png", "-y", "-o", "out.png"], in: dir)
            expectSuccess(r)
            guard let out = readPNG(output) else { return }
            #expect(out.width == 64 && out.height == 48)
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    // MARK: 6. Help

    @Test func benchHelp() throws {
        let r = runLayerplay(["bench", "--help"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("--frames"), "bench --help should list --frames; \(r)")
        #expect(r.stdout.uppercased().contains("USAGE"), "\(r)")
    }

    @Test func help() throws {
        let r = runLayerplay(["--help"])
        #expect(r.status == 0, "\(r)")
        for flag in ["--size", "--background", "--layer-size", "--gravity", "--rotate", "--axis", "--perspective", "--spin",
                     "--corner-radius", "--border", "--shadow", "--mask", "--opacity", "--output", "--at"] {
            #expect(r.stdout.contains(flag), "--help should list \(flag)")
        }
    }
}
