import Foundation
import LayerGraphics
import LayerKit

/// The render server: turns a layer tree snapshot into pixels, as Core Animation would draw it.
///
/// Work happens in two steps (ARCHITECTURE.md): the snapshot is lowered to a flat draw list (world matrices,
/// flattening, clipping, culling, groups, shadow textures), then the software backend executes the list in
/// bands of rows on all cores. A compositor may be shared between threads. It keeps the blurred shadows of recent
/// frames (`ShadowCache`), so reuse one compositor for the frames of a movie or a window.
public final class Compositor: Sendable {
    let executor: Executor
    let shadowCache = ShadowCache()
    /// Shape layers' rasters (internal: the tests count the rasterisations).
    let shapeCache = ShapeCache()
    /// Rasterized layers' images (internal: the tests count the renders).
    let rasterCache = RasterCache()
    /// Tiled layers' tiles (internal: the tests count the draws and the tiles kept).
    let tileCache: TileCache
    /// The coverage of recent video mosaics' tiles (`renderFrame`).
    let mosaicEdges = MosaicEdgeCache()

    /// - Parameters:
    ///   - threads: worker threads for the bands; defaults to the number of cores.
    ///   - tiles: how tiled layers' missing tiles are drawn: before the frame (the default: exports, stills) or in the
    ///     background, as a window wants (then render again while `isDrawingTiles`).
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, tiles: TileDrawing = .synchronous) {
        executor = Executor(threads: threads)
        tileCache = TileCache(drawing: tiles)
    }

    /// With `TileDrawing.background`: whether tiles are being drawn or fading in, so that a later frame differs
    /// and the host should render again. Always false with `.synchronous`.
    public var isDrawingTiles: Bool { tileCache.isBusy }

    /// With `TileDrawing.background`: waits until no tile is queued or being drawn (fades aside), at most `timeout`
    /// seconds; whether they all were drawn. Tests and benchmarks use it; a window simply renders again.
    @discardableResult
    public func waitForTiles(timeout: Double) -> Bool { tileCache.waitUntilDrawn(timeout: timeout) }

    /// How many threads render bands of rows (1: everything on the caller's thread).
    public var threads: Int { executor.threads }

    /// Draws `root` into `surface`, whose pixel space is the root's superlayer space.
    /// - Parameters:
    ///   - root: the tree's snapshot at the frame's time.
    ///   - surface: the pixels to draw into.
    ///   - clear: fill the surface with transparent black first (the default); false draws over what is there.
    public func render(_ root: LayerSnapshot, into surface: Surface, clear: Bool = true) {
        guard surface.width > 0 && surface.height > 0 else { return }
        render(root, world: root.localTransform, into: surface, clear: clear)
    }

    /// Draws `root` into `surface` with `world` as the root's map from its bounds space to the surface's pixels
    /// (`Layer.render(in:)` places the root by a context's transform instead of its own place in its superlayer).
    func render(_ root: LayerSnapshot, world: Transform3D, into surface: Surface, clear: Bool = true) {
        guard surface.width > 0 && surface.height > 0 else { return }
        let viewport = PixelRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        let lowering = Lowering(viewport: viewport, executor: executor, shadowCache: shadowCache, shapeCache: shapeCache, rasterCache: rasterCache, tileCache: tileCache)
        let ops = lowering.lower(root, world: world, planes: [], clips: [])
        tileCache.endFrame()
        executor.render(ops, into: surface, clear: clear)
    }

    /// Draws `root` into `surface`, which still shows the frame this method last drew into it and returned as
    /// `previous` (nil: unknown, or the first frame). When the tree's root paints the whole surface one opaque colour
    /// (a canvas with a background colour), only what this frame or the previous one drew above the canvas is
    /// refilled, and the result says what the surface shows for the next call; otherwise the surface is rendered
    /// whole and the result is nil. The pixels are those of `render(_:into:)` either way.
    public func render(_ root: LayerSnapshot, into surface: Surface, over previous: Backdrop?) -> Backdrop? {
        guard surface.width > 0 && surface.height > 0 else { return nil }
        let viewport = PixelRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        let lowering = Lowering(viewport: viewport, executor: executor, shadowCache: shadowCache, shapeCache: shapeCache, rasterCache: rasterCache, tileCache: tileCache)
        let ops = lowering.lower(root, world: root.localTransform, planes: [], clips: [])
        tileCache.endFrame()
        return executor.render(ops, into: surface, over: previous)
    }

    /// Renders a tree into a new surface of the given size (empty when a side is 0 or less).
    public func render(_ root: LayerSnapshot, width: Int, height: Int) -> Surface {
        let surface = Surface(width: width, height: height)
        render(root, into: surface, clear: false)
        return surface
    }
}
