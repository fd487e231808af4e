import Foundation
import Testing
import TestSupport

// Absurd but finite flag values (issue 15): each is refused as a usage error or drawn as what it means, never a
// trap, a hang or a card that silently vanishes.

@Suite struct HostileFlagTests {
    /// Values with no picture to draw: an eye nearer than a pixel, a turn in under a millisecond, a frame rate
    /// no encoder takes. Before, the first two drew an empty canvas and the last failed with 'Invalid argument'.
    @Test(arguments: [
        ["--perspective", "1e-300", "-o", "out.png"],
        ["--perspective", "0.5", "-o", "out.png"],
        ["--spin", "1e-300", "-o", "out.png"],
        ["--spin", "1e-320", "-o", "out.png"],
        ["--fps", "1e-300", "--duration", "0.2", "-o", "out.mp4"],
    ])
    func isAUsageError(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png"] + args, in: dir)
            expectUsageError(r, absentOutput: dir.appendingPathComponent(args.last!))
            #expect(r.stderr.contains(args[0]), "the message should name \(args[0]); \(r)")
        }
    }

    /// Huge values that mean something drawable (a shadow spread to nothing, a border or corner as wide as the
    /// card, a turn of 1e300 degrees): a still of the canvas's size. `--shadow=1e155` trapped in Shadows.swift.
    @Test(arguments: [
        ["--shadow=1e155"], ["--shadow=1e300:0.5:1e300,1e300"], ["--border", "1e300"], ["--corner-radius", "1e300"],
        ["--rotate", "1e300"], ["--rotate", "1e308"], ["--perspective", "1e300"], ["--spin", "1e300"],
        ["--axis", "1e300,1e300,1e300", "--rotate", "30"], ["--layer-size", "16384x16384"],
    ])
    func drawsAStill(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png"] + args + ["-o", "out.png"], in: dir)
            expectSuccess(r)
            let image = readPNG(dir.appendingPathComponent("out.png"))
            #expect(image?.width == 64 && image?.height == 48)
        }
    }

    /// An axis of 1e-300 or 1e300 is a direction like any other: squaring it lost the rotation (the card stayed flat).
    @Test(arguments: ["1e-300,0,0", "1e300,0,0", "0,-1e-200,0"])
    func aTinyOrHugeAxisTurnsAsAUnitOne(_ axis: String) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let unit = axis.split(separator: ",").map { Double($0)! == 0 ? "0" : Double($0)! < 0 ? "-1" : "1" }.joined(separator: ",")
            expectSuccess(runLayerplay(["in.png", "--rotate", "40", "--axis", unit, "-o", "unit.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "40", "--axis", axis, "-o", "odd.png"], in: dir))
            expectSuccess(runLayerplay(["in.png", "--rotate", "0", "-o", "flat.png"], in: dir))
            let odd = try #require(readPNG(dir.appendingPathComponent("odd.png")))
            #expect(samePixels(odd, try #require(readPNG(dir.appendingPathComponent("unit.png")))))
            #expect(!samePixels(odd, try #require(readPNG(dir.appendingPathComponent("flat.png")))))
        }
    }

    /// A time far past the end of a video: converting it to the stream's ticks trapped (SIGILL). A still there is
    /// the last frame; a range that starts there is refused or clamped, but never a signal.
    @Test(arguments: [["--at", "1e15", "-o", "out.png"], ["--at", "1e300", "-o", "out.png"],
                      ["--start", "1e300", "--duration", "0.2", "-o", "out.mp4"]])
    func aVideoTimeFarPastTheEndIsNoCrash(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4")] + args, in: dir)
            #expect(r.status == 0 || r.status == 1, "\(r)")
            if args[0] == "--at" { expectSuccess(r) }
        }
    }
}
