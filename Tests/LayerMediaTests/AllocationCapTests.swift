import CFFmpeg
import Foundation
@testable import LayerMedia
import Testing

/// A PNG whose second chunk claims 0x7e7e7e7e bytes (2.1 GB) and holds a few: what `make fuzz` found asking
/// FFmpeg's demuxer for the whole claim at once.
private func pngClaimingTwoGigabytes() -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
    let header: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 40, 0, 0, 0, 30, 8, 6, 0, 0, 0] + [0x04, 0x5e, 0xdd, 0x5c]
    let huge: [UInt8] = [0x7e, 0x7e, 0x7e, 0x7e] + Array("IDAT".utf8) + [UInt8](repeating: 0x7e, count: 200)
    return signature + header + huge
}

@Test func aChunkClaimingGigabytesIsRefusedWithoutAllocatingThem() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString).png")
    try Data(pngClaimingTwoGigabytes()).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    // Under an address-space limit of 1.5 GB the 2 GB claim could not be allocated at all; with FFmpeg's cap in
    // force it is never asked for. Either way the load must fail with an error, and the cap must be in force.
    #expect(throws: (any Error).self) { _ = try ImageLoader.load(path: url.path) }
    #expect(av_malloc(FFmpegLogging.maximumAllocation + 1) == nil, "FFmpeg's allocation cap is not in force")
}
