import Foundation
@testable import LayerMedia
import Testing

/// What the sound device receives from a mono file: the file's own level on each of its two channels, as ffplay
/// plays it (issue 20: it was 3 dB quieter, libswresample's centre mix level).
@Suite("Mono level")
struct MonoLevelTests {
    /// RMS in dBFS of every `stride`-th sample from `offset` on.
    private func level(_ samples: [Float], offset: Int, stride: Int) -> Double {
        var sum = 0.0, n = 0
        for i in Swift.stride(from: offset, to: samples.count, by: stride) { sum += Double(samples[i] * samples[i]); n += 1 }
        return 10 * log10(sum / Double(max(n, 1)))
    }

    /// Everything `path` sounds, as the device gets it: 48 kHz, two channels interleaved.
    private func decodedStereo(_ path: String) throws -> [Float] {
        let decoding = try AudioDecoding(path: path, sampleRate: 48000, channels: 2)
        var samples: [Float] = []
        while true {
            let chunk = decoding.next(maxFrames: 4096)
            if chunk.isEmpty { return samples }
            samples += chunk
        }
    }

    @Test func aMonoFilePlaysAtItsOwnLevelOnBothChannels() throws {
        // tone.m4a: lavfi's mono 440 Hz sine, amplitude 1/8: -21.07 dBFS RMS.
        let samples = try decodedStereo(sample("tone.m4a"))
        // The middle half second (away from the encoder's fade-in and the end).
        let middle = Array(samples[(48000 / 4 * 2)..<(48000 * 3 / 4 * 2)])
        let left = level(middle, offset: 0, stride: 2), right = level(middle, offset: 1, stride: 2)
        #expect(abs(left - -21.07) < 0.3 && abs(right - -21.07) < 0.3, "left \(left) dBFS, right \(right) dBFS; the file is -21.07")
    }

    @Test func stereoFilesKeepTheirLevel() throws {
        // A stereo file whose two channels both carry the sine at its own level (-21.07 dBFS), made by the ffmpeg CLI.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mono-level-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let stereo = dir.appendingPathComponent("stereo.m4a").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                            "-af", "pan=stereo|c0=c0|c1=c0", "-c:a", "aac", "-b:a", "96k", stereo]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "the ffmpeg CLI (make deps installs it) made no stereo file")
        let samples = try decodedStereo(stereo)
        let middle = Array(samples[(48000 / 4 * 2)..<(48000 * 3 / 4 * 2)])
        #expect(abs(level(middle, offset: 0, stride: 2) - -21.07) < 0.3 && abs(level(middle, offset: 1, stride: 2) - -21.07) < 0.3)
    }
}
