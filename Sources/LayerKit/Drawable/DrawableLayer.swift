import LayerGraphics

/// A layer whose pixels app code renders, frame by frame (SEMANTICS-LAYERS.md §8; the counterpart of CAEAGLLayer,
/// CAMetalLayer and CAOpenGLLayer), into a premultiplied BGRA buffer of `drawableSize` pixels. Two styles:
///
/// - **Pull** (what exports need): `render` is called while a snapshot is taken, on the model thread, with the
///   layer's time; its buffer is that snapshot's contents. `isAsynchronous` false calls it the first time and after
///   each `setNeedsDisplay()`; true, at every snapshot. Returning false keeps the previous pixels.
/// - **Push**: `nextDrawable()` hands out a buffer, `DrawableBuffer.present()` shows it from the next snapshot on.
///
/// The pixels are placed like `contents` (`contentsGravity`, `contentsRect`, filters); corners, border, mask,
/// shadow and transforms apply. A callback that throws or leaves a buffer of another size draws nothing that frame
/// and writes one warning line; it never stops the process. `GLDrawable` (module
/// LayerGL) renders the same callback with OpenGL ES.
open class DrawableLayer: Layer {
    /// The buffer's size in pixels: `bounds.size × contentsScale`, rounded up, until set. Sizes beyond 16384 pixels
    /// a side, or not a positive number, render nothing.
    public var drawableSize: Size {
        get { explicitDrawableSize ?? Size(width: (bounds.width * scale).rounded(.up), height: (bounds.height * scale).rounded(.up)) }
        set { explicitDrawableSize = newValue }
    }
    private var explicitDrawableSize: Size?

    /// True (the default, as EAGL and Metal layers): the buffer's alpha is ignored and the layer is opaque.
    override open var isOpaque: Bool {
        didSet { renderIsNeeded = true } // the kept image was made with the old value
    }

    /// A drawable layer with the defaults above: opaque, as `CAMetalLayer` is.
    public override init() {
        super.init()
        isOpaque = true
    }
    /// False (the default): `render` runs the first time and after each `setNeedsDisplay()`; true: at every snapshot.
    public var isAsynchronous = false
    /// False (the default): a presented buffer shows from the next snapshot, from any thread. True: it is attached
    /// to the layer like a model change (present on the model thread), so it shows with the changes made before it.
    public var presentsWithTransaction = false
    /// How many push buffers may be out at once (1…16; default 3). `nextDrawable()` gives nil beyond.
    public var maximumDrawableCount = 3

    /// The pull callback: draw the frame into the buffer and return true, or return false to keep the previous
    /// pixels. It starts with the previous frame's pixels when the size is unchanged, else transparent.
    public var render: (@Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool)? {
        didSet { renderIsNeeded = true }
    }

    /// The image the layer shows, and the buffer it was made from (the next callback starts from it).
    private var shown: Image?
    private var lastTarget: DrawableTarget?
    private var renderIsNeeded = true
    private let presenter = DrawablePresenter()
    /// A buffer presented with its transaction, waiting for the next snapshot.
    private var attached: Image??

    private var scale: Double { contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1 }

    /// `drawableSize` as whole pixels, or nil when it cannot be drawn.
    var pixelSize: (width: Int, height: Int)? {
        let s = drawableSize
        guard s.width.isFinite, s.height.isFinite, s.width >= 1, s.height >= 1, s.width <= 16384, s.height <= 16384
        else { return nil }
        return (Int(s.width.rounded(.up)), Int(s.height.rounded(.up)))
    }

    /// `setNeedsDisplay()` asks for a pull render at the next snapshot (instead of drawing with `draw(in:)`).
    open override func display() { renderIsNeeded = true }

    /// A push buffer of `drawableSize`, or nil while `maximumDrawableCount` buffers are out or the size cannot be drawn.
    public func nextDrawable() -> DrawableBuffer? {
        guard let size = pixelSize else {
            DrawableWarnings.once("drawable size \(drawableSize) cannot be drawn", key: "size \(identifier)")
            return nil
        }
        guard presenter.claim(limit: min(max(maximumDrawableCount, 1), 16)) else { return nil }
        return DrawableBuffer(width: size.width, height: size.height, presenter: presenter, opaque: isOpaque,
                              transactionLayer: presentsWithTransaction ? self : nil)
    }

    /// How many push buffers are out (handed out, neither presented nor released).
    public var drawablesInFlight: Int { presenter.inFlight }

    func attachPresented(_ image: Image?) { attached = .some(image) }

    /// An asynchronous pull layer renders a new frame for every snapshot.
    open override var drawsDifferentlyOverTime: Bool { isAsynchronous && render != nil }

    /// The frame for the snapshot at `time`: what was presented since the last one, then the pull render when due.
    open override func presentationContents(at time: Double) -> LayerContents? {
        if let image = presenter.takePresented() { shown = image }
        if let image = attached { shown = image; attached = nil }
        if let render, isAsynchronous || renderIsNeeded {
            renderIsNeeded = false
            pull(render, at: time)
        }
        return shown.map { .image($0) } ?? contents
    }

    private func pull(_ render: @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool, at time: Double) {
        guard let size = pixelSize else {
            DrawableWarnings.once("DrawableLayer \(name.map { "'\($0)' " } ?? "")drawable size \(drawableSize) cannot be drawn; nothing rendered",
                                  key: "size \(identifier)")
            dropFrame()
            return
        }
        var target = lastTarget.flatMap { $0.matches(width: size.width, height: size.height) ? $0 : nil }
            ?? DrawableTarget(width: size.width, height: size.height)
        let frame = DrawableFrame(layerTime: time, outputTime: hostTime ?? time, frameIndex: SnapshotFrameIndex.current,
                                  width: size.width, height: size.height)
        let label = "DrawableLayer \(name.map { "'\($0)' " } ?? "")"
        let drew: Bool
        do { drew = try render(&target, frame) } catch {
            DrawableWarnings.once("\(label)render failed: \(error); this frame draws nothing", key: "throw \(identifier)")
            dropFrame()
            return
        }
        guard drew else { return }
        guard target.matches(width: size.width, height: size.height) else {
            DrawableWarnings.once("\(label)render left a \(target.width)×\(target.height) buffer (\(target.pixels.count) pixels), " +
                                  "\(size.width)×\(size.height) expected; this frame draws nothing", key: "size \(identifier)")
            dropFrame()
            return
        }
        lastTarget = target
        shown = target.makeImage(opaque: isOpaque)
    }

    /// A failed render shows nothing rather than a stale or half-drawn frame.
    private func dropFrame() {
        shown = nil
        lastTarget = nil
    }
}
