import LayerGraphics
import Synchronization

/// The push side of a `DrawableLayer` (CAMetalLayer's `nextDrawable()`): buffers handed out, and the image the
/// last `present()` delivered. Shared with the buffers, so a render thread may present while the model thread
/// takes snapshots.
final class DrawablePresenter: Sendable {
    private struct State {
        var inFlight = 0
        var presented: Image?
        var hasNewPresent = false
    }
    private let state = Mutex(State())

    /// Claims a slot when fewer than `limit` buffers are out.
    func claim(limit: Int) -> Bool {
        state.withLock { s in
            guard s.inFlight < limit else { return false }
            s.inFlight += 1
            return true
        }
    }

    func release() { state.withLock { $0.inFlight -= 1 } }

    func deliver(_ image: Image?) {
        state.withLock { s in s.presented = image; s.hasNewPresent = true }
    }

    /// The image presented since the last call, if any.
    func takePresented() -> Image?? {
        state.withLock { s in
            guard s.hasNewPresent else { return nil }
            s.hasNewPresent = false
            return .some(s.presented)
        }
    }

    var inFlight: Int { state.withLock { $0.inFlight } }
}

/// One buffer from `DrawableLayer.nextDrawable()`: draw into `target`, then `present()` it. Until it is presented
/// or released it holds one of the layer's `maximumDrawableCount` slots; dropping it without presenting frees the
/// slot and shows nothing. Use one buffer on one thread at a time (hand it to a render thread whole); the slots and
/// the delivery are locked, the pixels are not.
public final class DrawableBuffer: @unchecked Sendable {
    /// The pixels to draw, `drawableSize` when handed out. A buffer whose size is changed is refused at `present()`.
    public var target: DrawableTarget
    private let presenter: DrawablePresenter
    private let opaque: Bool
    /// Set for a layer that presents with its transaction: the image waits on the layer for its next snapshot.
    private weak var transactionLayer: DrawableLayer?
    private var isHeld = true
    private let requestedWidth: Int, requestedHeight: Int

    init(width: Int, height: Int, presenter: DrawablePresenter, opaque: Bool, transactionLayer: DrawableLayer?) {
        target = DrawableTarget(width: width, height: height)
        requestedWidth = width
        requestedHeight = height
        self.presenter = presenter
        self.opaque = opaque
        self.transactionLayer = transactionLayer
    }

    deinit { if isHeld { presenter.release() } }

    /// Shows the buffer: from the next snapshot on (with `presentsWithTransaction`, attached to the layer like a
    /// model change, so it lands in the same snapshot as the changes made before it). Presenting twice, or a buffer
    /// whose size was changed, does nothing (the latter with one warning line).
    /// - Returns: whether the buffer was accepted.
    @discardableResult
    public func present() -> Bool {
        guard isHeld else { return false }
        isHeld = false
        presenter.release()
        guard target.matches(width: requestedWidth, height: requestedHeight) else {
            DrawableWarnings.once("present() with a \(target.width)×\(target.height) buffer, \(requestedWidth)×\(requestedHeight) expected; frame dropped")
            return false
        }
        let image = target.makeImage(opaque: opaque)
        if let layer = transactionLayer { layer.attachPresented(image) } else { presenter.deliver(image) }
        return true
    }
}
