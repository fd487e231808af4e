/// A key path an animation names, resolved once when it is set, so that applying the animation each frame compares
/// no strings: one of `Layer`'s own keys, a component of `transform` or `sublayerTransform`
/// (`transform.rotation.y`), or a key a subclass declares (`LayerPresentation.extras`).
enum ResolvedKeyPath: Sendable, Equatable {
    case base(PresentationKey)
    case component(sublayer: Bool, TransformKeyPath)
    case extra(String)

    init(_ keyPath: String) {
        if let key = PresentationKey.byName[keyPath] { self = .base(key); return }
        for (base, sublayer) in [("transform.", false), ("sublayerTransform.", true)] where keyPath.hasPrefix(base) {
            if let k = TransformKeyPath(rawValue: String(keyPath.dropFirst(base.count))) {
                self = .component(sublayer: sublayer, k)
                return
            }
        }
        self = .extra(keyPath)
    }

    var isComponent: Bool { if case .component = self { true } else { false } }
}

/// `Layer`'s own animatable keys, as `LayerPresentation` stores them.
enum PresentationKey: UInt8, Sendable, CaseIterable {
    case bounds, boundsOrigin, boundsSize, boundsWidth, boundsHeight, position, positionX, positionY, anchorPoint
    case anchorPointZ, zPosition, transform, sublayerTransform, opacity, backgroundColor, contentsRect, cornerRadius
    case borderWidth, borderColor, shadowColor, shadowOpacity, shadowOffset, shadowRadius, contentsCenter
    case minificationFilterBias, shadowPath, isHidden, masksToBounds, isDoubleSided, contents

    /// Key-path spellings (Core Animation's, and for booleans also the Swift property names).
    static let byName: [String: PresentationKey] = [
        "bounds": .bounds, "bounds.origin": .boundsOrigin, "bounds.size": .boundsSize,
        "bounds.size.width": .boundsWidth, "bounds.size.height": .boundsHeight, "position": .position,
        "position.x": .positionX, "position.y": .positionY, "anchorPoint": .anchorPoint,
        "anchorPointZ": .anchorPointZ, "zPosition": .zPosition, "transform": .transform,
        "sublayerTransform": .sublayerTransform, "opacity": .opacity, "backgroundColor": .backgroundColor,
        "contentsRect": .contentsRect, "cornerRadius": .cornerRadius, "borderWidth": .borderWidth,
        "borderColor": .borderColor, "shadowColor": .shadowColor, "shadowOpacity": .shadowOpacity,
        "shadowOffset": .shadowOffset, "shadowRadius": .shadowRadius, "contentsCenter": .contentsCenter,
        "minificationFilterBias": .minificationFilterBias, "shadowPath": .shadowPath, "hidden": .isHidden,
        "isHidden": .isHidden, "masksToBounds": .masksToBounds, "doubleSided": .isDoubleSided,
        "isDoubleSided": .isDoubleSided, "contents": .contents,
    ]
}
