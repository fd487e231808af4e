import Foundation
import LayerGraphics
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Shared machinery for the end-to-end tests of the `layerplay` command line (see docs/spec/CLI.md):
// finding the built binary, running it with a timeout in a per-test directory, making input PNGs,
// and checking outputs and failures.

// MARK: - Locating the binary

/// The package root: the first directory above this file that holds Package.swift.
let packageRoot: URL = {
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while dir.path != "/" {
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
        dir = dir.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

private func isExecutableFile(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        && FileManager.default.isExecutableFile(atPath: url.path)
}

/// The `layerplay` executable to test. In order: `$LAYERPLAY_BIN`; the build products directory of the running
/// test bundle (built together with these tests, so the freshest); then `.build/debug`, `.build/release` and
/// `.build-*/debug` under the package root (the newest one found).
let layerplayBinary: URL? = {
    let fm = FileManager.default
    if let explicit = ProcessInfo.processInfo.environment["LAYERPLAY_BIN"], !explicit.isEmpty {
        return URL(fileURLWithPath: explicit)
    }
    // The directory of the running test executable, and the one above it (an .xctest bundle on Darwin).
    var productDirs: [URL] = []
    if let arg0 = CommandLine.arguments.first, !arg0.isEmpty {
        let exe = URL(fileURLWithPath: arg0).standardizedFileURL.resolvingSymlinksInPath()
        productDirs.append(exe.deletingLastPathComponent())
    }
    let bundle = Bundle.main.bundleURL.standardizedFileURL
    productDirs.append(bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle)
    productDirs.append(bundle.deletingLastPathComponent())
    for dir in productDirs {
        let candidate = dir.appendingPathComponent("layerplay")
        if isExecutableFile(candidate) { return candidate }
    }
    // Fallbacks under the package root, newest first.
    var candidates = [".build/debug/layerplay", ".build/release/layerplay"].map { packageRoot.appendingPathComponent($0) }
    if let entries = try? fm.contentsOfDirectory(atPath: packageRoot.path) {
        for entry in entries.sorted() where entry.hasPrefix(".build-") {
            candidates.append(packageRoot.appendingPathComponent("\(entry)/debug/layerplay"))
        }
    }
    func modified(_ url: URL) -> Date {
        ((try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }
    return candidates.filter(isExecutableFile).max { modified($0) < modified($1) }
}()

// MARK: - Running it

struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut = false

    /// The non-empty lines of stderr.
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var description: String { "status \(status)\(timedOut ? " (timed out)" : ""); stdout: \(stdout.debugDescription); stderr: \(stderr.debugDescription)" }
}

/// Runs `layerplay` with `args` in `directory` (the process's working directory); kills it after `timeout`
/// seconds and records a failure. Output goes to files, so a chatty process cannot block on a full pipe.
@discardableResult
/// - Parameter environment: variables to set (a nil value removes one) on top of the test's environment.
func runLayerplay(_ args: [String], in directory: URL? = nil, timeout: TimeInterval = 60,
                  environment: [String: String?] = [:],
                  sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
    guard let binary = layerplayBinary else {
        Issue.record("cannot find the layerplay binary (build it, or set LAYERPLAY_BIN)", sourceLocation: sourceLocation)
        return RunResult(status: -1, stdout: "", stderr: "")
    }
    let fm = FileManager.default
    let logs = fm.temporaryDirectory.appendingPathComponent("layerplay-cli-logs-\(UUID().uuidString)")
    try? fm.createDirectory(at: logs, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: logs) }
    let outURL = logs.appendingPathComponent("stdout"), errURL = logs.appendingPathComponent("stderr")
    _ = fm.createFile(atPath: outURL.path, contents: nil)
    _ = fm.createFile(atPath: errURL.path, contents: nil)

    let process = Process()
    process.executableURL = binary
    process.arguments = args
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
    }
    process.standardInput = FileHandle.nullDevice
    guard let outHandle = try? FileHandle(forWritingTo: outURL), let errHandle = try? FileHandle(forWritingTo: errURL) else {
        Issue.record("cannot create the log files in \(logs.path)", sourceLocation: sourceLocation)
        return RunResult(status: -1, stdout: "", stderr: "")
    }
    process.standardOutput = outHandle
    process.standardError = errHandle
    do { try process.run() } catch {
        Issue.record("cannot start \(binary.path): \(error)", sourceLocation: sourceLocation)
        return RunResult(status: -1, stdout: "", stderr: "")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while process.isRunning {
        if Date() > deadline {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            break
        }
        usleep(5_000)
    }
    process.waitUntilExit()
    try? outHandle.close()
    try? errHandle.close()
    let result = RunResult(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
        timedOut: timedOut)
    if timedOut {
        Issue.record("layerplay \(args.joined(separator: " ")) did not finish within \(Int(timeout)) s; killed", sourceLocation: sourceLocation)
    } else if process.terminationReason == .uncaughtSignal {
        Issue.record("layerplay \(args.joined(separator: " ")) crashed with signal \(process.terminationStatus); \(result)",
                     sourceLocation: sourceLocation)
    }
    return result
}

// MARK: - Per-test directories

/// A fresh temporary directory for one test, removed afterwards (kept when `LAYERPLAY_KEEP_TMP=1`).
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let fm = FileManager.default
    let dir = fm.temporaryDirectory.appendingPathComponent("layerplay-cli-\(UUID().uuidString)")
        .standardizedFileURL.resolvingSymlinksInPath()
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
    defer {
        if ProcessInfo.processInfo.environment["LAYERPLAY_KEEP_TMP"] != "1" {
            // Make everything writable again (a test may have locked a directory), then remove.
            if let all = fm.enumerator(atPath: dir.path) {
                for case let path as String in all {
                    chmod(dir.appendingPathComponent(path).path, 0o755)
                }
            }
            try? fm.removeItem(at: dir)
        }
    }
    return try body(dir)
}

// MARK: - Making inputs

/// A colour as the premultiplied BGRA word that `Image` stores.
func word(_ c: Color) -> UInt32 { c.premultiplied.bgra }

let quadrantColors = (topLeft: Color.red, topRight: Color.green, bottomLeft: Color.blue,
                      bottomRight: Color(red: 1, green: 1, blue: 0))

/// An opaque image in four coloured quadrants: red, green / blue, yellow.
func quadrantsImage(width: Int = 64, height: Int = 48) -> Image {
    Image(width: width, height: height) { px in
        for y in 0..<height {
            for x in 0..<width {
                let c = y < height / 2
                    ? (x < width / 2 ? quadrantColors.topLeft : quadrantColors.topRight)
                    : (x < width / 2 ? quadrantColors.bottomLeft : quadrantColors.bottomRight)
                px[y * width + x] = word(c)
            }
        }
    }
}

/// Writes `image` as `name` in `dir`; returns its URL.
@discardableResult
func writePNG(_ image: Image, _ name: String, in dir: URL) throws -> URL {
    let url = dir.appendingPathComponent(name)
    try image.writePNG(to: url.path)
    return url
}

/// Writes the quadrants image (64×48 unless told) as `name` in `dir`.
@discardableResult
func writeQuadrantsPNG(_ name: String = "in.png", in dir: URL, width: Int = 64, height: Int = 48) throws -> URL {
    try writePNG(quadrantsImage(width: width, height: height), name, in: dir)
}

/// An alpha mask: opaque white where `x < opaqueColumns`, fully transparent elsewhere.
func leftHalfMask(width: Int, height: Int, opaqueColumns: Int) -> Image {
    Image(width: width, height: height) { px in
        for y in 0..<height {
            for x in 0..<width { px[y * width + x] = x < opaqueColumns ? word(.white) : word(.clear) }
        }
    }
}

// MARK: - Checking outputs

/// Reads a PNG written by the CLI, recording a failure (and returning nil) when it cannot.
func readPNG(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) -> Image? {
    do { return try Image(contentsOfPNG: url.path) } catch {
        Issue.record("cannot read the output \(url.path): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// True when every channel of `c` is within `tolerance` of r, g, b, a (premultiplied, as stored).
func isNear(_ c: PremultipliedColor, _ r: Int, _ g: Int, _ b: Int, _ a: Int = 255, tolerance: Int = 2) -> Bool {
    abs(Int(c.r) - r) <= tolerance && abs(Int(c.g) - g) <= tolerance && abs(Int(c.b) - b) <= tolerance
        && abs(Int(c.a) - a) <= tolerance
}

func isNear(_ c: PremultipliedColor, _ color: Color, tolerance: Int = 2) -> Bool {
    let p = color.premultiplied
    return isNear(c, Int(p.r), Int(p.g), Int(p.b), Int(p.a), tolerance: tolerance)
}

/// Expects the pixel at (x, y) of `image` to be `color` (within `tolerance` per channel).
func expectPixel(_ image: Image, _ x: Int, _ y: Int, is color: Color, tolerance: Int = 2, _ what: String = "",
                 sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = image.pixel(x: x, y: y)
    #expect(isNear(actual, color, tolerance: tolerance),
            "pixel (\(x),\(y))\(what.isEmpty ? "" : " (\(what))") is \(actual), expected \(color.premultiplied)",
            sourceLocation: sourceLocation)
}

/// Expects the pixel at (x, y) of `image` NOT to be `color` (more than `tolerance` away in some channel).
func expectPixel(_ image: Image, _ x: Int, _ y: Int, isNot color: Color, tolerance: Int = 8, _ what: String = "",
                 sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = image.pixel(x: x, y: y)
    #expect(!isNear(actual, color, tolerance: tolerance),
            "pixel (\(x),\(y))\(what.isEmpty ? "" : " (\(what))") is \(actual), expected anything but \(color.premultiplied)",
            sourceLocation: sourceLocation)
}

/// True when two images have the same size and identical pixels.
func samePixels(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    return a.withUnsafePixels { pa in b.withUnsafePixels { pb in pa.elementsEqual(pb) } }
}

/// Expects a successful run: status 0, nothing on stderr.
func expectSuccess(_ r: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 0, "expected success; \(r)", sourceLocation: sourceLocation)
    #expect(r.stderr.isEmpty, "expected an empty stderr; \(r)", sourceLocation: sourceLocation)
}

/// Temporary files of an interrupted or failed write (`.NAME.PID.partial`) in `dir`.
func partialFiles(in dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
        .filter { $0.hasPrefix(".") && $0.contains("partial") }
}

/// Expects a run failure as CLI.md has it: status 1, exactly one stderr line starting `layerplay: error:` (and
/// containing each of `mentions`); no file at `absentOutput` (when given); no partial temporary file beside it
/// nor in `directory`.
func expectRunFailure(_ r: RunResult, absentOutput: URL? = nil, directory: URL? = nil, mentions: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 1, "expected exit status 1; \(r)", sourceLocation: sourceLocation)
    let lines = r.stderrLines
    #expect(lines.count == 1, "expected exactly one line on stderr; \(r)", sourceLocation: sourceLocation)
    #expect(lines.first?.hasPrefix("layerplay: error:") == true, "expected 'layerplay: error: …'; \(r)",
            sourceLocation: sourceLocation)
    for m in mentions {
        #expect(r.stderr.contains(m), "the error should mention '\(m)'; \(r)", sourceLocation: sourceLocation)
    }
    var dirs: [URL] = []
    if let absentOutput {
        #expect(!FileManager.default.fileExists(atPath: absentOutput.path),
                "no file should be left at \(absentOutput.path)", sourceLocation: sourceLocation)
        dirs.append(absentOutput.deletingLastPathComponent())
    }
    if let directory { dirs.append(directory) }
    for dir in dirs {
        let partials = partialFiles(in: dir)
        #expect(partials.isEmpty, "temporary files left in \(dir.path): \(partials)", sourceLocation: sourceLocation)
    }
}

/// Expects a usage error: argument-parser's reason on one line, exit status 2 (CLI.md), and no output written.
func expectUsageError(_ r: RunResult, absentOutput: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 2, "expected exit status 2 (usage error); \(r)", sourceLocation: sourceLocation)
    #expect(!r.stderr.isEmpty, "expected a usage message on stderr; \(r)", sourceLocation: sourceLocation)
    #expect(r.stderrLines.count == 1, "a usage error is one line, as every failure; \(r)", sourceLocation: sourceLocation)
    #expect(!r.stderr.hasPrefix("layerplay: error:"), "a usage error is argument-parser's own, not a run failure; \(r)",
            sourceLocation: sourceLocation)
    if let absentOutput {
        #expect(!FileManager.default.fileExists(atPath: absentOutput.path),
                "no file should be left at \(absentOutput.path)", sourceLocation: sourceLocation)
    }
}
