import Foundation
import LayerGraphics

/// Blurred shadow masks of recent frames, keyed by the unblurred mask and σ.
///
/// A shadow's shape is re-rendered every frame (cheap: at 1/d of the layer's resolution), but the blur is the
/// costly part, and the shape rarely changes from one frame to the next (a video card: only its colours do,
/// and they do not reach the alpha). Comparing the unblurred bytes makes the cache exact for any layer tree,
/// animated or not. Held by a `Compositor` across frames; safe to use from several renders at once.
final class ShadowCache: @unchecked Sendable {
    private struct Entry {
        let source: [UInt8]
        let width, height: Int
        let sigma: Double
        let blurred: AlphaMask
    }
    private let lock = NSLock()
    private var entries: [Entry] = []   // most recently used last
    /// Enough for a few shadowed layers per frame; each entry costs two masks' bytes (a sharp shadow of a big
    /// layer has a big mask: d = 1 below σ = 6), so the bytes are bounded too.
    private let capacity = 8
    private let byteLimit = 64 << 20

    /// `mask` blurred by σ (in texels): a cached mask when one was made from the same bytes, else `mask` itself
    /// blurred in place and remembered. The result must not be modified.
    func blurred(_ mask: AlphaMask, sigma: Double, threads: Int) -> AlphaMask {
        let source = Array(UnsafeBufferPointer(start: mask.bytes, count: mask.bytesPerRow * mask.height))
        let hit: AlphaMask? = lock.withLock {
            guard let i = entries.firstIndex(where: {
                $0.width == mask.width && $0.height == mask.height && $0.sigma == sigma && $0.source == source
            }) else { return nil }
            let e = entries.remove(at: i)
            entries.append(e)
            return e.blurred
        }
        if let hit { return hit }
        GaussianBlur.apply(to: mask, sigma: sigma, threads: threads)
        let size = 2 * source.count
        if size > byteLimit { return mask }
        lock.withLock {
            entries.append(Entry(source: source, width: mask.width, height: mask.height, sigma: sigma, blurred: mask))
            var bytes = entries.reduce(0) { $0 + 2 * $1.source.count }
            while entries.count > capacity || bytes > byteLimit {
                bytes -= 2 * entries.removeFirst().source.count
            }
        }
        return mask
    }
}
