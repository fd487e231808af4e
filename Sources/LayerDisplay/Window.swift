import CSDL2
import Foundation
import LayerCompositor
import LayerGraphics

/// An SDL window that shows `Surface`s through a streaming texture, presented at the display's refresh
/// (vsync). Our premultiplied BGRA is SDL's ARGB8888 in memory: frames upload without conversion.
///
/// SDL wants its windows on the thread that created them: use a `Window` from one thread (the main one).
final class Window {
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    /// The YUV texture of direct video frames, its size and SDL conversion mode.
    private var yuvTexture: OpaquePointer?
    private var yuvKey = (width: 0, height: 0, mode: SDL_YUV_CONVERSION_JPEG)
    private(set) var isFullscreen = false
    /// The on-screen displays at the window's pixels (`setOverlay`), drawn over the picture by every present at
    /// `overlayPlace`, in window pixels.
    private var overlayTexture: OpaquePointer?
    private var overlayPlace = SDL_Rect()

    /// Opens a resizable window of `width`×`height` points, shrunk to fit the display's usable area.
    init(title: String, width: Int, height: Int, fullscreen: Bool, placement: WindowPlacement = WindowPlacement()) throws {
        if let reason = DisplayProbe.missingDisplay() { throw DisplayError("cannot open a window: \(reason); write the result to a file with -o OUT.mp4") }
        if SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) != 0 {
            throw DisplayError("cannot open a window: \(String(cString: SDL_GetError())); write the result to a file with -o OUT.mp4")
        }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        // SDL falls back to drawing off screen when there is no display: nobody would see the video.
        if driver == "offscreen", ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == nil {
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError("cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set); write the result to a file with -o OUT.mp4")
        }
        let opening = placement.openingSize(canvas: .init(width: max(1, width), height: max(1, height)))
        var size = (width: opening.width, height: opening.height)
        // Fit a real screen; SDL's dummy display (headless runs, benchmarks) has no size worth fitting.
        var usable = SDL_Rect()
        if driver != "dummy", placement.size == nil, SDL_GetDisplayUsableBounds(0, &usable) == 0, usable.w > 0, usable.h > 0 {
            let scale = min(1, Double(usable.w) * 0.95 / Double(size.width), Double(usable.h) * 0.95 / Double(size.height))
            size = (max(1, Int(Double(size.width) * scale)), max(1, Int(Double(size.height) * scale)))
        }
        let centered = Int32(bitPattern: 0x2FFF_0000) // SDL_WINDOWPOS_CENTERED
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if placement.onTop { flags |= SDL_WINDOW_ALWAYS_ON_TOP.rawValue }
        if placement.borderless { flags |= SDL_WINDOW_BORDERLESS.rawValue }
        let x = placement.x.map(Int32.init) ?? centered, y = placement.y.map(Int32.init) ?? centered
        guard let w = SDL_CreateWindow(title, x, y, Int32(size.width), Int32(size.height), flags) else {
            throw DisplayError("cannot open a window: \(String(cString: SDL_GetError()))")
        }
        window = w
        // A hardware renderer with vsync where there is one; SDL's software renderer otherwise (the dummy driver).
        guard let r = SDL_CreateRenderer(w, -1, SDL_RENDERER_PRESENTVSYNC.rawValue) ?? SDL_CreateRenderer(w, -1, 0) else {
            SDL_DestroyWindow(w)
            throw DisplayError("cannot draw into the window: \(String(cString: SDL_GetError()))")
        }
        renderer = r
        isFullscreen = fullscreen
    }

    deinit {
        for frame in idleFrameTextures { SDL_DestroyTexture(frame.texture) }
        if let yuvTexture { SDL_DestroyTexture(yuvTexture) }
        if let overlayTexture { SDL_DestroyTexture(overlayTexture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
    }

    /// Names the window anew (a playlist's next item).
    func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// The size in pixels that frames should have (the drawable, which HiDPI makes larger than points).
    var pixelSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// The size in points (mouse coordinates).
    var pointSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// The display's refresh rate, or nil when SDL does not know it (the dummy driver).
    var refreshRate: Double? {
        var mode = SDL_DisplayMode()
        let display = SDL_GetWindowDisplayIndex(window)
        guard display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0, mode.refresh_rate > 0 else { return nil }
        return Double(mode.refresh_rate)
    }

    func toggleFullscreen() {
        isFullscreen.toggle()
        SDL_SetWindowFullscreen(window, isFullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// Shows a video picture without compositing: its planes go to a YUV texture that SDL converts (with the
    /// picture's matrix and range) and scales into place, over the background colour.
    func present(_ video: DirectVideo) {
        let b = video.buffer
        guard let yuvTexture = upload(b) else { return }
        let c = video.background
        SDL_SetRenderDrawColor(renderer, UInt8(c.red * 255), UInt8(c.green * 255), UInt8(c.blue * 255), 255)
        SDL_RenderClear(renderer)
        // The picture's place on the canvas, and the canvas fitted to the window.
        let fit = fitted(canvasWidth: video.canvasWidth, canvasHeight: video.canvasHeight)
        var dst = SDL_FRect(x: Float(fit.x + video.rect.minX * fit.scale), y: Float(fit.y + video.rect.minY * fit.scale),
                            w: Float(video.rect.width * fit.scale), h: Float(video.rect.height * fit.scale))
        SDL_RenderCopyF(renderer, yuvTexture, nil, &dst)
        drawOverlay()
        SDL_RenderPresent(renderer)
        withExtendedLifetime(b) {}
    }

    /// The picture's planes in the YUV texture (made again for a new size or conversion), or nil.
    private func upload(_ b: PixelBuffer) -> OpaquePointer? {
        let mode: SDL_YUV_CONVERSION_MODE = b.range == .full ? SDL_YUV_CONVERSION_JPEG
            : b.matrix == .bt601 ? SDL_YUV_CONVERSION_BT601 : SDL_YUV_CONVERSION_BT709
        if yuvTexture == nil || yuvKey != (b.width, b.height, mode) {
            if let yuvTexture { SDL_DestroyTexture(yuvTexture) }
            SDL_SetYUVConversionMode(mode) // read when the texture is made
            yuvTexture = SDL_CreateTexture(renderer, UInt32(SDL_PIXELFORMAT_IYUV.rawValue), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                           Int32(b.width), Int32(b.height))
            yuvKey = (b.width, b.height, mode)
        }
        guard let yuvTexture, b.planes.count >= 3 else { return nil }
        let p = b.planes
        SDL_UpdateYUVTexture(yuvTexture, nil,
                             p[0].base.assumingMemoryBound(to: UInt8.self), Int32(p[0].bytesPerRow),
                             p[1].base.assumingMemoryBound(to: UInt8.self), Int32(p[1].bytesPerRow),
                             p[2].base.assumingMemoryBound(to: UInt8.self), Int32(p[2].bytesPerRow))
        return yuvTexture
    }

    /// Shows a full-canvas video picture (converted and scaled by SDL, as `present(_: DirectVideo)`) with the
    /// composited rectangle of `canvas` above it: the frame `Compositor.renderFrame` made, whose texture holds
    /// that rectangle only.
    func present(_ video: OverlaidVideo, canvas frame: FrameTexture) {
        SDL_UnlockTexture(frame.texture)
        defer { keep(frame) }
        guard let yuvTexture = upload(video.picture) else { return }
        let fit = fitted(canvasWidth: frame.width, canvasHeight: frame.height)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        var dst = SDL_FRect(x: Float(fit.x), y: Float(fit.y), w: Float(Double(frame.width) * fit.scale), h: Float(Double(frame.height) * fit.scale))
        SDL_RenderCopyF(renderer, yuvTexture, nil, &dst)
        if video.x1 > video.x0 && video.y1 > video.y0 {
            var src = SDL_Rect(x: Int32(video.x0), y: Int32(video.y0), w: Int32(video.x1 - video.x0), h: Int32(video.y1 - video.y0))
            var part = SDL_FRect(x: Float(fit.x + Double(video.x0) * fit.scale), y: Float(fit.y + Double(video.y0) * fit.scale),
                                 w: Float(Double(video.x1 - video.x0) * fit.scale), h: Float(Double(video.y1 - video.y0) * fit.scale))
            SDL_RenderCopyF(renderer, frame.texture, &src, &part)
        }
        drawOverlay()
        SDL_RenderPresent(renderer)
        withExtendedLifetime(video.picture) {}
    }

    /// As `present(_:canvas:)` for a frame rendered into a surface of its own: only its rectangle is copied.
    func present(_ video: OverlaidVideo, surface: Surface) {
        guard let frame = lockFrameTexture(width: surface.width, height: surface.height) else { return }
        let target = frame.surface
        let x0 = max(0, video.x0), x1 = min(surface.width, video.x1)
        if x1 > x0 {
            for y in max(0, video.y0)..<max(max(0, video.y0), min(surface.height, video.y1)) {
                (target.pixels + y * target.pixelsPerRow + x0).update(from: surface.pixels + y * surface.pixelsPerRow + x0, count: x1 - x0)
            }
        }
        present(video, canvas: frame)
    }

    /// Copies `surface` into a frame texture and shows it, scaled to the window if their sizes differ (during a
    /// resize). For frames not rendered straight into a texture (`lockFrameTexture`).
    func present(_ surface: Surface) {
        guard let frame = lockFrameTexture(width: surface.width, height: surface.height) else { return }
        let target = frame.surface
        for y in 0..<surface.height {
            (target.pixels + y * target.pixelsPerRow).update(from: surface.pixels + y * surface.pixelsPerRow, count: surface.width)
        }
        present(frame)
    }

    // MARK: Rendering straight into textures

    /// Streaming textures not in use, to lock for the next frames (a few: one shown, one ready, one rendering).
    private var idleFrameTextures: [(texture: OpaquePointer, width: Int, height: Int)] = []

    /// A streaming texture of `width`×`height`, locked: its pixels as a `Surface` the compositor can render into on
    /// any thread. Give it back to `present(_:)` or `discard(_:)` on this thread. Nil when SDL cannot lock one
    /// (then render into a `Surface` of your own and `present` that).
    func lockFrameTexture(width: Int, height: Int) -> FrameTexture? {
        let texture: OpaquePointer
        if let i = idleFrameTextures.firstIndex(where: { $0.width == width && $0.height == height }) {
            texture = idleFrameTextures.remove(at: i).texture
        } else {
            guard let made = makeFrameTexture(width, height) else { return nil }
            texture = made
        }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels, pitch % 4 == 0, Int(pitch) / 4 >= width else {
            SDL_DestroyTexture(texture)
            return nil
        }
        let surface = Surface(wrapping: pixels.assumingMemoryBound(to: UInt32.self), width: width, height: height, pixelsPerRow: Int(pitch) / 4)
        return FrameTexture(texture: texture, surface: surface)
    }

    /// Unlocks the texture (SDL uploads it) and shows it.
    func present(_ frame: FrameTexture) {
        SDL_UnlockTexture(frame.texture)
        show(frame.texture)
        keep(frame)
    }

    /// Gives back a texture whose frame is not shown (dropped, or of an old position).
    func discard(_ frame: FrameTexture) {
        SDL_UnlockTexture(frame.texture)
        keep(frame)
    }

    private func keep(_ frame: FrameTexture) {
        if idleFrameTextures.count < 3 { idleFrameTextures.append((frame.texture, frame.width, frame.height)) }
        else { SDL_DestroyTexture(frame.texture) }
    }

    private func makeFrameTexture(_ width: Int, _ height: Int) -> OpaquePointer? {
        SDL_CreateTexture(renderer, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                          Int32(width), Int32(height))
    }

    /// Draws a whole-window texture and presents. No clear first: the copy covers every pixel.
    private func show(_ texture: OpaquePointer) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &w, &h)
        let fit = fitted(canvasWidth: Int(w), canvasHeight: Int(h))
        // Bars where the canvas does not reach (a resized or fullscreen window of another shape).
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        var dst = SDL_FRect(x: Float(fit.x), y: Float(fit.y), w: Float(Double(w) * fit.scale), h: Float(Double(h) * fit.scale))
        SDL_RenderCopyF(renderer, texture, nil, &dst)
        drawOverlay()
        SDL_RenderPresent(renderer)
    }

    // MARK: The overlay at window pixels

    /// Makes `surface` (premultiplied, in window pixels) the overlay every present draws over the picture with its
    /// top left at window pixel (`x`, `y`), so that the on-screen displays' text is drawn at the window's
    /// resolution, not scaled up with the canvas; nil: no overlay. Call it only when the overlay changes: it uploads
    /// the whole surface.
    func setOverlay(_ surface: Surface?, x: Int = 0, y: Int = 0) {
        guard let surface else {
            if let overlayTexture { SDL_DestroyTexture(overlayTexture) }
            overlayTexture = nil
            return
        }
        var w: Int32 = 0, h: Int32 = 0
        if let overlayTexture { SDL_QueryTexture(overlayTexture, nil, nil, &w, &h) }
        if overlayTexture == nil || Int(w) != surface.width || Int(h) != surface.height {
            if let overlayTexture { SDL_DestroyTexture(overlayTexture) }
            overlayTexture = makeFrameTexture(surface.width, surface.height)
            if let overlayTexture { SDL_SetTextureBlendMode(overlayTexture, SDL_BLENDMODE_BLEND) }
        }
        guard let overlayTexture else { return }
        overlayPlace = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(surface.width), h: Int32(surface.height))
        // SDL's blend (the only one its software renderer has for certain) takes straight alpha: undo ours.
        var straight = [UInt32](repeating: 0, count: surface.width * surface.height)
        for y in 0..<surface.height {
            let row = surface.pixels + y * surface.pixelsPerRow
            for x in 0..<surface.width {
                let p = row[x], a = p >> 24
                guard a != 0 else { continue }
                guard a != 255 else { straight[y * surface.width + x] = p; continue }
                func channel(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xFF) * 255 + a / 2) / a) << shift }
                straight[y * surface.width + x] = a << 24 | channel(16) | channel(8) | channel(0)
            }
        }
        SDL_UpdateTexture(overlayTexture, nil, straight, Int32(surface.width * 4))
    }

    /// Copies the overlay over the picture, pixel for pixel.
    private func drawOverlay() {
        if let overlayTexture { SDL_RenderCopy(renderer, overlayTexture, nil, &overlayPlace) }
    }

    /// What the window shows now, read back from the renderer (tests; SDL's software renderer keeps the presented
    /// picture in the window's surface). Nil when SDL cannot read it.
    func readBack() -> Surface? {
        let size = pixelSize
        let surface = Surface(width: size.width, height: size.height)
        let ok = SDL_RenderReadPixels(renderer, nil, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue), surface.pixels,
                                      Int32(surface.pixelsPerRow * 4)) == 0
        return ok ? surface : nil
    }

    /// Where a canvas of the given size shows in the window: the largest scale that fits, centred (letterboxed).
    func fitted(canvasWidth: Int, canvasHeight: Int) -> (x: Double, y: Double, scale: Double) {
        let out = pixelSize
        let scale = min(Double(out.width) / Double(max(canvasWidth, 1)), Double(out.height) / Double(max(canvasHeight, 1)))
        return ((Double(out.width) - Double(canvasWidth) * scale) / 2, (Double(out.height) - Double(canvasHeight) * scale) / 2, scale)
    }
}

/// A window's streaming texture, locked, with its pixels as a surface (`Window.lockFrameTexture`).
final class FrameTexture: @unchecked Sendable { // the texture is touched on the window's thread only
    let texture: OpaquePointer
    let surface: Surface
    var width: Int { surface.width }
    var height: Int { surface.height }
    init(texture: OpaquePointer, surface: Surface) { self.texture = texture; self.surface = surface }
}
