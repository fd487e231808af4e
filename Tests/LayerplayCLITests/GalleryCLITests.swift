import Foundation
import LayerGraphics
import Testing

@Suite("layerplay gallery")
struct GalleryCLITests {
    /// The figures' file stems and canvas sizes (Sources/LayerGallery; the goldens are in LayerGalleryTests).
    static let figures: [(String, Int, Int)] = [
        ("1.5-blue-layer", 240, 240), ("2.8-sprites", 256, 96), ("2.10-nine-slice", 256, 160), ("3.7-clock", 240, 240), ("5.8-rotate-y", 200, 160),
        ("5.10-perspective", 200, 160), ("5.13-vanishing-point", 256, 160), ("5.16-opposite-z", 200, 200),
        ("5.18-opposite-y", 200, 200), ("5.21-cube", 256, 256), ("5.22-lit-cube", 256, 256), ("video-cube", 256, 256),
        ("7-implicit-colour", 160, 160), ("8-ship-along-path", 240, 240), ("8-animation-group", 240, 240), ("8-spring", 240, 160), ("8-push-transition", 160, 160),
        ("6.1-stick-figure", 240, 240), ("6.x-rounded-corners", 200, 200), ("6.x-rounded-corners-mask", 200, 200),
        ("6.2-text-layer-scale", 232, 256), ("6.3-attributed-text", 240, 200), ("6.5-transform-layer-cubes", 256, 160), ("6.6-diagonal-gradient", 240, 240), ("6.7-gradient-locations", 240, 240), ("6.13-fire", 256, 128),
        ("6.8-replicator-ring", 256, 256), ("6.9-reflection", 200, 256), ("6.10-scroll-view", 240, 240), ("6.10-scroll-view-scrolled", 240, 240),
        ("5.9-cube-literal", 256, 256), ("5.10-lit-cube-literal", 256, 256),
        ("4.20-group-opacity", 256, 160), ("4.21-rasterize", 256, 160),
        ("6.15-opengl-triangle", 200, 200),
        ("6.12-tiled-layer", 256, 256), ("6.12-tiled-layer-zoomed-out", 256, 256),
    ]

    @Test func galleryWritesEveryFigureAsAPNG() throws {
        try withTemporaryDirectory { dir in
            let media = packageRoot.appendingPathComponent("media").path
            let r = runLayerplay(["gallery", "out/figures", "--media", media], in: dir)
            expectSuccess(r)
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.count == Self.figures.count, "one line per file: \(r.stdout)")
            for (name, width, height) in Self.figures {
                let url = dir.appendingPathComponent("out/figures/\(name).png")
                #expect(lines.contains { $0.hasPrefix("out/figures/\(name).png") }, "\(name) is reported")
                guard let image = readPNG(url) else { continue }
                #expect(image.width == width && image.height == height, "\(name): \(image.width)x\(image.height)")
            }
            #expect(partialFiles(in: dir.appendingPathComponent("out/figures")).isEmpty)
        }
    }

    /// Without EGL the GL figure falls back to its CPU drawing: the same triangle, one warning line, no failure.
    @Test func galleryWithoutEGLDrawsTheTriangleOnTheCPU() throws {
        try withTemporaryDirectory { dir in
            let media = packageRoot.appendingPathComponent("media").path
            let r = runLayerplay(["gallery", "out", "--media", media], in: dir, environment: ["LAYERPLAY_NO_EGL": "1"])
            #expect(r.status == 0, "\(r)")
            // The one line on stderr is the warning.
            #expect(r.stderr == "warning: OpenGL ES unavailable: EGL disabled by LAYERPLAY_NO_EGL; drawables use their CPU path\n")
            let image = try #require(readPNG(dir.appendingPathComponent("out/6.15-opengl-triangle.png")))
            let centroid = image.pixel(x: 100, y: 117) // (50,150), (100,50), (150,150): a third of each colour
            for channel in [centroid.r, centroid.g, centroid.b] { #expect(abs(Int(channel) - 85) <= 3, "\(centroid)") }
            #expect(image.pixel(x: 2, y: 2) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255))
        }
    }

    @Test func galleryRefusesAnOutputDirectoryItCannotCreate() throws {
        try withTemporaryDirectory { dir in
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("blocker").path, contents: Data("a file\n".utf8))
            let r = runLayerplay(["gallery", "blocker/figures"], in: dir)
            expectRunFailure(r, mentions: ["blocker/figures"])
        }
    }

    @Test func galleryWithoutTheClipSaysWhichFigureNeedsIt() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay(["gallery", "out", "--media", "nowhere"], in: dir)
            expectRunFailure(r, mentions: ["video-cube", "nowhere/clip.mp4"])
        }
    }
}
