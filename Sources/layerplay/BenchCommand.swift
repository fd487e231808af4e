import ArgumentParser
import Foundation
import LayerCompositor
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerScene

/// `layerplay bench`: speed of the compositor on the benchmark scene of Benchmarks/ffmpeg-peers.sh (release builds only).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the compositor on the benchmark scene: 1920x1080, a 1280x720 YUV 4:2:0 card, corner radius 48, border 8, 30° about y at perspective 2000, shadow 20:0.5:20,20.")

    @Option(help: "Frames to render per configuration.")
    var frames: Int = 240
    @Option(help: "Write the last frame of the all-cores run here (PNG), to look at it.")
    var still: String?
    @Flag(help: "Time snapshots of an animated tree instead: 2,000 layers with 4 running animations each, one core.")
    var snapshot = false
    @Option(help: "Time one frame of a playlist transition instead (fade, push, moveIn, reveal or cube): two 1920x1080 YUV cards at the transition's midpoint.")
    var transition: String?

    func run() throws {
        if let transition {
            guard case .success(let t) = PlaylistTransition.parse(transition) else {
                throw ValidationError("--transition: fade, push, moveIn, reveal or cube, not '\(transition)'")
            }
            return try TransitionBench.run(t, named: transition, frames: frames, still: still)
        }
        if snapshot {
            let (median, p99) = SnapshotBench.run(frames: frames)
            print(String(format: "snapshot of %d layers x 4 animations: median %.3f ms, p99 %.3f ms", SnapshotBench.layerCount, median, p99))
            print(String(format: "{\"snapshot_ms_median\": %.3f, \"snapshot_ms_p99\": %.3f}", median, p99))
            return
        }
        let contents = ProcessInfo.processInfo.environment["BENCH_BGRA"] == "1" ? LayerContents.image(Self.testCardImage(width: 1280, height: 720)) : LayerContents.pixelBuffer(Self.testCard(width: Int(ProcessInfo.processInfo.environment["BENCH_SOURCE_WIDTH"] ?? "") ?? 1280,
                                                            height: Int(ProcessInfo.processInfo.environment["BENCH_SOURCE_HEIGHT"] ?? "") ?? 720))
        // The built-in card scene with the bench's look, its input the test card in memory.
        let card = try CardTree(input: "test-card", params: [
            ("size", "1920x1080"), ("background", "#202020"), ("layerSize", "1280x720"), ("gravity", "resize"),
            ("rotate", "30"), ("perspective", "2000"), ("cornerRadius", "48"), ("border", "8:white"), ("shadow", "20:0.5:20,20"),
        ], subtitles: nil, media: TestCardMedia(contents: contents, width: 1280, height: 720))
        let snapshot = card.host.snapshot()
        let surface = Surface(width: 1920, height: 1080)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var results: [String] = []
        for threads in [1, cores] {
            let compositor = Compositor(threads: threads)
            for _ in 0..<5 { compositor.render(snapshot, into: surface) } // warm up
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<frames { compositor.render(snapshot, into: surface) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let fps = Double(frames) / seconds
            results.append(String(format: "\"fps_%d_thread%@\": %.1f", threads, threads == 1 ? "" : "s", fps))
            print(String(format: "compositor scene 1920x1080, %d thread%@: %.1f frames/s (%.2f ms/frame)",
                         threads, threads == 1 ? "" : "s", fps, 1000 / fps))
        }
        print("{" + results.joined(separator: ", ") + "}")
        if let still { try surface.writePNG(to: still) }
    }

    /// A 4:2:0 BT.709 test card (colour bars over a gradient, a grid), converted once from RGB.
    static func testCard(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(converting: testCardImage(width: width, height: height), to: .yuv420p, matrix: .bt709, range: .limited)
    }

    /// The test card as premultiplied BGRA (BENCH_BGRA=1 benches BGRA contents instead of YUV).
    static func testCardImage(width: Int, height: Int) -> Image {
        let bars: [(Double, Double, Double)] = [(0.75, 0.75, 0.75), (0.75, 0.75, 0), (0, 0.75, 0.75), (0, 0.75, 0),
                                                 (0.75, 0, 0.75), (0.75, 0, 0), (0, 0, 0.75)]
        let image = Image(width: width, height: height) { px in
            for y in 0..<height {
                for x in 0..<width {
                    var (r, g, b) = bars[x * bars.count / width]
                    let shade = 0.6 + 0.4 * Double(y) / Double(height)
                    r *= shade; g *= shade; b *= shade
                    if x % 80 == 0 || y % 80 == 0 { (r, g, b) = (1, 1, 1) }
                    px[y * width + x] = Color(red: r, green: g, blue: b).premultiplied.bgra
                }
            }
        }
        return image
    }
}

/// The bench's input: a synthetic test card in memory, probed and shown as a still file would be (contents with
/// the card's gravity), so the bench times the built-in card scene without decoding anything.
final class TestCardMedia: SceneMedia {
    let contents: LayerContents
    let size: Size

    init(contents: LayerContents, width: Int, height: Int) {
        self.contents = contents
        size = Size(width: Double(width), height: Double(height))
    }

    func probe(_ path: String) throws -> SceneMediaInfo { SceneMediaInfo(size: size, duration: nil, fps: nil, hasAudio: false) }

    func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let layer = Layer()
        layer.contents = contents
        layer.contentsGravity = videoGravity
        return layer
    }
}
