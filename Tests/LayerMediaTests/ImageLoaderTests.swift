import Foundation
import LayerGraphics
import LayerMedia
import Testing

/// A temporary directory removed after `body`.
func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layermedia-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try body(dir)
}

/// 7×5 pixels: opaque primaries, a half-transparent green, a transparent pixel and a grey ramp.
func sampleImage() -> Image {
    Image(width: 7, height: 5) { px in
        for y in 0..<5 {
            for x in 0..<7 {
                let c: Color
                switch (x + y) % 5 {
                case 0: c = .red
                case 1: c = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
                case 2: c = .clear
                case 3: c = Color(white: Double(x) / 6)
                default: c = Color(red: 0.2, green: 0.4, blue: 0.9)
                }
                px[y * 7 + x] = c.premultiplied.bgra
            }
        }
    }
}

@Suite("Images through FFmpeg")
struct ImageLoaderTests {
    @Test func pngRoundTripThroughFFmpegKeepsPremultipliedPixels() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("sample.png").path
            let original = sampleImage()
            try original.writePNG(to: path)
            let loaded = try ImageLoader.load(path: path)
            #expect(loaded.width == 7 && loaded.height == 5)
            for y in 0..<5 {
                for x in 0..<7 {
                    let a = original.pixel(x: x, y: y), b = loaded.pixel(x: x, y: y)
                    let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                    #expect(d <= 1, "pixel (\(x),\(y)): \(a) became \(b)")
                }
            }
            #expect(!loaded.isOpaque)
        }
    }

    @Test func opaqueImagesStayOpaque() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("opaque.png").path
            try Image(width: 4, height: 3, color: Color(red: 0.25, green: 0.5, blue: 0.75)).writePNG(to: path)
            let loaded = try ImageLoader.load(path: path)
            #expect(loaded.isOpaque)
            let p = loaded.pixel(x: 2, y: 1)
            #expect(abs(Int(p.r) - 64) <= 1 && abs(Int(p.g) - 128) <= 1 && abs(Int(p.b) - 191) <= 1)
        }
    }

    @Test(arguments: ["missing", "empty", "text", "random", "truncated", "directory"])
    func badInputsThrowANamedError(_ kind: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("bad-\(kind).png").path
            switch kind {
            case "missing": break
            case "empty": _ = FileManager.default.createFile(atPath: path, contents: Data())
            case "text": _ = FileManager.default.createFile(atPath: path, contents: Data("hello, this is not a picture\n".utf8))
            case "random":
                var g = SystemRandomNumberGenerator()
                _ = FileManager.default.createFile(atPath: path, contents: Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &g) }))
            case "truncated":
                try Image(width: 64, height: 64, color: .red).writePNG(to: path)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: path))
            default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
            do {
                let image = try ImageLoader.load(path: path)
                // A truncated PNG may still decode (FFmpeg conceals); it must then be a real picture.
                #expect(kind == "truncated" && image.width == 64, "\(kind) loaded as \(image)")
            } catch let error as MediaError {
                #expect(error.description.contains(path), "\(error) does not name the file")
            }
        }
    }
}

@Suite("Probing")
struct MediaAssetTests {
    @Test func aStillIsOneVideoStreamWithItsSize() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("still.png").path
            try sampleImage().writePNG(to: path)
            let asset = try MediaAsset(path: path)
            let video = try #require(asset.video)
            #expect(video.width == 7 && video.height == 5)
            #expect(video.displayWidth == 7 && video.displayHeight == 5 && video.rotation == 0)
            #expect(video.codec == "png")
            #expect(video.hasAlpha)
            #expect(asset.audio == nil)
            let json = asset.json()
            #expect(json.contains("\"display_width\" : 7"))
        }
    }

    @Test func notMediaIsRefused() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("notes.txt").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(String(repeating: "plain text ", count: 50).utf8))
            #expect(throws: MediaError.self) { try MediaAsset(path: path) }
        }
    }
}
