import Foundation
import LayerGraphics
import LayerKit

/// The offscreen images of rasterized layers (`shouldRasterize`) of recent frames, keyed by layer, raster size and
/// flip, and kept while the layer's subtree draws the same (`SnapshotComparison`): a layer that only moves, turns or
/// fades is drawn from its image, as Core Animation reuses a rasterized layer's bitmap. Bounded in count and bytes,
/// least recently used evicted first. Held by a `Compositor` across frames; safe to use from several renders at once.
final class RasterCache: @unchecked Sendable {
    private struct Entry {
        let snapshot: LayerSnapshot
        let width, height: Int
        /// Raster pixels per point: two scales may round to one size, yet differ in what the pixels show.
        let scale: Double
        let flipped: Bool
        let image: Image
        var bytes: Int { width * height * 4 }
    }
    private let lock = NSLock()
    private var entries: [Entry] = []   // most recently used last
    /// A few rasterized layers per scene; a raster is at most `Lowering.maxRasterSide`² pixels (64 MB).
    private let capacity = 32
    private let byteLimit = 256 << 20
    private var renderCount = 0

    /// How many rasters have been rendered (what the tests count: only a changed subtree or size renders one).
    var renders: Int { lock.withLock { renderCount } }

    /// The raster of `layer` at `width` × `height` pixels, `scale` per point: a kept one whose subtree drew the same,
    /// or `render()`'s.
    func image(for layer: LayerSnapshot, width: Int, height: Int, scale: Double, flipped: Bool, render: () -> Image) -> Image {
        let hit: Image? = lock.withLock {
            guard let i = entries.lastIndex(where: {
                $0.snapshot.layerID == layer.layerID && $0.width == width && $0.height == height && $0.scale == scale && $0.flipped == flipped
            }) else { return nil }
            // The comparison walks the subtree; it runs under the lock, which renders on other threads rarely contend.
            guard SnapshotComparison.rasterDrawsSame(entries[i].snapshot, layer) else { return nil }
            var e = entries.remove(at: i)
            // The newest snapshot is kept: the next frame's is most likely identical to it object for object.
            e = Entry(snapshot: layer, width: e.width, height: e.height, scale: e.scale, flipped: e.flipped, image: e.image)
            entries.append(e)
            return e.image
        }
        if let hit { return hit }
        let image = render()
        lock.withLock {
            renderCount += 1
            // This layer's other rasters are stale now (a layer whose bounds animate would fill the cache otherwise).
            entries.removeAll { $0.snapshot.layerID == layer.layerID }
            entries.append(Entry(snapshot: layer, width: width, height: height, scale: scale, flipped: flipped, image: image))
            var bytes = entries.reduce(0) { $0 + $1.bytes }
            while entries.count > capacity || (bytes > byteLimit && entries.count > 1) {
                bytes -= entries.removeFirst().bytes
            }
        }
        return image
    }
}
