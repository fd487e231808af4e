import Foundation
import LayerGraphics
import LayerKit

/// Shape layers' rasters of recent frames, keyed by (layer, shape payload, raster scale) (SEMANTICS-LAYERS.md
/// §0–1): a shape is rasterised again only when a shape value changes (an animated `strokeEnd` re-strokes every
/// frame) or it is needed at another scale step; moving, fading or turning the layer within a step reuses it.
/// The extent of a payload (cairo's fill and stroke extents) is kept with it. Held by a `Compositor` across
/// frames; safe to use from several renders at once.
final class ShapeCache: @unchecked Sendable {
    struct Raster {
        /// The box of layer space the image covers, snapped to its pixels.
        let rect: Rect
        let scale: Double
        let image: Image
    }
    private struct Entry {
        let layerID: UInt64
        let payload: ShapePayload
        let extent: Rect?
        var raster: Raster?
        var bytes: Int { raster.map { $0.image.width * $0.image.height * 4 } ?? 0 }
    }
    private let lock = NSLock()
    private var entries: [Entry] = []   // most recently used last
    /// Enough for the shapes of a busy scene at two scales each (its own and its shadow's); the bytes are bounded too
    /// (a raster is at most 4096² pixels, 64 MB).
    private let capacity = 64
    private let byteLimit = 256 << 20
    private var rasterCount = 0

    /// How many rasters have been made (what the tests count: nothing but a changed shape or scale makes one).
    var rasterizations: Int { lock.withLock { rasterCount } }

    /// What `payload` draws, in layer space (nil: nothing), computed once per payload and layer.
    func extent(layerID: UInt64, payload: ShapePayload) -> Rect? {
        if let known = lock.withLock({ entries.last(where: { $0.layerID == layerID && $0.payload == payload }) }) {
            return known.extent
        }
        let extent = ShapeRasterizer.extent(of: payload.path, style: payload.style)
        lock.withLock { insert(Entry(layerID: layerID, payload: payload, extent: extent, raster: nil)) }
        return extent
    }

    /// The raster of `payload` (whose extent is `extent`) over `rect` (layer space, whole pixels at `scale`): a kept
    /// one, or a new one.
    func raster(layerID: UInt64, payload: ShapePayload, extent: Rect, rect: Rect, scale: Double, width: Int, height: Int) -> Raster {
        let hit: Raster? = lock.withLock {
            guard let i = entries.lastIndex(where: { $0.layerID == layerID && $0.payload == payload && $0.raster?.scale == scale }) else { return nil }
            let e = entries.remove(at: i)
            entries.append(e)
            return e.raster
        }
        if let hit { return hit }
        let image = ShapeRasterizer.rasterize(payload.path, style: payload.style, origin: rect.origin, scale: scale, width: width, height: height)
        let raster = Raster(rect: rect, scale: scale, image: image)
        lock.withLock {
            rasterCount += 1
            // This layer's raster at this scale of another payload is stale now; its extent-only entry is filled in.
            entries.removeAll { $0.layerID == layerID && ($0.raster == nil ? $0.payload == payload : $0.raster!.scale == scale) }
            insert(Entry(layerID: layerID, payload: payload, extent: extent, raster: raster))
        }
        return raster
    }

    /// Appends `entry` and evicts the least recently used beyond the count and byte limits. Call with the lock held.
    private func insert(_ entry: Entry) {
        entries.append(entry)
        var bytes = entries.reduce(0) { $0 + $1.bytes }
        while entries.count > capacity || (bytes > byteLimit && entries.count > 1) {
            bytes -= entries.removeFirst().bytes
        }
    }
}
