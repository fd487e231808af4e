import LayerGraphics

/// Core Animation's key-value coding on layers, for the key paths animations accept (issue 26 item 5):
/// `layer.setValue(Double.pi / 4, forKeyPath: "transform.rotation.z")`, `layer.value(forKeyPath: "position.x")`.
/// The key paths are resolved by the same `ResolvedKeyPath` the animations use, so a key path means the same here as
/// in `BasicAnimation(keyPath:)` (SEMANTICS-ANIMATION.md's key-path table).
extension Layer {
    /// The model value at `keyPath` (`CALayer.value(forKeyPath:)`): a property of `Layer` (`"opacity"`,
    /// `"bounds.size.width"`), a component of `transform` or `sublayerTransform` (`"transform.rotation.z"`,
    /// `"sublayerTransform.scale"`), a property the layer's class declares (`"strokeEnd"`), or a value stored by
    /// `setValue(_:forKeyPath:)` under another key; nil for a key nothing answers.
    ///
    /// The value is typed, not `Any`: `.number(0.5)`, `.point(…)`; ask `if case .number(let angle)? = …`. As in Core
    /// Animation, this is the model value: the value on screen during an animation is `presentation()`'s.
    public func value(forKeyPath keyPath: String) -> AnimationValue? {
        LayerPresentation(model: self).value(forKeyPath: keyPath) ?? keyedValues[keyPath]
    }

    /// Sets the model value at `keyPath` (`CALayer.setValue(_:forKeyPath:)`), as setting the property itself does:
    /// on a hosted layer the change runs the property's action (for a transform component, the `transform`'s), and
    /// numbers are clamped as the property clamps them (`opacity` to 0…1). Setting one component of a transform
    /// (`"transform.rotation.z"`, `"transform.scale.x"`, `"transform.translation"`) keeps the others, as Core
    /// Animation's transform key paths do.
    ///
    /// `value` is any animatable value (`Double`, `Point`, `Color`, `Transform3D`, `Bool`…), not `Any`. A value whose
    /// type does not fit the key path is ignored (Core Animation would raise); a key that names no property is
    /// stored, and read back by `value(forKeyPath:)`, as Core Animation's layers keep any key.
    public func setValue(_ value: some AnimatableValue, forKeyPath keyPath: String) {
        let newValue = value.animationValue
        let key = ResolvedKeyPath(keyPath)
        switch key {
        case .component(let sublayer, let component):
            guard case .number(let n) = newValue else { return }
            if sublayer { sublayerTransform.setValue(n, for: component) } else { transform.setValue(n, for: component) }
        case .extra(let name):
            if let property = type(of: self).animatableProperties.first(where: { $0.key == name }) {
                _ = property.write?(self, newValue)
            } else if LayerPresentation(model: self).extras[name] == nil {
                keyedValues[name] = newValue
            }
        case .base(let k):
            var presentation = LayerPresentation(model: self)
            guard let current = presentation.value(for: key), current.hasSameType(as: newValue) else { return }
            presentation.set(newValue, for: key)
            store(k, from: presentation)
        }
    }

    /// Sets the model property that holds `key` from `p` (the presentation the new value was set in, with the
    /// property's clamping applied).
    private func store(_ key: PresentationKey, from p: LayerPresentation) {
        switch key {
        case .bounds, .boundsOrigin, .boundsSize, .boundsWidth, .boundsHeight: bounds = p.bounds
        case .position, .positionX, .positionY: position = p.position
        case .anchorPoint: anchorPoint = p.anchorPoint
        case .anchorPointZ: anchorPointZ = p.anchorPointZ
        case .zPosition: zPosition = p.zPosition
        case .transform: transform = p.transform
        case .sublayerTransform: sublayerTransform = p.sublayerTransform
        case .opacity: opacity = p.opacity
        case .backgroundColor: backgroundColor = p.backgroundColor
        case .contentsRect: contentsRect = p.contentsRect
        case .cornerRadius: cornerRadius = p.cornerRadius
        case .borderWidth: borderWidth = p.borderWidth
        case .borderColor: borderColor = p.borderColor
        case .shadowColor: shadowColor = p.shadowColor
        case .shadowOpacity: shadowOpacity = p.shadowOpacity
        case .shadowOffset: shadowOffset = p.shadowOffset
        case .shadowRadius: shadowRadius = p.shadowRadius
        case .contentsCenter: contentsCenter = p.contentsCenter
        case .minificationFilterBias: minificationFilterBias = p.minificationFilterBias
        case .shadowPath: shadowPath = p.shadowPath
        case .isHidden: isHidden = p.isHidden
        case .masksToBounds: masksToBounds = p.masksToBounds
        case .isDoubleSided: isDoubleSided = p.isDoubleSided
        case .contents: contents = p.contents
        }
    }
}
