import Foundation

/// `media/NAME` of this package, found by walking up from this file to Package.swift (the samples and the
/// commands that made them are in media/README.md).
public func mediaSample(_ name: String, from file: String = #filePath) -> String {
    var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
        dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent("media/\(name)").path
}
