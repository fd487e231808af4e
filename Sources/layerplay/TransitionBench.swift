import Foundation
import LayerCompositor
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

/// `layerplay bench --transition TYPE`: the compositor's cost of one frame of a playlist transition (issue 30, item 9)
/// between two 1920x1080 YUV 4:2:0 test cards, at the transition's midpoint, rendered as the window renders it
/// (`Compositor.renderFrame`, pictures accepted as an underlay). No decoding, so the number is the compositing alone;
/// it is given in wall time and in CPU time (on a shared machine the CPU time is the steadier of the two).
enum TransitionBench {
    /// Renders `frames` frames with one thread and with every core; one line per run, then a JSON line; the frame to
    /// `still` (PNG) when given, to look at.
    static func run(_ transition: PlaylistTransition, named name: String, frames: Int, still: String?) throws {
        let size = (width: 1920, height: 1080)
        // Two cards (the second a half-size picture scaled up, its grid twice as coarse), each a full-frame picture.
        let cards = try [BenchCommand.testCard(width: 1920, height: 1080), BenchCommand.testCard(width: 960, height: 540)].map { picture in
            try CardTree(input: "test-card", params: [("size", "1920x1080"), ("gravity", "resize")], subtitles: nil,
                         media: TestCardMedia(contents: .pixelBuffer(picture), width: picture.width, height: picture.height))
        }
        let timeline = PlaylistTimeline(lengths: [4, 4], transition: transition.seconds)
        let tree = PlaylistTree(items: cards.map { PlaylistTree.Item(layer: $0.host, size: (size.width, size.height)) },
                                timeline: timeline, transition: transition, size: size)
        let middle = timeline.seconds(timeline.items[1].startFrame) + transition.seconds / 2
        tree.pose(at: middle)
        let snapshot = tree.root.snapshot(at: middle)
        let surface = Surface(width: size.width, height: size.height)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var results: [String] = []
        for threads in [1, cores] {
            let compositor = Compositor(threads: threads)
            func frame() { _ = compositor.renderFrame(snapshot, into: surface, over: nil, acceptsPicture: { $0.planes.count >= 3 }) }
            for _ in 0..<5 { frame() } // warm up
            let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = processCPUSeconds()
            for _ in 0..<frames { frame() }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - wall0) / 1e6 / Double(frames)
            let cpu = (processCPUSeconds() - cpu0) * 1000 / Double(frames)
            let label = threads == 1 ? "1_thread" : "\(threads)_threads"
            results.append(String(format: "\"wall_ms_%@\": %.2f, \"cpu_ms_%@\": %.2f", label, wall, label, cpu))
            print(String(format: "transition %@ at its midpoint, 1920x1080, %d thread%@: %.2f ms/frame wall, %.2f ms/frame CPU",
                         name, threads, threads == 1 ? "" : "s", wall, cpu))
        }
        print("{" + results.joined(separator: ", ") + "}")
        if let still { try surface.writePNG(to: still) }
    }

    /// CPU seconds this process has used (every thread).
    private static func processCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
