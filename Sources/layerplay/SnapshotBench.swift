import Foundation
import LayerGraphics
import LayerKit

/// `layerplay bench --snapshot`: how long taking a snapshot of an animated tree takes (the work a host does per
/// frame before compositing): 2,000 layers, each with 4 running animations of different kinds, one core.
/// Issue 16's bar: under 2 ms per snapshot.
enum SnapshotBench {
    static let layerCount = 2000

    /// The tree: a root with `layerCount` small layers in a grid, each animated 4 ways.
    static func makeTree() -> Layer {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        root.position = Point(x: 960, y: 540)
        let animated = ProcessInfo.processInfo.environment["BENCH_NO_ANIMATIONS"] == nil // the tree alone, to compare
        for i in 0..<layerCount {
            let layer = Layer()
            layer.bounds = Rect(x: 0, y: 0, width: 30, height: 20)
            layer.position = Point(x: Double(i % 50) * 38 + 20, y: Double(i / 50) * 26 + 15)
            layer.backgroundColor = Color(red: Double(i % 7) / 7, green: 0.5, blue: 0.8)
            layer.cornerRadius = 4
            if animated {
                for animation in animations(phase: Double(i) / Double(layerCount)) { layer.add(animation.1, forKey: animation.0) }
            }
            root.addSublayer(layer)
        }
        return root
    }

    /// Four animations of four kinds and value types, all running forever.
    static func animations(phase: Double) -> [(String, Animation)] {
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.3; fade.toValue = 1.0; fade.duration = 1.5; fade.autoreverses = true
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0; spin.toValue = 2 * Double.pi; spin.duration = 3; spin.isAdditive = true
        let tint = BasicAnimation(keyPath: "backgroundColor")
        tint.toValue = Color(red: 1, green: 0.3, blue: 0.1); tint.duration = 2; tint.autoreverses = true
        tint.timingFunction = .easeInEaseOut
        let bounce = BasicAnimation(keyPath: "position.y")
        bounce.byValue = -12.0; bounce.duration = 0.8; bounce.autoreverses = true; bounce.isAdditive = true
        let list: [(String, Animation)] = [("fade", fade), ("spin", spin), ("tint", tint), ("bounce", bounce)]
        for i in list.indices {
            list[i].1.repeatCount = .infinity
            list[i].1.timeOffset = phase * list[i].1.duration
        }
        return list
    }

    /// Median and 99th-percentile milliseconds of `frames` snapshots at 60 frames/s times.
    static func run(frames: Int) -> (median: Double, p99: Double) {
        let root = makeTree()
        for i in 0..<10 { _ = root.snapshot(at: Double(i) / 60) } // warm up
        var times: [Double] = []
        for i in 0..<frames {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let snapshot = root.snapshot(at: Double(i) / 60)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            withExtendedLifetime(snapshot) {}
        }
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
    }
}
