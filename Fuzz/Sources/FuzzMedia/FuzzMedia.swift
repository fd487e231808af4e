import FuzzSupport
import Foundation
import LayerMedia

/// One fuzz input: written to a file (the product only opens paths) and opened as `layerplay FILE` does:
/// the asset is probed, then the first frames are decoded and converted. A damaged file may throw; that is
/// fine. Only a crash, a sanitizer report, a hang (-timeout) or runaway memory (-rss_limit_mb) is a finding.
// Also exported under libFuzzer's name: its runtime refers to it even when main.swift starts the driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let path = FuzzInput.write(data, size) else { return 0 }
    guard let asset = try? MediaAsset(path: path) else { return 0 }
    _ = asset.json()
    guard asset.video != nil, let source = try? VideoFrameSource(path: path) else { return 0 }
    // A few frames forward, then one behind (a seek back), as playback and export ask for them.
    for t in [0.0, 0.04, 0.2, 0.5, 0.1] {
        guard (try? source.frame(at: t)) != nil else { break }
    }
    return 0
}
