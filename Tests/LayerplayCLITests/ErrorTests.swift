import Foundation
import LayerGraphics
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Failures (exit 1, one `layerplay: error:` line, no output left behind) and usage errors (exit 2), per docs/spec/CLI.md.

/// Bad inputs, each written as `name` in the test's directory (nil: not written at all).
enum BadInput: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case missing, empty, textNamedPNG, truncatedPNG, randomBytes

    var testDescription: String { rawValue }

    /// Creates the input in `dir`; returns its name.
    func make(in dir: URL) throws -> String {
        let name = "bad.png"
        let url = dir.appendingPathComponent(name)
        switch self {
        case .missing: break
        case .empty: try Data().write(to: url)
        case .textNamedPNG: try Data("This is not a PNG file, just some text.\n".utf8).write(to: url)
        case .truncatedPNG:
            try writeQuadrantsPNG(name, in: dir, width: 128, height: 96)
            let data = try Data(contentsOf: url)
            try data.prefix(data.count / 2).write(to: url)
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
        }
        return name
    }
}

@Suite("layerplay failures")
struct ErrorTests {
    // MARK: 4. Inputs

    @Test(arguments: BadInput.allCases)
    func badInput(_ kind: BadInput) throws {
        try withTemporaryDirectory { dir in
            let name = try kind.make(in: dir)
            let before = try? Data(contentsOf: dir.appendingPathComponent(name))
            let r = runLayerplay([name, "-o", "out.png"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.png"), mentions: [name])
            #expect((try? Data(contentsOf: dir.appendingPathComponent(name))) == before, "the input must not change")
        }
    }

    @Test(arguments: BadInput.allCases)
    func badMask(_ kind: BadInput) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let name = try kind.make(in: dir)
            let r = runLayerplay(["in.png", "--mask", name, "-o", "out.png"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.png"), mentions: [name])
        }
    }

    @Test func inputIsADirectory() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder.png"), withIntermediateDirectories: false)
            let r = runLayerplay(["folder.png", "-o", "out.png"], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.png"), mentions: ["folder.png"])
        }
    }

    // MARK: 4. Outputs

    /// Different spellings of the input's own path, with and without -y: always refused, the input untouched.
    @Test(arguments: ["in.png", "./in.png", "sub/../in.png", "ABSOLUTE", "link.png"], [false, true])
    func outputIsTheInput(_ spelling: String, _ overwrite: Bool) throws {
        try withTemporaryDirectory { dir in
            let input = try writeQuadrantsPNG(in: dir)
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.png").path, withDestinationPath: "in.png")
            let before = try Data(contentsOf: input)
            let output = spelling == "ABSOLUTE" ? input.path : spelling
            let r = runLayerplay(["in.png", "-o", output] + (overwrite ? ["-y"] : []), in: dir)
            expectRunFailure(r, directory: dir)
            #expect(try Data(contentsOf: input) == before, "the input must be unchanged")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.png").path) == "in.png")
        }
    }

    @Test func outputExistsWithoutY() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let output = dir.appendingPathComponent("out.png")
            try writePNG(Image(width: 8, height: 8, color: .blue), "out.png", in: dir)
            let before = try Data(contentsOf: output)
            let r = runLayerplay(["in.png", "-o", "out.png"], in: dir)
            expectRunFailure(r, directory: dir, mentions: ["out.png"])
            #expect(try Data(contentsOf: output) == before, "the existing output must be left alone without -y")
            // With -y it is replaced.
            expectSuccess(runLayerplay(["in.png", "-o", "out.png", "-y"], in: dir))
            if let out = readPNG(output) { #expect(out.width == 64 && out.height == 48, "replaced by the 64x48 still") }
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    /// A symbolic link at the output path is an existing output, even when it points nowhere: refused without -y.
    @Test func outputIsADanglingSymlinkWithoutY() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let link = dir.appendingPathComponent("out.png")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "elsewhere.png")
            let r = runLayerplay(["in.png", "-o", "out.png"], in: dir)
            expectRunFailure(r, directory: dir, mentions: ["out.png"])
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "elsewhere.png",
                    "the link must be left alone without -y")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("elsewhere.png").path))
        }
    }

    @Test func outputDirectoryDoesNotExist() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "-o", "nowhere/out.png"], in: dir)
            expectRunFailure(r, directory: dir, mentions: ["nowhere"])
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("nowhere").path), "no directory is made")
        }
    }

    @Test func outputDirectoryIsAFile() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            try Data("a file".utf8).write(to: dir.appendingPathComponent("notadir"))
            let r = runLayerplay(["in.png", "-o", "notadir/out.png"], in: dir)
            expectRunFailure(r, directory: dir, mentions: ["notadir/out.png"])
            #expect(try Data(contentsOf: dir.appendingPathComponent("notadir")) == Data("a file".utf8))
        }
    }

    /// Root may write anywhere, so this only means something for another user.
    @Test(.enabled(if: getuid() != 0, "running as root: every directory is writable"))
    func outputDirectoryIsNotWritable() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let locked = dir.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            chmod(locked.path, 0o555)
            defer { chmod(locked.path, 0o755) }
            let r = runLayerplay(["in.png", "-o", "locked/out.png"], in: dir)
            expectRunFailure(r, absentOutput: locked.appendingPathComponent("out.png"), mentions: ["locked"])
        }
    }

    /// A name no file system accepts (longer than NAME_MAX) gets past the up-front checks and fails at the write.
    @Test func outputNameTooLong() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let name = String(repeating: "n", count: 300) + ".png"
            let r = runLayerplay(["in.png", "-o", name], in: dir)
            expectRunFailure(r, directory: dir)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() == ["in.png"],
                    "nothing but the input should be in the directory")
        }
    }

    @Test(arguments: [false, true])
    func outputIsADirectory(_ overwrite: Bool) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let output = dir.appendingPathComponent("out.png")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
            let r = runLayerplay(["in.png", "-o", "out.png"] + (overwrite ? ["-y"] : []), in: dir)
            expectRunFailure(r, directory: dir, mentions: ["out.png"])
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) && isDirectory.boolValue,
                    "the directory must still be there")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: output.path)) == [], "and still empty")
        }
    }

    @Test(arguments: ["out.tiff", "out.txt", "out", "out.png.bak"])
    func outputKindThisBuildCannotWrite(_ name: String) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "-o", name], in: dir)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent(name), mentions: [name])
        }
    }

    /// CLI.md: `-o OUT.jpg` writes one still, as `-o OUT.png` does.
    @Test func jpegStill() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png", "-o", "out.jpg"], in: dir)
            expectSuccess(r)
            let data = (try? Data(contentsOf: dir.appendingPathComponent("out.jpg"))) ?? Data()
            #expect(data.starts(with: [0xFF, 0xD8, 0xFF]), "out.jpg should be a JPEG file (\(data.count) bytes)")
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    /// Without -o, CLI.md plays in a window; where there is no display that is a run failure (not a crash or a
    /// hang), and nothing is written.
    @Test func noOutputWithoutADisplayIsAFailureNotACrash() throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(["in.png"], in: dir, environment: ["SDL_VIDEODRIVER": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
            expectRunFailure(r, directory: dir)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []) == ["in.png"])
        }
    }

    // MARK: 5. Usage errors

    @Test(arguments: [
        ["in.png", "--frobnicate", "-o", "out.png"],
        ["in.png", "--size", "0x10", "-o", "out.png"],
        ["in.png", "--size", "abc", "-o", "out.png"],
        ["in.png", "--size", "-5x10", "-o", "out.png"],
        ["in.png", "--layer-size", "10x0", "-o", "out.png"],
        ["in.png", "--background", "notacolour", "-o", "out.png"],
        ["in.png", "--opacity", "2", "-o", "out.png"],
        ["in.png", "--opacity", "-0.1", "-o", "out.png"],
        ["in.png", "--border", "red", "-o", "out.png"],
        ["in.png", "--border", "4:notacolour", "-o", "out.png"],
        ["in.png", "--gravity", "stretch", "-o", "out.png"],
        ["in.png", "--axis", "0,0,0", "-o", "out.png"],
        ["in.png", "--corner-radius", "-1", "-o", "out.png"],
        ["in.png", "--perspective", "-1", "-o", "out.png"],
        ["in.png", "--spin", "0", "-o", "out.png"],
        ["in.png", "--at", "abc", "-o", "out.png"],
        ["in.png", "--rotate", "abc", "-o", "out.png"],
        ["in.png", "--shadow=4:2", "-o", "out.png"],
        ["in.png", "-o"],
        ["-o", "out.png"],
        [],
    ])
    func usageError(_ args: [String]) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let r = runLayerplay(args, in: dir)
            expectUsageError(r, absentOutput: dir.appendingPathComponent("out.png"))
        }
    }
}
