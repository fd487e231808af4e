import Foundation
import LayerGraphics

/// Golden-image comparison for compositor tests.
///
/// References live beside the test file: `References/<area>/<name>.png`. A comparison passes when at most
/// `maxDifferingPixels` pixels differ by more than `maxChannelDifference` in any channel (premultiplied BGRA).
/// On failure the actual picture and a diff (differing pixels in red, the rest a faded copy of the
/// reference) are written under `.build/golden-failures/`. `RECORD_GOLDENS=1` writes the references instead.
public struct GoldenTolerance: Sendable {
    public var maxChannelDifference: Int
    public var maxDifferingPixels: Int
    public init(maxChannelDifference: Int, maxDifferingPixels: Int) {
        self.maxChannelDifference = maxChannelDifference
        self.maxDifferingPixels = maxDifferingPixels
    }
    /// Small rounding differences only (the default for our own deterministic renders).
    public static let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
}

public enum GoldenImage {
    /// Compares `surface` with the reference, or records it. Returns nil on success, else a message.
    public static func compare(_ surface: Surface, area: String, name: String, tolerance: GoldenTolerance = .strict,
                               testFile: String = #filePath) -> String? {
        let testDir = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        let refURL = testDir.appendingPathComponent("References/\(area)/\(name).png")
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try? FileManager.default.createDirectory(at: refURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            do { try surface.writePNG(to: refURL.path) } catch { return "cannot record \(refURL.path): \(error)" }
            return nil
        }
        guard let reference = try? Image(contentsOfPNG: refURL.path) else {
            return "no reference image at \(refURL.path); run with RECORD_GOLDENS=1 and look at it before committing"
        }
        guard reference.width == surface.width, reference.height == surface.height else {
            return "size \(surface.width)x\(surface.height) differs from the reference's \(reference.width)x\(reference.height)"
        }
        var differing = 0, worst = 0
        let diff = Surface(width: surface.width, height: surface.height)
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let a = surface.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                worst = max(worst, d)
                if d > tolerance.maxChannelDifference {
                    differing += 1
                    diff.setPixel(x: x, y: y, PremultipliedColor(r: UInt8(min(255, 128 + d)), g: 0, b: 0, a: 255))
                } else {
                    let grey = UInt8((Int(b.r) + Int(b.g) + Int(b.b)) / 12 + 20)
                    diff.setPixel(x: x, y: y, PremultipliedColor(r: grey, g: grey, b: grey, a: 255))
                }
            }
        }
        if differing <= tolerance.maxDifferingPixels { return nil }
        let outDir = failureDirectory(testDir).appendingPathComponent(area)
        try? FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let actualPath = outDir.appendingPathComponent("\(name)-actual.png").path
        let diffPath = outDir.appendingPathComponent("\(name)-diff.png").path
        try? surface.writePNG(to: actualPath)
        try? diff.writePNG(to: diffPath)
        return "\(area)/\(name): \(differing) pixels differ by more than \(tolerance.maxChannelDifference) (allowed \(tolerance.maxDifferingPixels), worst \(worst)); actual: \(actualPath), diff: \(diffPath)"
    }

    /// `<package>/.build/golden-failures`, found by walking up from the test file to Package.swift.
    static func failureDirectory(_ start: URL) -> URL {
        var dir = start
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.appendingPathComponent(".build/golden-failures")
            }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("golden-failures")
    }
}

/// Peak signal-to-noise ratio between two equally sized surfaces over the colour channels, in dB (∞ when equal).
public func psnr(_ a: Surface, _ b: Surface) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var sum = 0.0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
            for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] { let d = Double(u) - Double(v); sum += d * d }
        }
    }
    let mse = sum / Double(a.width * a.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
