import Foundation
import LayerGraphics
@testable import LayerMedia
import Testing

// A still shows one picture: `VideoFrameSource` decodes no second frame of it, whatever its demuxer would still
// hand over (a file of two PNGs, read by the png_pipe demuxer, is two packets).

@Test func aStillShowsItsFirstPictureAndDecodesNoSecond() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("still-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let red = dir.appendingPathComponent("red.png").path, blue = dir.appendingPathComponent("blue.png").path
    try Image(width: 8, height: 6, color: .red).writePNG(to: red)
    try Image(width: 8, height: 6, color: .blue).writePNG(to: blue)
    // No .png extension: FFmpeg probes the content and reads it with png_pipe, one packet per picture.
    let both = dir.appendingPathComponent("two-pictures.bin")
    try (try Data(contentsOf: URL(fileURLWithPath: red)) + Data(contentsOf: URL(fileURLWithPath: blue))).write(to: both)

    let source = try VideoFrameSource(path: both.path)
    #expect(source.asset.isStill, "the file should read as a still (container \(source.asset.container))")
    let first = try #require(try source.frame(at: 0))
    let later = try #require(try source.frame(at: 5))
    #expect(later.time == first.time, "a still has one picture; a second one was shown at \(later.time.seconds) s")
    #expect(try source.decodeNext() == nil, "nothing is decoded after a still's picture")
}
