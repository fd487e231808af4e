import LayerGraphics
import Synchronization

private let nextLayerID = Atomic<UInt64>(1)

/// A rectangle in a tree of layers that draws a background, contents, a border and a shadow, with a
/// 3D transform, as Core Animation's CALayer. This is the model: changing it never changes a frame
/// already captured with `snapshot(at:)`.
///
/// Layers are not thread-safe: build and change a tree on one thread, and hand the compositor snapshots.
open class Layer: CustomStringConvertible {
    /// A number that identifies this layer in snapshots (which never hold the layer itself).
    public let identifier: UInt64
    /// A name for debugging and lookups.
    @exclusivity(unchecked) public var name: String?

    /// A layer with Core Animation's defaults: empty bounds at (0, 0), anchor point (0.5, 0.5), opaque, no contents.
    public init() {
        identifier = nextLayerID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    // MARK: Tree
    //
    // The stored properties a snapshot reads are `@exclusivity(unchecked)`: a layer belongs to one thread (see above),
    // and the run-time exclusivity checks on them were 15 % of a snapshot's time (`layerplay bench --snapshot`).

    /// The layer this one is a sublayer of; nil for a root (or a mask).
    public private(set) weak var superlayer: Layer?
    @exclusivity(unchecked) private(set) var storedSublayers: [Layer] = []
    /// The layer this one masks, when it is used as a `mask` (then it has no superlayer).
    private(set) weak var maskedLayer: Layer?

    /// The sublayers, back to front in array order. Setting replaces them all (each leaves its old parent).
    /// A layer's own parts (`addPartSublayer(_:)`) are not listed and survive the replacement.
    public var sublayers: [Layer]? {
        get {
            let parts = partSublayerCount
            if parts == 0 { return storedSublayers.isEmpty ? nil : storedSublayers }
            return storedSublayers.count == parts ? nil : Array(storedSublayers[parts...])
        }
        set {
            for layer in storedSublayers where !layer.isPartSublayer { layer.superlayer = nil }
            storedSublayers.removeAll { !$0.isPartSublayer }
            for layer in newValue ?? [] { insertStoredSublayer(layer, at: storedSublayers.count) }
        }
    }

    /// Adds `layer` above the other sublayers, taking it from its old parent.
    public func addSublayer(_ layer: Layer) { insertStoredSublayer(layer, at: storedSublayers.count) }

    /// Inserts `layer` at `index` of `sublayers` (clamped to the valid range), removing it from its previous
    /// parent first.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        let parts = partSublayerCount
        insertStoredSublayer(layer, at: parts + max(0, min(index, storedSublayers.count - parts)))
    }

    /// Whether this layer is a part of its superlayer's own drawing (PlayerLayer's picture, which stands for the
    /// layer's contents): drawn like a sublayer, but not in `sublayers` and never a hit-test result.
    package private(set) var isPartSublayer = false

    /// Adds `layer` as a part of this layer's own drawing: behind every listed sublayer, hidden from `sublayers`
    /// and from hit tests (SEMANTICS-LAYERS.md §9/§10), drawn, laid out and animated like any sublayer.
    package func addPartSublayer(_ layer: Layer) {
        layer.isPartSublayer = true
        insertStoredSublayer(layer, at: partSublayerCount)
    }

    /// Parts are kept first in `storedSublayers`, so they draw behind the listed sublayers at equal `zPosition`.
    private var partSublayerCount: Int {
        var n = 0
        while n < storedSublayers.count && storedSublayers[n].isPartSublayer { n += 1 }
        return n
    }

    /// Inserts at an index of `storedSublayers`, parts included.
    private func insertStoredSublayer(_ layer: Layer, at index: Int) {
        precondition(layer !== self, "a layer cannot be its own sublayer")
        var ancestor = superlayer
        while let a = ancestor {
            precondition(a !== layer, "a layer cannot become a sublayer of its own descendant")
            ancestor = a.superlayer
        }
        var index = index
        if layer.superlayer === self, let old = storedSublayers.firstIndex(where: { $0 === layer }), old < index { index -= 1 }
        layer.removeFromSuperlayer()
        layer.detachFromMaskedLayer()
        storedSublayers.insert(layer, at: max(0, min(index, storedSublayers.count)))
        layer.superlayer = self
        setNeedsLayout()
    }

    /// Inserts `layer` just above `sibling` (at the end when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        guard let sibling, let i = storedSublayers.firstIndex(where: { $0 === sibling }) else { addSublayer(layer); return }
        insertStoredSublayer(layer, at: i + 1)
    }

    /// Inserts `layer` just below `sibling` (at the start when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        guard let sibling, let i = storedSublayers.firstIndex(where: { $0 === sibling }) else { insertSublayer(layer, at: 0); return }
        insertStoredSublayer(layer, at: i)
    }

    /// Puts `newLayer` where `oldLayer` is; does nothing when `oldLayer` is not a sublayer.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) {
        guard let i = storedSublayers.firstIndex(where: { $0 === oldLayer }) else { return }
        if oldLayer === newLayer { return }
        oldLayer.removeFromSuperlayer()
        insertStoredSublayer(newLayer, at: i)
    }

    /// Takes the layer out of its superlayer's sublayers.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.storedSublayers.removeAll { $0 === self }
        superlayer = nil
        parent.setNeedsLayout()
    }

    private func detachFromMaskedLayer() {
        if let owner = maskedLayer, owner.mask === self { owner.mask = nil }
        maskedLayer = nil
    }

    // MARK: Geometry

    /// The layer's own coordinate space: origin and size. A change marks the layer as needing layout (and
    /// display, with `needsDisplayOnBoundsChange`); a change of size resizes the sublayers by their `autoresizingMask`.
    /// Subclasses that override it keep this behaviour (their observers run after it).
    @exclusivity(unchecked) open var bounds: Rect = .zero {
        didSet {
            boundsDidChange(from: oldValue)
            didChangeValue(forKey: "bounds", from: oldValue)
        }
    }
    /// Where the anchor point sits in the superlayer's space.
    @exclusivity(unchecked) public var position: Point = .zero {
        didSet { didChangeValue(forKey: "position", from: oldValue) }
    }
    /// The point of the bounds (in unit coordinates) that `position` names and transforms turn about.
    @exclusivity(unchecked) public var anchorPoint: Point = Point(x: 0.5, y: 0.5) {
        didSet { didChangeValue(forKey: "anchorPoint", from: oldValue) }
    }
    /// The anchor's z coordinate, in points.
    @exclusivity(unchecked) public var anchorPointZ: Double = 0 {
        didSet { didChangeValue(forKey: "anchorPointZ", from: oldValue) }
    }
    /// The layer's z in its superlayer: drawing order among siblings, and depth under perspective.
    @exclusivity(unchecked) public var zPosition: Double = 0 {
        didSet { didChangeValue(forKey: "zPosition", from: oldValue) }
    }
    /// Applied about the anchor point, relative to the superlayer.
    @exclusivity(unchecked) public var transform: Transform3D = .identity {
        didSet { didChangeValue(forKey: "transform", from: oldValue) }
    }
    /// Applied to every sublayer, about this layer's anchor point (the place for a shared perspective).
    @exclusivity(unchecked) public var sublayerTransform: Transform3D = .identity {
        didSet { didChangeValue(forKey: "sublayerTransform", from: oldValue) }
    }
    /// Flips the y axis of the sublayers' geometry about the middle of the bounds: a sublayer placed at the top
    /// of the bounds shows at the bottom. It moves sublayers only; this layer draws as before.
    @exclusivity(unchecked) public var isGeometryFlipped: Bool = false

    /// The layer's rectangle in its superlayer's space: derived from bounds, position, anchor and transform.
    /// Setting it keeps `bounds.origin` and the transform, and sets `bounds.size` and `position`.
    public var frame: Rect {
        get {
            let size = bounds.size
            let anchorInBounds = Point(x: anchorPoint.x * size.width, y: anchorPoint.y * size.height)
            let local = Rect(x: -anchorInBounds.x, y: -anchorInBounds.y, width: size.width, height: size.height)
            if transform.isIdentity { return local.offsetBy(dx: position.x, dy: position.y) }
            // The bounding box of the transformed bounds about the anchor (projected where possible).
            let corners = [Point(local.minX, local.minY), Point(local.maxX, local.minY),
                           Point(local.minX, local.maxY), Point(local.maxX, local.maxY)]
            var box = Rect.null
            for c in corners {
                let h = transform.apply(x: c.x, y: c.y, z: -anchorPointZ)
                let w = h.w > 1e-12 ? h.w : 1
                box = box.union(Rect(x: h.x / w, y: h.y / w, width: 0, height: 0))
            }
            return box.offsetBy(dx: position.x, dy: position.y)
        }
        set {
            let r = newValue.standardized
            if transform.isIdentity {
                bounds.size = r.size
                position = Point(x: r.minX + anchorPoint.x * r.width, y: r.minY + anchorPoint.y * r.height)
            } else {
                // As Core Animation: with a transform, size is set through the inverse of the transform's scale,
                // and position moves so that the frame's centre lands where asked.
                let current = frame
                let sx = current.width > 0 && bounds.width > 0 ? current.width / bounds.width : 1
                let sy = current.height > 0 && bounds.height > 0 ? current.height / bounds.height : 1
                bounds.size = Size(width: r.width / sx, height: r.height / sy)
                let moved = frame
                position = Point(x: position.x + r.midX - moved.midX, y: position.y + r.midY - moved.midY)
            }
        }
    }

    /// The 2D part of `transform`.
    public func affineTransform() -> AffineTransform2D { transform.affineTransform }
    /// Sets `transform` to the 2D transform `t`.
    public func setAffineTransform(_ t: AffineTransform2D) { transform = Transform3D(affine: t) }

    // MARK: Visual properties

    /// Fill of the bounds, rounded by `cornerRadius`; nil draws nothing.
    @exclusivity(unchecked) public var backgroundColor: Color? {
        didSet { didChangeValue(forKey: "backgroundColor", from: oldValue ?? .clear) }
    }
    /// An image or a video frame, placed by `contentsGravity`. Core Animation's `layer.contents = image.cgImage` is
    /// `layer.contents = .image(image)` here (`.pixelBuffer(buffer)` for a frame): a typed value, not `Any`.
    @exclusivity(unchecked) open var contents: LayerContents? {
        didSet { didChangeValue(forKey: "contents", from: AnimationValue.contents(oldValue)) }
    }
    /// How the contents are placed in the bounds (the default, `resize`, stretches them to fill).
    @exclusivity(unchecked) public var contentsGravity: ContentsGravity = .resize
    /// The part of the contents shown, in unit coordinates of the contents.
    @exclusivity(unchecked) public var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1) {
        didSet { didChangeValue(forKey: "contentsRect", from: oldValue) }
    }
    /// The stretchable middle of the contents (nine-slice), in unit coordinates of `contentsRect`.
    @exclusivity(unchecked) public var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1) {
        didSet { didChangeValue(forKey: "contentsCenter", from: oldValue) }
    }
    /// Pixels per point of the contents (natural size is pixels / contentsScale).
    @exclusivity(unchecked) public var contentsScale: Double = 1
    /// The filter used when the contents are drawn smaller than their pixels (`trilinear` uses mipmaps).
    @exclusivity(unchecked) public var minificationFilter: ContentsFilter = .linear
    /// The filter used when the contents are drawn bigger than their pixels (`nearest` keeps pixel art sharp).
    @exclusivity(unchecked) public var magnificationFilter: ContentsFilter = .linear
    /// Shifts the level of detail that trilinear minification picks (positive: blurrier). Animatable.
    @exclusivity(unchecked) public var minificationFilterBias: Double = 0 {
        didSet { didChangeValue(forKey: "minificationFilterBias", from: oldValue) }
    }

    /// Radius of the rounded corners of the background and border (and of the clip with `masksToBounds`).
    @exclusivity(unchecked) public var cornerRadius: Double = 0 {
        didSet { didChangeValue(forKey: "cornerRadius", from: oldValue) }
    }
    /// Which corners `cornerRadius` rounds (all by default).
    @exclusivity(unchecked) public var maskedCorners: CornerMask = .all
    /// The shape of the rounded corners (`CALayer.cornerCurve`): `.circular` quarter circles (the default), or Apple's
    /// `.continuous` corner, which eases out of the edges over about 1.53 radii (SEMANTICS.md, "Rounded corners").
    /// It shapes the background, border, contents clip, `masksToBounds` clip and the shadow of what they draw. A
    /// continuous corner's radius is clamped so that the corner fits half the shorter side (ours: UIKit turns it
    /// towards a capsule instead).
    @exclusivity(unchecked) public var cornerCurve: CornerCurve = .circular
    /// Whether the layer's edges are antialiased when it is drawn (`CALayer.allowsEdgeAntialiasing`): true, edges
    /// take the fraction of each pixel they cover (smooth when the layer is rotated or placed between pixels);
    /// false, a pixel is in or out by its centre (aliased, jagged when rotated). It applies to the edges and rounded
    /// corners of the layer's background, border, contents and `masksToBounds` clip.
    ///
    /// The default is true (ours: on iOS Core Animation's default is false, set for the whole app by the
    /// `UIViewEdgeAntialiasing` Info.plist key, and on macOS true; this compositor has always antialiased, and
    /// its renders, goldens included, keep doing so). Set it to false for iOS's look.
    @exclusivity(unchecked) public var allowsEdgeAntialiasing: Bool = true
    /// Whether the layer's drawn backing store is opaque (`CALayer.isOpaque`, false by default). A hint for the
    /// drawing only, as in Core Animation: when true, the backing store `display()` makes for `draw(in:)` has no
    /// alpha channel, so it starts opaque black and what `draw(in:)` leaves undrawn stays black (draw every pixel).
    /// It changes nothing for contents set directly (`contents = .image(…)`), nor how the layer composites, and it
    /// takes effect at the next `display()`.
    /// A `DrawableLayer` is opaque by default, as `CAMetalLayer` is, and there it makes the buffer's alpha ignored.
    @exclusivity(unchecked) open var isOpaque: Bool = false
    /// Width of the border, drawn inside the bounds above contents and sublayers.
    @exclusivity(unchecked) public var borderWidth: Double = 0 {
        didSet { didChangeValue(forKey: "borderWidth", from: oldValue) }
    }
    /// Colour of the border (black by default). Animatable.
    @exclusivity(unchecked) public var borderColor: Color? = .black {
        didSet { didChangeValue(forKey: "borderColor", from: oldValue ?? .clear) }
    }

    /// Colour of the shadow (black by default). Animatable.
    @exclusivity(unchecked) public var shadowColor: Color? = .black {
        didSet { didChangeValue(forKey: "shadowColor", from: oldValue ?? .clear) }
    }
    /// 0 (the default) draws no shadow.
    @exclusivity(unchecked) public var shadowOpacity: Double = 0 {
        didSet { didChangeValue(forKey: "shadowOpacity", from: oldValue) }
    }
    /// How far the shadow is offset, in points (Core Animation's default: 3 points up, y down). Animatable.
    @exclusivity(unchecked) public var shadowOffset: Size = Size(width: 0, height: -3) {
        didSet { didChangeValue(forKey: "shadowOffset", from: oldValue) }
    }
    /// Gaussian standard deviation of the shadow's blur, in points.
    @exclusivity(unchecked) public var shadowRadius: Double = 3 {
        didSet { didChangeValue(forKey: "shadowRadius", from: oldValue) }
    }
    /// The shadow's shape (filled non-zero); nil uses the layer's composited alpha.
    @exclusivity(unchecked) public var shadowPath: Path? {
        didSet { didChangeValue(forKey: "shadowPath", from: oldValue ?? Path()) }
    }

    /// A layer whose alpha masks this one, in this layer's coordinate space. Setting it detaches it from any parent.
    @exclusivity(unchecked) public var mask: Layer? {
        didSet {
            if let old = oldValue, old !== mask { old.maskedLayer = nil }
            if let mask {
                precondition(mask !== self, "a layer cannot mask itself")
                mask.removeFromSuperlayer()
                if let other = mask.maskedLayer, other !== self { other.mask = nil }
                mask.maskedLayer = self
            }
        }
    }
    /// Clips contents and sublayers to the rounded bounds.
    @exclusivity(unchecked) public var masksToBounds: Bool = false
    /// Group opacity of the layer and its sublayers, 0…1 (1 by default). A `Double`, where CALayer's is a `Float`:
    /// `layer.opacity = 0.5` ports as written; a `Float` value converts with `Double(f)`, and key paths and animations
    /// take `0.5` either way.
    @exclusivity(unchecked) public var opacity: Double = 1 {
        didSet { didChangeValue(forKey: "opacity", from: oldValue) }
    }
    /// Hides the layer and its subtree.
    @exclusivity(unchecked) public var isHidden: Bool = false
    /// When false, the layer is not drawn while its back faces the viewer.
    @exclusivity(unchecked) public var isDoubleSided: Bool = true
    /// When false, `opacity` applies to each draw of the layer and its sublayers separately, with no group
    /// buffer: overlapping sublayers show through each other (iOS before 7). Rasterizing implies group opacity.
    @exclusivity(unchecked) public var allowsGroupOpacity: Bool = true
    /// Renders the layer and its subtree once into an offscreen image at `rasterizationScale` × its size (in its own
    /// space, before its transform), reused while the subtree draws the same, and draws that image instead.
    @exclusivity(unchecked) public var shouldRasterize: Bool = false
    /// Raster pixels per point of a rasterized layer (the snapshot clamps NaN, 0 or huge values).
    @exclusivity(unchecked) public var rasterizationScale: Double = 1

    // MARK: Timing and animations

    /// The layer's clock relative to its parent's (CAMediaTiming): local time is
    /// `(parent time − beginTime) · speed + timeOffset`; it drives this layer's animations, its sublayers and
    /// time-varying contents (a `PlayerLayer` with `timeOffset` 5 shows the video from 5 s at time 0).
    @exclusivity(unchecked) public var beginTime: Double = 0
    /// How fast the layer's clock runs relative to its parent's.
    @exclusivity(unchecked) public var speed: Double = 1
    /// Seconds added to the layer's local time.
    @exclusivity(unchecked) public var timeOffset: Double = 0
    /// Attached animations by key, in the order they apply.
    @exclusivity(unchecked) var animationEntries: [(key: String, animation: Animation)] = []

    // MARK: Actions (Animation/Action.swift)

    /// Actions by event key, searched after the delegate's (CALayer's `actions`); a `NullAction` or Foundation's
    /// `NSNull()` turns one off, as Core Animation users write it: `layer.actions = ["position": NSNull()]`.
    public var actions: [String: Action]?
    /// Defaults searched after `actions`: `style["actions"]` (a `[String: Action]`), then `style["style"]`, recursively.
    public var style: [String: Any]?
    /// Values set by `setValue(_:forKeyPath:)` under keys that name no property (Core Animation's layers keep any key).
    @exclusivity(unchecked) var keyedValues: [String: AnimationValue] = [:]
    /// The animatable properties this class adds to `Layer`'s (see `AnimatableProperty`). A subclass returns
    /// `super.animatableProperties +` its own.
    open class var animatableProperties: [AnimatableProperty] { [] }

    /// The action for `event` (SEMANTICS-ANIMATION.md §4): the delegate's answer, then `actions`, then
    /// `style["actions"]` (and the style's own `style`, recursively), then `defaultAction(forKey:)`. A
    /// `NullAction` found anywhere gives nil: nothing runs.
    open func action(forKey event: String) -> Action? { searchAction(forKey: event) }

    /// The action a class runs for `event` when nothing else answers: for a key with a default action, a basic
    /// animation of it (from the value shown before the change to the model value, with the transaction's
    /// duration and timing function, or Core Animation's `default` curve); nil for other keys.
    open class func defaultAction(forKey event: String) -> Action? {
        standardDefaultAction(forKey: event, animatableProperties: animatableProperties)
    }

    // MARK: Hosting (Animation/LayerHosting.swift)

    /// Set on a root by the host that renders it.
    @exclusivity(unchecked) var hostState: HostRecord?
    /// Whether the layer has been in a snapshot (it has a presentation to animate from).
    @exclusivity(unchecked) var wasPresented = false
    /// Its node in the last snapshot: what a `Transition` added now starts from. Kept only by layers that have had a
    /// transition (`keepsLastSnapshotNode`): keeping every layer's held the previous tree alive into the next
    /// snapshot and doubled its cost (`layerplay bench --snapshot`).
    @exclusivity(unchecked) var lastSnapshotNode: LayerSnapshot?
    @exclusivity(unchecked) var keepsLastSnapshotNode = false

    // MARK: Hit testing (Layer+HitTesting.swift)

    /// Whether `p`, in this layer's own space, is inside the layer: by default, inside `bounds`. Hit testing asks
    /// this, so a subclass with another shape may override it. `ShapeLayer` does not (nor does CAShapeLayer): an app
    /// that wants its shape asks `path.contains(_:using:)`.
    open func contains(_ p: Point) -> Bool { bounds.contains(p) }

    /// The farthest descendant (or this layer) that contains `p`, given in the superlayer's space; nil when none does.
    /// Front-most first (reverse drawing order); hidden layers, layers whose back faces the viewer with
    /// `isDoubleSided` false, and what `masksToBounds` clips away are never hit. Opacity does not matter.
    open func hitTest(_ p: Point) -> Layer? { hitTestSubtree(p) }

    // MARK: Layout (Layer+Layout.swift)

    /// How this layer resizes when its superlayer's bounds change size.
    public var autoresizingMask: AutoresizingMask = .layerNotSizable
    /// An object that lays out the sublayers in `layoutSublayers()`. Held strongly, as Core Animation does.
    public var layoutManager: LayoutManager? {
        didSet { setNeedsLayout() }
    }
    var layoutIsNeeded = false

    /// Tells the sublayers that this layer's size changed from `oldSize`: calls `resize(withOldSuperlayerSize:)` on each.
    open func resizeSublayers(withOldSize oldSize: Size) {
        for layer in storedSublayers { layer.resize(withOldSuperlayerSize: oldSize) }
    }

    /// Moves and resizes this layer by its `autoresizingMask` after the superlayer's size changed from `oldSize`.
    open func resize(withOldSuperlayerSize oldSize: Size) { autoresize(withOldSuperlayerSize: oldSize) }

    /// Lays out the sublayers: asks the `layoutManager`, then the delegate. Subclasses override it to place their
    /// sublayers; call it through `layoutIfNeeded()`, never directly.
    open func layoutSublayers() {
        layoutManager?.layoutSublayers(of: self)
        delegate?.layoutSublayers(of: self)
    }

    /// The size this layer would like in its superlayer: the layout manager's answer, else the frame's size.
    open func preferredFrameSize() -> Size { layoutManager?.preferredSize(of: self) ?? frame.size }

    // MARK: Display (Layer+Display.swift)

    /// Who draws, displays or lays out this layer when it does not do so itself.
    public weak var delegate: LayerDelegate?
    /// When true, any change of `bounds` calls `setNeedsDisplay()`.
    public var needsDisplayOnBoundsChange: Bool = false
    var displayIsNeeded = false
    /// The part marked by `setNeedsDisplay(_:)` since the last display, in layer points; nil: the whole layer.
    var displayDirtyRect: Rect?
    /// The marked part the running `display()` redraws (`displayIfNeeded()` hands it over); nil: the whole layer.
    var displayingDirtyRect: Rect?
    /// The last backing store `displayByDrawing` made, while it is still the contents: what a partial redraw keeps.
    var lastBackingStore: BackingStore?

    /// Marks the part `rect` (in the layer's bounds space) of the contents as out of date
    /// (`CALayer.setNeedsDisplay(_:)`, `setNeedsDisplayInRect:`): `display()` runs at the next `displayIfNeeded()`.
    /// Marks accumulate (their union is redrawn); `setNeedsDisplay()` marks the whole layer.
    ///
    /// Where the drawing supports a partial redraw, only that part changes: a layer drawn by `draw(in:)` keeps its
    /// previous backing store outside the marked rect (rounded out to whole pixels), and `draw(in:)` runs with the
    /// context clipped to it (`boundingBoxOfClipPath` says where), as in Core Animation; a `TiledLayer` redraws only
    /// the tiles meeting it. Elsewhere — a delegate's `display(_:)`, a first drawing, a changed size or scale, contents
    /// set since — the whole layer is redrawn. A rect that is not finite marks the whole layer.
    open func setNeedsDisplay(_ rect: Rect) {
        let r = rect.standardized
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { setNeedsDisplay(); return }
        if displayIsNeeded && displayDirtyRect == nil { return }   // the whole layer is marked already
        displayDirtyRect = displayIsNeeded ? displayDirtyRect.map { $0.union(r) } ?? r : r
        displayIsNeeded = true
    }

    /// Makes new contents: the delegate's `display(_:)` when it provides one, else a backing store of
    /// `bounds.size × contentsScale` pixels drawn by `draw(in:)`. Call it through `displayIfNeeded()`.
    open func display() {
        if let delegate { delegate.display(self) } else { displayByDrawing() }
    }

    /// Draws the layer's content into `context`, whose coordinates are the layer's bounds (y down). The default
    /// asks the delegate's `draw(_:in:)`.
    open func draw(in context: DrawingContext) { delegate?.draw(self, in: context) }

    // MARK: Snapshot hooks

    /// The contents to show at `time` (seconds on the rendering clock). Subclasses that show time-varying
    /// contents (a video frame) override this; the default returns `contents`.
    open func presentationContents(at time: Double) -> LayerContents? { contents }

    /// Whether the layer draws differently as time passes though no animation runs (particles, a drawable that
    /// renders every frame, drawn sound); false by default. A host showing the tree keeps making frames while any
    /// layer says so (`changesOverTime(at:)`).
    open var drawsDifferentlyOverTime: Bool { false }

    /// What this class adds to its snapshot, made from its presentation values `presentation` at `time` (its
    /// declared properties are in `presentation.extras`); nil (the default) for none. A `DrawnLayerPayload` is
    /// drawn into the snapshot's contents.
    open func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? { nil }
    /// The last drawing of a `DrawnLayerPayload`.
    @exclusivity(unchecked) var drawnPayloadCache: DrawnPayloadCache?
    /// Adds animatable values whose keys depend on the instance, not the class (an emitter's
    /// `emitterCells.<name>.<property>`), to the presentation's `extras`; none by default.
    func addInstanceAnimatableValues(to extras: inout [String: AnimationValue]) {}

    /// Whether the sublayers keep their 3D positions instead of being flattened into this layer's plane: true for
    /// a `TransformLayer` (and, later, a `ReplicatorLayer` with `preservesDepth`). The snapshot's `preserves3D`.
    var preservesSublayerDepth: Bool { false }

    open var description: String {
        "<\(type(of: self)) \(name.map { "'\($0)' " } ?? "")frame=\(frame)\(storedSublayers.isEmpty ? "" : " sublayers=\(storedSublayers.count)")>"
    }
}
