import LayerGraphics

/// An immutable copy of a layer tree's presentation values at one time: all the compositor ever sees.
///
/// It remembers which layer each node came from (`layerID`) without holding the layer, so a later change
/// to the model cannot alter a captured frame, and it can cross threads freely.
public final class LayerSnapshot: Sendable {
    /// The identity of the layer this node was made from (`Layer.id`), without holding the layer.
    public let layerID: UInt64
    /// The layer's `name`, for debugging.
    public let name: String?
    /// The layer's bounds at the snapshot's time.
    public let bounds: Rect
    /// Where the anchor point sits in the superlayer's coordinates.
    public let position: Point
    /// The point of the bounds, in unit coordinates, that `position` places and transforms turn about.
    public let anchorPoint: Point
    /// The anchor point's z.
    public let anchorPointZ: Double
    /// The layer's z, added to its place before `transform`.
    public let zPosition: Double
    /// The layer's transform about its anchor point.
    public let transform: Transform3D
    /// The transform applied to the sublayers about the middle of the bounds.
    public let sublayerTransform: Transform3D
    /// The sublayers' y axis is flipped about the middle of the bounds (part of `sublayerMatrix`).
    public let isGeometryFlipped: Bool
    /// True for a `TransformLayer`: its sublayers keep their 3D positions (no flattening) and it draws nothing
    /// of its own; its opacity applies to each sublayer separately.
    public let preserves3D: Bool

    /// The colour filling the bounds below the contents; nil for none.
    public let backgroundColor: Color?
    /// The bitmap or video frame the layer shows; nil for none.
    public let contents: LayerContents?
    /// How the contents are placed in the bounds.
    public let contentsGravity: ContentsGravity
    /// The part of the contents shown, in unit coordinates.
    public let contentsRect: Rect
    /// The stretchable middle of the contents, in unit coordinates (nine-slice scaling).
    public let contentsCenter: Rect
    /// Pixels of the contents per point.
    public let contentsScale: Double
    /// The filter used when the contents are drawn smaller than they are.
    public let minificationFilter: ContentsFilter
    /// The filter used when the contents are drawn bigger than they are.
    public let magnificationFilter: ContentsFilter
    /// Shifts the level of detail that trilinear minification picks (positive: blurrier).
    public let minificationFilterBias: Double
    /// The radius of the rounded corners of the background, border and (with `masksToBounds`) the clip.
    public let cornerRadius: Double
    /// Which corners `cornerRadius` rounds.
    public let maskedCorners: CornerMask
    /// The shape of the rounded corners: circular, or Apple's continuous corner.
    public let cornerCurve: CornerCurve
    /// Whether the layer's edges are antialiased (false: each pixel is in or out by its centre).
    public let allowsEdgeAntialiasing: Bool
    /// The border's width, drawn inside the bounds above the sublayers.
    public let borderWidth: Double
    /// The border's colour; nil for none.
    public let borderColor: Color?
    /// The shadow's colour; nil for none.
    public let shadowColor: Color?
    /// The shadow's opacity, 0…1 (0: no shadow).
    public let shadowOpacity: Double
    /// How far the shadow is offset from the layer.
    public let shadowOffset: Size
    /// The shadow's blur radius.
    public let shadowRadius: Double
    /// The shadow's outline, when given; nil: the shadow follows what the layer draws.
    public let shadowPath: Path?
    /// Whether the sublayers and contents are clipped to the (rounded) bounds.
    public let masksToBounds: Bool
    /// The layer's opacity, 0…1.
    public let opacity: Double
    /// Whether the layer and its subtree are hidden.
    public let isHidden: Bool
    /// Whether the back of the layer is drawn when it is turned away from the viewer.
    public let isDoubleSided: Bool
    /// Whether opacity applies to the subtree as one group (`Layer.allowsGroupOpacity`).
    public let allowsGroupOpacity: Bool
    /// Whether the subtree is drawn from an offscreen raster, at `rasterizationScale` (clamped to 1/16…16).
    public let shouldRasterize: Bool
    /// Pixels per point of the offscreen raster when `shouldRasterize` is set.
    public let rasterizationScale: Double

    /// The sublayers' snapshots, back to front in the order they were added.
    public let sublayers: [LayerSnapshot]
    /// The mask layer's snapshot, whose alpha masks this layer; nil for none.
    public let mask: LayerSnapshot?
    /// What a layer class adds to the snapshot (a shape's path, a gradient's colours…): made by the class's
    /// `snapshotPayload(_:at:)` from its presentation values; nil for a plain layer.
    public let payload: (any LayerPayload)?
    /// A `contents` crossfade in progress: the contents area shows `(1 − fraction)·from + fraction·contents`.
    public let contentsFade: ContentsFade?
    /// A `Transition` in progress on this layer: the compositor draws the old node turning into this one.
    public let transition: TransitionState?

    /// - Parameters:
    ///   - parentTime: the time on the parent's clock; the layer's own timing turns it into local time.
    ///   - modelOnly: the model values, no animation applied, and the layer not marked as shown (`render(in:)`).
    init(_ layer: Layer, parentTime: Double, modelOnly: Bool = false) {
        let time = layer.localTime(fromParentTime: parentTime)
        let p = modelOnly ? LayerPresentation(model: layer) : layer.presentation(at: time)
        if !modelOnly { layer.wasPresented = true }
        layerID = layer.identifier
        name = layer.name
        bounds = p.bounds
        position = p.position
        anchorPoint = p.anchorPoint
        anchorPointZ = p.anchorPointZ
        zPosition = p.zPosition
        transform = p.transform
        sublayerTransform = p.sublayerTransform
        isGeometryFlipped = layer.isGeometryFlipped
        preserves3D = layer.preservesSublayerDepth
        backgroundColor = Drawable.color(p.backgroundColor)
        let payload = layer.snapshotPayload(p, at: time)
        if let drawn = payload as? any DrawnLayerPayload {
            contents = layer.contents(drawing: drawn, bounds: p.bounds, scale: Drawable.scale(layer.contentsScale))
            contentsFade = nil
        } else if p.contentsAnimated {
            contents = p.contents
            contentsFade = p.contentsFade.map { ContentsFade(from: $0.from, fraction: Drawable.fraction($0.fraction)) }
        } else {
            contents = layer.presentationContents(at: time)
            contentsFade = nil
        }
        self.payload = payload
        contentsGravity = layer.contentsGravity
        contentsRect = Drawable.unitRect(p.contentsRect)
        contentsCenter = Drawable.unitRect(p.contentsCenter)
        contentsScale = Drawable.scale(layer.contentsScale)
        minificationFilter = layer.minificationFilter
        magnificationFilter = layer.magnificationFilter
        minificationFilterBias = Drawable.bias(p.minificationFilterBias)
        cornerRadius = Drawable.length(p.cornerRadius)
        maskedCorners = layer.maskedCorners
        cornerCurve = layer.cornerCurve
        allowsEdgeAntialiasing = layer.allowsEdgeAntialiasing
        borderWidth = Drawable.length(p.borderWidth)
        borderColor = Drawable.color(p.borderColor)
        shadowColor = Drawable.color(p.shadowColor)
        shadowOpacity = Drawable.shadowIsPlaceable(offset: p.shadowOffset, path: p.shadowPath) ? Drawable.fraction(p.shadowOpacity) : 0
        shadowOffset = Drawable.isPlaceable(p.shadowOffset) ? p.shadowOffset : .zero
        shadowRadius = Drawable.length(p.shadowRadius)
        shadowPath = Drawable.shadowIsPlaceable(offset: .zero, path: p.shadowPath) ? p.shadowPath : nil
        masksToBounds = p.masksToBounds
        opacity = Drawable.fraction(p.opacity)
        // A layer its geometry places nowhere draws nothing, with its subtree, as a hidden one (`Drawable`).
        isHidden = p.isHidden || !Drawable.isPlaceable(p)
        isDoubleSided = p.isDoubleSided
        allowsGroupOpacity = layer.allowsGroupOpacity
        shouldRasterize = layer.shouldRasterize
        rasterizationScale = Drawable.rasterizationScale(layer.rasterizationScale)
        // All stored sublayers, parts (PlayerLayer's picture) included: they draw, though `sublayers` hides them.
        sublayers = layer.storedSublayers.map { LayerSnapshot($0, parentTime: time, modelOnly: modelOnly) }
        mask = layer.mask.map { LayerSnapshot($0, parentTime: time, modelOnly: modelOnly) }
        transition = layer.animationEntries.isEmpty || modelOnly ? nil : layer.transitionState(at: time)
        if layer.keepsLastSnapshotNode && !modelOnly { layer.lastSnapshotNode = self }
    }

    /// The anchor point in the layer's bounds space: `bounds.origin + anchorPoint · bounds.size`.
    public var anchorInBounds: Point { LayerGeometry.anchor(bounds: bounds, anchorPoint: anchorPoint) }

    /// Layer space to superlayer space (SEMANTICS.md):
    /// `T(-a.x, -a.y, -anchorPointZ) · transform · T(position.x, position.y, zPosition)`.
    public var localTransform: Transform3D {
        LayerGeometry.localTransform(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                     transform: transform, position: position, zPosition: zPosition)
    }

    /// What this layer applies to its sublayers: the geometry flip when `isGeometryFlipped`, then
    /// `T(-a) · sublayerTransform · T(a)`, `a` its anchor in bounds space.
    public var sublayerMatrix: Transform3D {
        LayerGeometry.sublayerMatrix(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                     sublayerTransform: sublayerTransform, isGeometryFlipped: isGeometryFlipped)
    }

    /// The sublayers in drawing order: ascending `zPosition`, ties in array order.
    public var sublayersInDrawingOrder: [LayerSnapshot] {
        LayerGeometry.drawingOrder(sublayers, zPosition: \.zPosition)
    }
}

extension Layer {
    /// The presentation values of this layer and its subtree at `time` (seconds on the rendering clock, which
    /// is this layer's parent clock: its own `beginTime`, `speed` and `timeOffset` apply).
    ///
    /// First it does what Core Animation does when a transaction commits: it lays the subtree out
    /// (`layoutIfNeeded()`, top-down), then redraws the layers that asked for it (`displayIfNeeded()` on each,
    /// masks included), so a snapshot never shows stale layout or drawing. That changes the model (frames,
    /// contents): take snapshots on the thread that owns the tree. It costs a walk of the tree when nothing is pending.
    ///
    /// It also does what a host does (SEMANTICS-ANIMATION.md §1, §4): the tree is hosted from then on (changes to it
    /// animate implicitly), the thread's implicit transaction is committed (animations added with `beginTime` 0
    /// since the last snapshot began at that snapshot's time), and after the snapshot delegates and completion
    /// blocks hear what ended by `time`.
    public func snapshot(at time: Double = 0) -> LayerSnapshot {
        prepareHostedSnapshot(at: time)
        // Layout and drawing the tree does for itself never animate (§4: layers that run no actions).
        Transaction.withoutActions {
            layoutIfNeeded()
            displaySubtreeIfNeeded()
        }
        let snapshot = LayerSnapshot(self, parentTime: time)
        finishHostedSnapshot(at: time)
        return snapshot
    }
}

extension Layer {
    /// The model values of this layer and its subtree, no animation applied (what `render(in:)` draws), after
    /// laying the subtree out and redrawing what asked for it, as `snapshot(at:)` does, but without hosting the tree:
    /// no transaction commits, no animation begins, no delegate hears anything. Time-varying contents (a video's frame,
    /// particles) are those of the host's current time, or time 0 when the tree is not hosted.
    package func modelSnapshot() -> LayerSnapshot {
        Transaction.withoutActions {
            layoutIfNeeded()
            displaySubtreeIfNeeded()
        }
        let parentTime = currentMediaTime().map { superlayer?.convertTime($0, from: nil) ?? $0 } ?? 0
        return LayerSnapshot(self, parentTime: parentTime, modelOnly: true)
    }
}

/// A crossfade of a layer's contents (SEMANTICS-ANIMATION.md §5), as a snapshot carries it.
public struct ContentsFade: Sendable {
    /// The contents faded from (nil: none, transparent).
    public let from: LayerContents?
    /// How far towards the snapshot's `contents`, 0…1.
    public let fraction: Double
}
