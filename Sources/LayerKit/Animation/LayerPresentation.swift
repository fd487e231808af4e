import LayerGraphics

/// The animatable values of a layer at one time: its model values with its animations applied, in the
/// order they were added (a later animation of the same key path works on the result of the earlier ones).
public struct LayerPresentation: Sendable {
    /// The layer's `bounds` with its animations applied.
    public var bounds: Rect
    /// The layer's `position` with its animations applied.
    public var position: Point
    /// The layer's `anchorPoint` with its animations applied.
    public var anchorPoint: Point
    /// The layer's `anchorPointZ` with its animations applied.
    public var anchorPointZ: Double
    /// The layer's `zPosition` with its animations applied.
    public var zPosition: Double
    /// The layer's `transform` with its animations applied.
    public var transform: Transform3D
    /// The layer's `sublayerTransform` with its animations applied.
    public var sublayerTransform: Transform3D
    /// The layer's `opacity` with its animations applied.
    public var opacity: Double
    /// The layer's `backgroundColor` with its animations applied.
    public var backgroundColor: Color?
    /// The layer's `contentsRect` with its animations applied.
    public var contentsRect: Rect
    /// The layer's `cornerRadius` with its animations applied.
    public var cornerRadius: Double
    /// The layer's `borderWidth` with its animations applied.
    public var borderWidth: Double
    /// The layer's `borderColor` with its animations applied.
    public var borderColor: Color?
    /// The layer's `shadowColor` with its animations applied.
    public var shadowColor: Color?
    /// The layer's `shadowOpacity` with its animations applied.
    public var shadowOpacity: Double
    /// The layer's `shadowOffset` with its animations applied.
    public var shadowOffset: Size
    /// The layer's `shadowRadius` with its animations applied.
    public var shadowRadius: Double
    /// The layer's `contentsCenter` with its animations applied.
    public var contentsCenter: Rect
    /// The layer's `minificationFilterBias` with its animations applied.
    public var minificationFilterBias: Double
    /// The layer's `shadowPath` with its animations applied.
    public var shadowPath: Path?
    /// The layer's `isHidden` with its animations applied.
    public var isHidden: Bool
    /// The layer's `masksToBounds` with its animations applied.
    public var masksToBounds: Bool
    /// The layer's `isDoubleSided` with its animations applied.
    public var isDoubleSided: Bool
    /// The model's contents, or what a `contents` animation shows (`contentsFade` says what it fades from).
    public var contents: LayerContents?
    /// A crossfade in progress: the contents faded from, and how far towards `contents` (0…1).
    public var contentsFade: (from: LayerContents?, fraction: Double)?
    /// Whether an animation set `contents` (else the snapshot asks the layer, which may show a video frame).
    var contentsAnimated = false
    /// The values of the properties a subclass declares (`Layer.animatableProperties`), by key: the open part of
    /// the model, which a `ShapeLayer` or an app's own layer class fills without changing this type.
    public var extras: [String: AnimationValue]

    init(model l: Layer) {
        bounds = l.bounds; position = l.position; anchorPoint = l.anchorPoint; anchorPointZ = l.anchorPointZ
        zPosition = l.zPosition; transform = l.transform; sublayerTransform = l.sublayerTransform
        opacity = l.opacity; backgroundColor = l.backgroundColor; contentsRect = l.contentsRect
        cornerRadius = l.cornerRadius; borderWidth = l.borderWidth; borderColor = l.borderColor
        shadowColor = l.shadowColor; shadowOpacity = l.shadowOpacity; shadowOffset = l.shadowOffset
        shadowRadius = l.shadowRadius
        contentsCenter = l.contentsCenter; minificationFilterBias = l.minificationFilterBias; shadowPath = l.shadowPath
        isHidden = l.isHidden; masksToBounds = l.masksToBounds; isDoubleSided = l.isDoubleSided
        contents = l.contents
        let declared = type(of: l).animatableProperties
        extras = [:]
        if !declared.isEmpty {
            extras.reserveCapacity(declared.count)
            for property in declared { extras[property.key] = property.read(l) }
        }
        l.addInstanceAnimatableValues(to: &extras)
    }

    /// The value at a key path Core Animation animates; nil for a key path we do not animate.
    public func value(forKeyPath keyPath: String) -> AnimationValue? { value(for: ResolvedKeyPath(keyPath)) }

    /// Sets the value at a key path; a value of the wrong type is ignored.
    public mutating func set(_ value: AnimationValue, forKeyPath keyPath: String) { set(value, for: ResolvedKeyPath(keyPath)) }

    /// The value at a resolved key path (what animations use each frame: no string is compared then).
    func value(for key: ResolvedKeyPath) -> AnimationValue? {
        switch key {
        case .component(let sublayer, let component):
            return .number((sublayer ? sublayerTransform : transform).value(for: component))
        case .extra(let name): return extras[name]
        case .base(let k):
            switch k {
            case .bounds: return .rect(bounds)
            case .boundsOrigin: return .point(bounds.origin)
            case .boundsSize: return .size(bounds.size)
            case .boundsWidth: return .number(bounds.width)
            case .boundsHeight: return .number(bounds.height)
            case .position: return .point(position)
            case .positionX: return .number(position.x)
            case .positionY: return .number(position.y)
            case .anchorPoint: return .point(anchorPoint)
            case .anchorPointZ: return .number(anchorPointZ)
            case .zPosition: return .number(zPosition)
            case .transform: return .transform(transform)
            case .sublayerTransform: return .transform(sublayerTransform)
            case .opacity: return .number(opacity)
            case .backgroundColor: return .color(backgroundColor ?? .clear)
            case .contentsRect: return .rect(contentsRect)
            case .cornerRadius: return .number(cornerRadius)
            case .borderWidth: return .number(borderWidth)
            case .borderColor: return .color(borderColor ?? .clear)
            case .shadowColor: return .color(shadowColor ?? .clear)
            case .shadowOpacity: return .number(shadowOpacity)
            case .shadowOffset: return .size(shadowOffset)
            case .shadowRadius: return .number(shadowRadius)
            case .contentsCenter: return .rect(contentsCenter)
            case .minificationFilterBias: return .number(minificationFilterBias)
            case .shadowPath: return .path(shadowPath ?? Path())
            case .isHidden: return .bool(isHidden)
            case .masksToBounds: return .bool(masksToBounds)
            case .isDoubleSided: return .bool(isDoubleSided)
            case .contents:
                if let fade = contentsFade { return .contentsCrossfade(from: fade.from, to: contents, fraction: fade.fraction) }
                return .contents(contents)
            }
        }
    }

    /// Sets the value at a resolved key path; a value of the wrong type is ignored.
    mutating func set(_ value: AnimationValue, for key: ResolvedKeyPath) {
        switch key {
        case .component(let sublayer, let component):
            guard case .number(let n) = value else { return }
            if sublayer { sublayerTransform.setValue(n, for: component) } else { transform.setValue(n, for: component) }
        case .extra(let name):
            // A declared property of a subclass takes a value of its own type only.
            if let old = extras[name], old.hasSameType(as: value) { extras[name] = value }
        case .base(let k):
            switch (k, value) {
            case (.bounds, .rect(let r)): bounds = r
            case (.boundsOrigin, .point(let p)): bounds.origin = p
            case (.boundsSize, .size(let s)): bounds.size = s
            case (.boundsWidth, .number(let n)): bounds.size.width = n
            case (.boundsHeight, .number(let n)): bounds.size.height = n
            case (.position, .point(let p)): position = p
            case (.positionX, .number(let n)): position.x = n
            case (.positionY, .number(let n)): position.y = n
            case (.anchorPoint, .point(let p)): anchorPoint = p
            case (.anchorPointZ, .number(let n)): anchorPointZ = n
            case (.zPosition, .number(let n)): zPosition = n
            case (.transform, .transform(let t)): transform = t
            case (.sublayerTransform, .transform(let t)): sublayerTransform = t
            case (.opacity, .number(let n)): opacity = min(max(n, 0), 1)
            case (.backgroundColor, .color(let c)): backgroundColor = c
            case (.contentsRect, .rect(let r)): contentsRect = r
            case (.cornerRadius, .number(let n)): cornerRadius = max(0, n)
            case (.borderWidth, .number(let n)): borderWidth = max(0, n)
            case (.borderColor, .color(let c)): borderColor = c
            case (.shadowColor, .color(let c)): shadowColor = c
            case (.shadowOpacity, .number(let n)): shadowOpacity = min(max(n, 0), 1)
            case (.shadowOffset, .size(let s)): shadowOffset = s
            case (.shadowRadius, .number(let n)): shadowRadius = max(0, n)
            case (.contentsCenter, .rect(let r)): contentsCenter = r
            case (.minificationFilterBias, .number(let n)): minificationFilterBias = n
            case (.shadowPath, .path(let path)): shadowPath = path.elements.isEmpty ? nil : path
            case (.isHidden, .bool(let b)): isHidden = b
            case (.masksToBounds, .bool(let b)): masksToBounds = b
            case (.isDoubleSided, .bool(let b)): isDoubleSided = b
            case (.contents, .contents(let c)): contents = c; contentsFade = nil; contentsAnimated = true
            case (.contents, .contentsCrossfade(let from, let to, let f)):
                contents = to; contentsFade = (from, min(max(f, 0), 1)); contentsAnimated = true
            default: break
            }
        }
    }

    /// A number property of `Layer` itself, or a component of a transform; nil for others.
    func number(for key: ResolvedKeyPath) -> Double? {
        switch key {
        case .component(let sublayer, let component): return (sublayer ? sublayerTransform : transform).value(for: component)
        case .extra: return nil
        case .base(let k):
            switch k {
            case .opacity: return opacity
            case .positionX: return position.x
            case .positionY: return position.y
            case .zPosition: return zPosition
            case .anchorPointZ: return anchorPointZ
            case .boundsWidth: return bounds.width
            case .boundsHeight: return bounds.height
            case .cornerRadius: return cornerRadius
            case .borderWidth: return borderWidth
            case .shadowOpacity: return shadowOpacity
            case .shadowRadius: return shadowRadius
            case .minificationFilterBias: return minificationFilterBias
            default: return nil
            }
        }
    }

    /// A colour property of `Layer` itself (nil is clear, as `value(forKeyPath:)` reads it); nil for others.
    func color(for key: ResolvedKeyPath) -> Color? {
        guard case .base(let k) = key else { return nil }
        switch k {
        case .backgroundColor: return backgroundColor ?? .clear
        case .borderColor: return borderColor ?? .clear
        case .shadowColor: return shadowColor ?? .clear
        default: return nil
        }
    }

    /// Sets (or, additive, adds to) a number property without an `AnimationValue`; false for a key that is not a
    /// number of `Layer` itself (the caller then takes the general way).
    mutating func apply(number v: Double, additive: Bool, for key: ResolvedKeyPath) -> Bool {
        switch key {
        case .component(let sublayer, let component):
            if additive {
                concatenateBefore(ValueFunction.forComponent(component).transform(v), sublayer: sublayer)
            } else if sublayer {
                sublayerTransform.setValue(v, for: component)
            } else {
                transform.setValue(v, for: component)
            }
            return true
        case .extra: return false
        case .base(let k):
            func put(_ x: inout Double) { x = additive ? x + v : v }
            switch k {
            case .opacity: put(&opacity); opacity = min(max(opacity, 0), 1)
            case .positionX: put(&position.x)
            case .positionY: put(&position.y)
            case .zPosition: put(&zPosition)
            case .anchorPointZ: put(&anchorPointZ)
            case .boundsWidth: put(&bounds.size.width)
            case .boundsHeight: put(&bounds.size.height)
            case .cornerRadius: put(&cornerRadius); cornerRadius = max(0, cornerRadius)
            case .borderWidth: put(&borderWidth); borderWidth = max(0, borderWidth)
            case .shadowOpacity: put(&shadowOpacity); shadowOpacity = min(max(shadowOpacity, 0), 1)
            case .shadowRadius: put(&shadowRadius); shadowRadius = max(0, shadowRadius)
            case .minificationFilterBias: put(&minificationFilterBias)
            default: return false
            }
            return true
        }
    }

    /// The same for the colour properties of `Layer` itself (additive: component-wise sum).
    mutating func apply(color c: Color, additive: Bool, for key: ResolvedKeyPath) -> Bool {
        guard case .base(let k) = key else { return false }
        func put(_ x: inout Color?) {
            guard additive else { x = c; return }
            let o = x ?? .clear
            x = Color(red: o.red + c.red, green: o.green + c.green, blue: o.blue + c.blue, alpha: o.alpha + c.alpha)
        }
        switch k {
        case .backgroundColor: put(&backgroundColor)
        case .borderColor: put(&borderColor)
        case .shadowColor: put(&shadowColor)
        default: return false
        }
        return true
    }

    /// Applies `m` before `transform` (or `sublayerTransform`): `m · current`.
    mutating func concatenateBefore(_ m: Transform3D, sublayer: Bool) {
        if sublayer { sublayerTransform = m.concatenating(sublayerTransform) } else { transform = m.concatenating(transform) }
    }
}
