import Foundation
import LayerGraphics
import LayerKit

/// Animations (SCENES.md §3): basic, keyframe (`values` or `keys`), spring and group, with values typed by key path.
extension SceneBuilder {
    static let timingKeys: Set<String> = ["type", "key", "keyPath", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
                                          "repeatDuration", "autoreverses", "fillMode", "removedOnCompletion", "timingFunction",
                                          "additive", "cumulative", "valueFunction", "when"]
    static let animationKeys: [String: Set<String>] = [
        "basic": ["from", "to", "by"],
        "keyframe": ["values", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues", "biasValues",
                     "path", "rotationMode", "keys"],
        "spring": ["from", "to", "by", "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"],
        "group": ["animations"],
    ]

    /// What a key path animates, so its values are read with the right reader.
    enum ValueKind { case number, angle, point, size, rect, color, colors, numbers, transform, path, bool }

    static func valueKind(_ keyPath: String, hasValueFunction: Bool, superSize: Size) -> ValueKind {
        switch keyPath {
        case "transform", "sublayerTransform":
            return hasValueFunction ? .number : .transform
        case let k where k.hasPrefix("transform.rotation") || k.hasPrefix("sublayerTransform.rotation"): return .angle
        case "transform.translation", "sublayerTransform.translation", "shadowOffset", "bounds.size", "emitterSize": return .size
        case "position", "anchorPoint", "startPoint", "endPoint", "bounds.origin", "emitterPosition": return .point
        case "instanceTransform": return .transform
        case "instanceColor": return .color
        // An emitter cell's properties by key path (`emitterCells.spark.color`); its angles are degrees as elsewhere.
        case let k where k.hasPrefix("emitterCells.") && k.hasSuffix(".color"): return .color
        case let k where k.hasPrefix("emitterCells.") && ["emissionLongitude", "emissionLatitude", "emissionRange", "spin", "spinRange"].contains(where: { k.hasSuffix(".\($0)") }): return .angle
        case "bounds", "contentsRect", "contentsCenter": return .rect
        case "backgroundColor", "borderColor", "shadowColor", "fillColor", "strokeColor", "foregroundColor": return .color
        case "colors": return .colors
        case "locations", "lineDashPattern": return .numbers
        case "path", "shadowPath": return .path
        case "hidden", "isHidden", "masksToBounds", "doubleSided": return .bool
        default: return .number
        }
    }

    mutating func animationValue(_ v: SceneValue, _ s: Site, kind: ValueKind, superSize: Size, rotationFunction: Bool) -> (any AnimatableValue)? {
        switch kind {
        case .number: return rotationFunction ? ctx.angle(v, s) : ctx.number(v, s, percentOf: nil)
        case .angle: return ctx.angle(v, s)
        case .point: return ctx.point(v, s, percentOf: superSize)
        case .size: return ctx.numbers(v, s, count: 2...2, what: "[x, y]", percentOf: [superSize.width, superSize.height]).map { Size(width: $0[0], height: $0[1]) }
        case .rect: return ctx.rect(v, s, percentOf: superSize)
        case .color: return ctx.color(v, s).map { $0 ?? .clear }
        case .colors: return ctx.colors(v, s)
        case .numbers: return ctx.numbers(v, s, count: 0...256, what: "a list of numbers")
        case .transform: return ctx.transform(v, s)
        case .path: return ctx.path(v, s)
        case .bool: return ctx.bool(v, s)
        }
    }

    mutating func addAnimations(_ json: JSONValue, path: String, to layer: Layer, superSize: Size) {
        guard let list = json.elements else { ctx.error(Site(json: json, path: path), "expected a list of animations, got \(json.shortDescription)"); return }
        for (i, a) in list.enumerated() {
            let p = "\(path)[\(i)]"
            guard isIncluded(a, path: p), let (animation, key) = buildAnimation(a, path: p, superSize: superSize, index: i) else { continue }
            layer.add(animation, forKey: key)
        }
    }

    /// Reads `key` of `json` if present and defined.
    mutating func field(_ json: JSONValue, _ key: String, _ path: String) -> (SceneValue, Site)? {
        guard let j = json[key] else { return nil }
        let s = Site(json: j, path: "\(path).\(key)")
        guard let v = ctx.resolve(s), v != .undefined else { return nil }
        return (v, s)
    }

    mutating func buildAnimation(_ json: JSONValue, path: String, superSize: Size, index: Int) -> (Animation, String)? {
        guard let members = json.members else { ctx.error(Site(json: json, path: path), "expected an animation object, got \(json.shortDescription)"); return nil }
        guard let (tv, ts) = field(json, "type", path) else { ctx.error(Site(json: json, path: path), "missing \"type\" (basic, keyframe, spring or group)"); return nil }
        if case .string("transition") = tv {
            ctx.error(ts, "a transition needs a model change, which a file cannot make: put it in a switch layer's cuts"); return nil
        }
        guard let type = ctx.choice(tv, ts, ["basic", "keyframe", "spring", "group"]) else { return nil }
        ctx.checkKeys(members, known: Self.timingKeys.union(Self.animationKeys[type]!), path: path)

        let animation: Animation
        var keyPath = ""
        if type == "group" {
            let group = AnimationGroup()
            var children: [Animation] = []
            if let list = json["animations"]?.elements {
                for (i, c) in list.enumerated() where isIncluded(c, path: "\(path).animations[\(i)]") {
                    if let (a, _) = buildAnimation(c, path: "\(path).animations[\(i)]", superSize: superSize, index: i) { children.append(a) }
                }
            } else { ctx.error(Site(json: json, path: path), "a group needs \"animations\": [...]") }
            group.animations = children
            animation = group
        } else {
            guard let (kv, ks) = field(json, "keyPath", path), let kp = ctx.string(kv, ks) else {
                ctx.error(Site(json: json, path: path), "missing \"keyPath\""); return nil
            }
            keyPath = kp
            guard let property = buildPropertyAnimation(type, json, path: path, keyPath: kp, superSize: superSize) else { return nil }
            animation = property
        }
        applyTiming(animation, json, path: path)
        let key = field(json, "key", path).flatMap { ctx.string($0.0, $0.1) } ?? "\(keyPath)#\(index)"
        return (animation, key)
    }

    mutating func valueFunction(_ json: JSONValue, path: String) -> ValueFunction?? {
        guard let (v, s) = field(json, "valueFunction", path) else { return .some(nil) }
        let named: [String: ValueFunction] = ["rotateX": .rotateX, "rotateY": .rotateY, "rotateZ": .rotateZ, "scale": .scale,
                                              "scaleX": .scaleX, "scaleY": .scaleY, "scaleZ": .scaleZ,
                                              "translateX": .translateX, "translateY": .translateY, "translateZ": .translateZ]
        if case .object(let o) = v, o.count == 1, let axisValue = o["rotate3d"] {
            guard let axis = ctx.numbers(axisValue, s, count: 3...3, what: "an axis [x, y, z]") else { return nil }
            return .some(.rotate(axisX: axis[0], axisY: axis[1], axisZ: axis[2]))
        }
        if case .string = v, let name = ctx.choice(v, s, named.keys.sorted()) { return .some(named[name]!) }
        if case .string = v { return nil }
        ctx.expected("a value function (rotateX … translateZ or {\"rotate3d\": [x, y, z]})", s, got: v)
        return nil
    }

    mutating func buildPropertyAnimation(_ type: String, _ json: JSONValue, path: String, keyPath: String, superSize: Size) -> PropertyAnimation? {
        guard let vf = valueFunction(json, path: path) else { return nil }
        let rotating: Bool
        switch vf { case .rotateX?, .rotateY?, .rotateZ?, .rotate?: rotating = true; default: rotating = false }
        let kind = Self.valueKind(keyPath, hasValueFunction: vf != nil, superSize: superSize)
        func value(_ key: String) -> (any AnimatableValue)?? {
            guard let (v, s) = field(json, key, path) else { return .some(nil) }
            guard let a = animationValue(v, s, kind: kind, superSize: superSize, rotationFunction: rotating) else { return nil }
            return .some(a)
        }
        let result: PropertyAnimation
        switch type {
        case "basic", "spring":
            let basic: BasicAnimation = type == "spring" ? SpringAnimation(keyPath: keyPath) : BasicAnimation(keyPath: keyPath)
            guard let from = value("from"), let to = value("to"), let by = value("by") else { return nil }
            basic.fromValue = from; basic.toValue = to; basic.byValue = by
            if let spring = basic as? SpringAnimation {
                for key in ["mass", "stiffness", "damping", "initialVelocity"] {
                    guard let (v, s) = field(json, key, path) else { continue }
                    // Mass and stiffness must be positive, damping may be 0 (an undamped spring); huge values are clamped.
                    let lower: Double? = key == "initialVelocity" ? nil : (key == "damping" ? 0 : 0.0001)
                    guard let n = ctx.number(v, s, min: lower) else { continue }
                    switch key {
                    case "mass": spring.mass = n
                    case "stiffness": spring.stiffness = n
                    case "damping": spring.damping = n
                    default: spring.initialVelocity = n
                    }
                }
                if let (v, s) = field(json, "allowsOverdamping", path), let b = ctx.bool(v, s) { spring.allowsOverdamping = b }
            }
            result = basic
        default:
            guard let keyframe = buildKeyframe(json, path: path, keyPath: keyPath, kind: kind, superSize: superSize, rotating: rotating) else { return nil }
            result = keyframe
        }
        result.valueFunction = vf
        if let (v, s) = field(json, "additive", path), let b = ctx.bool(v, s) { result.isAdditive = b }
        if let (v, s) = field(json, "cumulative", path), let b = ctx.bool(v, s) { result.isCumulative = b }
        return result
    }

    /// The timing every animation has; `removedOnCompletion` defaults to **false** in files (SCENES.md §3).
    mutating func applyTiming(_ a: Animation, _ json: JSONValue, path: String) {
        a.isRemovedOnCompletion = false
        if let (v, s) = field(json, "beginTime", path), let t = ctx.time(v, s) { a.beginTime = t }
        if let (v, s) = field(json, "duration", path) {
            if case .string("settle") = v {
                if let spring = a as? SpringAnimation { a.duration = min(spring.settlingDuration, 3600) }
                else { ctx.error(s, "\"settle\" is a spring's duration; give this animation a time") }
            } else if let t = ctx.time(v, s, min: 0) { a.duration = t }
        }
        if let (v, s) = field(json, "speed", path), let n = ctx.number(v, s, min: -100, max: 100) { a.speed = n }
        if let (v, s) = field(json, "timeOffset", path), let t = ctx.time(v, s) { a.timeOffset = t }
        if let (v, s) = field(json, "repeatCount", path) {
            if case .string("infinity") = v { a.repeatCount = .infinity } else if let n = ctx.number(v, s, min: 0) { a.repeatCount = n }
        }
        if let (v, s) = field(json, "repeatDuration", path) {
            if case .string("infinity") = v { a.repeatDuration = .infinity } else if let t = ctx.time(v, s, min: 0) { a.repeatDuration = t }
        }
        if let (v, s) = field(json, "autoreverses", path), let b = ctx.bool(v, s) { a.autoreverses = b }
        if let (v, s) = field(json, "fillMode", path), let m = ctx.choice(v, s, ["removed", "forwards", "backwards", "both"]) {
            a.fillMode = m == "removed" ? .removed : m == "forwards" ? .forwards : m == "backwards" ? .backwards : .both
        }
        if let (v, s) = field(json, "removedOnCompletion", path), let b = ctx.bool(v, s) { a.isRemovedOnCompletion = b }
        if let (v, s) = field(json, "timingFunction", path), let f = ctx.timingFunction(v, s) { a.timingFunction = f }
    }
}
