import FuzzSupport
import Foundation
import LayerMedia

/// One fuzz input read as a still image (`ImageLoader.load`: demux, decode the first frame, convert to BGRA),
/// as an image layer's contents or a `--mask` are read. Errors are expected; crashes are findings.
// Also exported under libFuzzer's name: its runtime refers to it even when main.swift starts the driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let path = FuzzInput.write(data, size) else { return 0 }
    _ = try? ImageLoader.load(path: path)
    return 0
}
