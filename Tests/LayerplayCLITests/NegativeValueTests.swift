import Foundation
import Testing
import TestSupport

/// A negative number after an option is its value (argument-parser took `-5` for an option of its own).
@Suite("layerplay negative values")
struct NegativeValueTests {
    /// A negative number after an option is its value: argument-parser read `-5` as an option ("Missing value for
    /// '--start <TIME>'", "Unknown option '-8'"). Now the option's own check speaks: a usage error (exit 2) whose
    /// first line names the option.
    @Test(arguments: [
        (["--corner-radius", "-5"], "Error: --corner-radius must be 0 or more"),
        (["--start", "-1"], "Error: The value '-1' is invalid for '--start <TIME>'"),
        (["--duration", "-2"], "Error: The value '-2' is invalid for '--duration <TIME>'"),
        (["--at", "-1"], "Error: The value '-1' is invalid for '--at <TIME>'"),
        (["--shadow", "-8"], "Error: The value '-8' is invalid for '--shadow <R[:OPACITY[:DX,DY]]>'"),
        (["--size", "-5x5"], "Error: The value '-5x5' is invalid for '--size <WxH>'"),
        (["--fps", "-5"], "--fps"),
        (["--crf", "-1"], "--crf"),
        (["--volume", "-1"], "--volume"),
        (["--perspective", "-100"], "--perspective"),
        (["--opacity", "-.5"], "--opacity"),
    ])
    func aNegativeNumberIsTheOptionsValue(_ arguments: [String], _ firstLine: String) throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4")] + arguments + ["-o", "x.mp4"], in: dir)
            expectUsageError(r, absentOutput: dir.appendingPathComponent("x.mp4"))
            let first = r.stderrLines.first ?? ""
            #expect(first.hasPrefix("Error: ") && first.contains(firstLine), "\(r)")
            #expect(!r.stderr.contains("Missing value") && !r.stderr.contains("Unknown option"), "\(r)")
        }
    }

    /// Where a negative number means something, it just works.
    @Test(arguments: [["--rotate", "-30"], ["--axis", "-1,0,0", "--rotate", "20"], ["--spin", "4", "--rotate", "-.5"]])
    func aNegativeAngleOrAxisIsTaken(_ arguments: [String]) throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2"] + arguments + ["-o", "x.mp4"], in: dir))
        }
    }

    /// A flag given a number says that it takes none (not that '-5' is an unknown option).
    @Test func aFlagGivenANegativeNumberSaysItTakesNone() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--no-audio", "-5", "-o", "x.mp4"], in: dir)
            expectUsageError(r, absentOutput: dir.appendingPathComponent("x.mp4"))
            #expect(r.stderr.contains("--no-audio") && !r.stderr.contains("Unknown option"), "\(r)")
        }
    }
}
