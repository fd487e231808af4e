import Foundation

extension PlaylistAudioMix {
    /// Bytes before the samples of the WAV `writeWAV` writes.
    public static let wavHeaderSize = 68

    /// Writes the whole mix, from timeline 0 to the playlist's end, as a 32-bit float WAV file: the sound an export
    /// of several inputs muxes (re-encoded by the exporter for its container), so that an export hears exactly the
    /// samples the window plays. Waits for decoders that are behind; gives up after `timeout` seconds without progress.
    /// - Throws: `MediaError` when the file cannot be written or a decoder stalls.
    public func writeWAV(to path: String, timeout: Double = 30) throws {
        seek(to: 0)
        let total = timeline.totalFrames
        let rate = timeline.sampleRate
        var data = Data(capacity: 44 + total * channels * 4)
        func word(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func half(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(total * channels * 4)
        // WAVE_FORMAT_EXTENSIBLE, for its channel mask: a plain float WAV names no layout, and the exporter's resampler
        // then refused the frames ("Input changed") once the decoder had guessed one.
        data.append(contentsOf: Array("RIFF".utf8)); word(UInt32(Self.wavHeaderSize - 8) + bytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); word(40)
        half(0xFFFE)
        half(UInt16(channels)); word(UInt32(rate)); word(UInt32(rate * channels * 4)); half(UInt16(channels * 4)); half(32)
        half(22); half(32)
        word(channels == 1 ? 0x4 : (1 << UInt32(min(channels, 18))) - 1) // front centre; front left, right…
        // KSDATAFORMAT_SUBTYPE_IEEE_FLOAT: 00000003-0000-0010-8000-00aa00389b71.
        data.append(contentsOf: [0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71] as [UInt8])
        data.append(contentsOf: Array("data".utf8)); word(bytes)
        var block = [Float](repeating: 0, count: 4096 * channels)
        var written = 0
        var stalledSince = Date()
        while written < total {
            let n = min(4096, total - written)
            let starved = block.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, frames: n).starved }
            if starved {
                if Date().timeIntervalSince(stalledSince) > timeout { throw MediaError("the sound of the playlist stopped decoding") }
                Thread.sleep(forTimeInterval: 0.001)
                continue
            }
            stalledSince = Date()
            block.withUnsafeBytes { data.append(contentsOf: $0.prefix(n * channels * 4)) }
            written += n
        }
        do { try data.write(to: URL(fileURLWithPath: path)) } catch { throw MediaError("cannot write '\(path)': \(error.localizedDescription)") }
    }
}
