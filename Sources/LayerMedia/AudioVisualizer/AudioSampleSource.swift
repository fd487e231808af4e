import Foundation

/// Where an `AudioVisualizerLayer` reads sound: samples of up to two channels at one rate, addressed by frame
/// index (frame i plays at i / sampleRate seconds of media time). A pure function: the same frames always give
/// the same samples, so a seek in an export draws what playing draws.
public protocol AudioSampleSource: AnyObject, Sendable {
    /// Frames a second.
    var sampleRate: Int { get }
    /// Channels, 1 or 2.
    var channelCount: Int { get }
    /// Seconds of sound; frames past it (and before 0) are silence. 0 when unknown.
    var duration: Double { get }
    /// `count` samples of `channel` from frame `start` on; silence outside the sound, never fewer than `count`.
    func samples(channel: Int, from start: Int, count: Int) -> [Float]
}

/// A file's sound decoded for display: its first audio stream resampled to mono or stereo float at a low rate,
/// in one-second blocks decoded on demand and kept in a small least-recently-used cache. Memory is bounded by
/// `cacheSeconds` whatever the file's length (an hour of audio is never loaded); each block is decoded from its
/// own seek, so its samples do not depend on what was read before.
public final class AudioFileSamples: AudioSampleSource, @unchecked Sendable { // mutable state under `lock`
    /// Frames a second, as asked (clamped).
    public let sampleRate: Int
    /// 1 for a mono file, 2 for any other (more channels are mixed down to two).
    public let channelCount: Int
    /// The audio stream's seconds (the container's when the stream does not say); 0 when unknown.
    public let duration: Double
    /// Blocks kept at most (one second each).
    public let cacheSeconds: Int

    private let lock = NSLock()
    private let decoding: AudioDecoding
    /// Interleaved blocks by index, and the indices from least to most recently used.
    private var blocks: [Int: [Float]] = [:]
    private var recency: [Int] = []
    /// Frames decoded before a block's start and dropped: the decoder's own warm-up (AAC and MP3 frames overlap
    /// their neighbours), so a block's first samples equal those of a decode that ran through.
    private var prerollFrames: Int { sampleRate / 10 }

    /// Opens the first audio stream of `path`.
    /// - Parameters:
    ///   - path: the file; its first audio stream is read.
    ///   - sampleRate: frames a second to resample to (clamped to 1000…96000); 16 kHz shows up to 8 kHz.
    ///   - cacheSeconds: one-second blocks kept (at least 2).
    /// - Throws: `MediaError` when the file cannot be opened or has no audio.
    public init(path: String, sampleRate: Int = 16000, cacheSeconds: Int = 32) throws {
        let asset = try MediaAsset(path: path)
        guard let audio = asset.audio else { throw MediaError("'\(path)' has no audio") }
        self.sampleRate = min(max(sampleRate, 1000), 96000)
        channelCount = min(max(audio.channels, 1), 2)
        let seconds = audio.duration > 0 ? audio.duration : asset.duration
        duration = seconds.isFinite && seconds > 0 ? seconds : 0
        self.cacheSeconds = max(2, cacheSeconds)
        decoding = try AudioDecoding(path: path, sampleRate: self.sampleRate, channels: channelCount)
    }

    /// `count` samples of `channel` from frame `start` on, decoding the blocks they lie in when not cached.
    public func samples(channel: Int, from start: Int, count: Int) -> [Float] {
        let count = max(0, min(count, 1 << 24))
        var out = [Float](repeating: 0, count: count)
        guard (0..<channelCount).contains(channel), count > 0 else { return out }
        let lastFrame = duration > 0 ? Int((duration * Double(sampleRate)).rounded(.up)) : Int.max
        lock.lock()
        defer { lock.unlock() }
        let start = min(max(start, -(1 << 50)), 1 << 50)
        var i = start < 0 ? min(count, -start) : 0  // frames before 0 stay silent
        while i < count {
            let frame = start + i
            if frame >= lastFrame { break }
            let index = frame / sampleRate, offset = frame % sampleRate
            let block = block(index)
            let run = min(count - i, sampleRate - offset)
            let available = max(0, min(run, block.count / channelCount - offset))
            for j in 0..<available { out[i + j] = block[(offset + j) * channelCount + channel] }
            i += run
        }
        return out
    }

    /// Seconds of decoded sound held now (never more than `cacheSeconds`).
    var cachedSeconds: Int {
        lock.lock()
        defer { lock.unlock() }
        return blocks.count
    }

    /// Block `index` (frames index·rate ..< (index+1)·rate), decoded now if not cached. Holds `lock`.
    private func block(_ index: Int) -> [Float] {
        if let b = blocks[index] {
            if let at = recency.firstIndex(of: index) { recency.remove(at: at) }
            recency.append(index)
            return b
        }
        let first = index * sampleRate
        let preroll = min(first, prerollFrames)
        decoding.seek(to: Double(first - preroll) / Double(sampleRate))
        var wanted = (preroll + sampleRate) * channelCount
        var decoded: [Float] = []
        decoded.reserveCapacity(wanted)
        while decoded.count < wanted {
            let chunk = decoding.next(maxFrames: (wanted - decoded.count) / channelCount)
            if chunk.isEmpty { break }  // the end, or a frame that cannot be decoded: silence from here
            decoded += chunk
        }
        wanted = preroll * channelCount
        let block = decoded.count > wanted ? Array(decoded[wanted...]) : []
        blocks[index] = block
        recency.append(index)
        while recency.count > cacheSeconds { blocks[recency.removeFirst()] = nil }
        return block
    }
}
