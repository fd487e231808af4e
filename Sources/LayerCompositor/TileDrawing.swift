import Foundation
import LayerKit

/// How a compositor draws tiled layers' missing tiles (SEMANTICS-LAYERS.md §6, "Missing tiles, fade, determinism").
public enum TileDrawing: Sendable {
    /// Every tile a frame needs is drawn before the frame is composited, with no fade: exports and stills, where
    /// frame N must be the same on every run.
    case synchronous
    /// A window: a frame shows the tiles that are ready (else a coarser or finer cached level's, else nothing) and
    /// hands the missing ones to at most `workers` background threads, most needed first; a tile arriving where
    /// none was fades in over the layer's `fadeDuration` on `clock` (seconds, the display's clock); a redrawn
    /// (invalidated) tile replaces its old version at once. The host renders again while `Compositor.isDrawingTiles`.
    case background(workers: Int = 2, clock: @Sendable () -> Double = TileDrawing.hostClock)

    /// The host's monotonic clock in seconds: the default display clock of `.background`.
    public static let hostClock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// One tile handed to a worker: what to draw, and what the cache must still agree with when it arrives.
struct TileJob: Sendable {
    let key: TileCache.Key
    let request: TileRequest
    let payload: TiledPayload
    let tiling: TileCache.Tiling
    /// The frame that asked for it: the tile counts as used by that frame when it arrives.
    let frame: UInt64
}
