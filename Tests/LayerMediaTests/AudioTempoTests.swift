import Foundation
@testable import LayerMedia
import Testing

/// `--speed` keeps the pitch (issue 30, item 2): libavfilter's atempo makes a tone shorter or longer, not higher or
/// lower, which a resampler would.
@Suite("Audio tempo")
struct AudioTempoTests {
    /// One second of a 440 Hz tone through a tempo filter: the frames out and the tone's frequency in them
    /// (rising zero crossings per second of output).
    private func stretch(_ tempo: Double) throws -> (frames: Int, hertz: Double) {
        let filter = try AudioTempo(tempo: tempo, sampleRate: 48000, channels: 2)
        var input = [Float](repeating: 0, count: 48000 * 2)
        for i in 0..<48000 { let v = Float(sin(2 * Double.pi * 440 * Double(i) / 48000)); input[2 * i] = v; input[2 * i + 1] = v }
        var output: [Float] = []
        var chunk = [Float](repeating: 0, count: 4096 * 2)
        for start in stride(from: 0, to: 48000, by: 1000) {
            try input.withUnsafeBufferPointer { try filter.push($0.baseAddress! + start * 2, frames: 1000) }
            while true {
                let n = chunk.withUnsafeMutableBufferPointer { filter.pull(into: $0.baseAddress!, frames: 4096) }
                if n == 0 { break }
                output += chunk[0..<(n * 2)]
            }
        }
        let frames = output.count / 2
        // The middle half of the output, away from the filter's start-up.
        let left = stride(from: frames / 4, to: frames * 3 / 4, by: 1).map { output[2 * $0] }
        let rising = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return (frames, Double(rising) / (Double(left.count) / 48000))
    }

    @Test(arguments: [0.25, 0.5, 1.5, 2, 4])
    func theLengthChangesAndThePitchStays(_ tempo: Double) throws {
        let (frames, hertz) = try stretch(tempo)
        let expected = 48000 / tempo
        // Each atempo holds back up to a window of its input until more arrives (two of them at 4×: 0.17 s).
        #expect(Double(frames) * tempo > 48000 * 0.8 && Double(frames) <= expected + 48, "\(frames) frames for \(expected)")
        #expect(abs(hertz - 440) < 8, "a 440 Hz tone came out at \(hertz) Hz at \(tempo)×")
    }

    @Test func tempoStagesStayInAtempoRange() {
        #expect(AudioTempo.stages(0.25) == [0.5, 0.5])
        #expect(AudioTempo.stages(4) == [2, 2])
        #expect(AudioTempo.stages(3) == [2, 1.5])
        #expect(AudioTempo.stages(1.5) == [1.5])
        #expect(throws: MediaError.self) { try AudioTempo(tempo: 0, sampleRate: 48000, channels: 2) }
    }
}
