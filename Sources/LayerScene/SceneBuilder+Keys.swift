import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// The look, contents, time and per-type keys of a layer, each read with its typed reader.
extension SceneBuilder {
    static let cornerNames: [String: CornerMask] = [
        "topLeft": .layerMinXMinYCorner, "topRight": .layerMaxXMinYCorner,
        "bottomLeft": .layerMinXMaxYCorner, "bottomRight": .layerMaxXMaxYCorner,
    ]

    mutating func applyKey(_ key: String, _ v: SceneValue, _ s: Site, to layer: Layer, type: String) {
        if let sub = layer as? SceneSubtitlesLayer, Self.subtitleBoxKeys.contains(key) { applyKey(key, v, s, to: sub.box, type: "layer"); return }
        switch key {
        case "backgroundColor": if let c = ctx.color(v, s) { layer.backgroundColor = c }
        case "cornerRadius": if let n = ctx.number(v, s, min: 0) { layer.cornerRadius = n }
        case "maskedCorners":
            guard case .list(let l) = v else { ctx.expected("a list of topLeft topRight bottomLeft bottomRight", s, got: v); return }
            var mask: CornerMask = []
            for item in l {
                guard let name = ctx.choice(item, s, ["topLeft", "topRight", "bottomLeft", "bottomRight"]) else { return }
                mask.insert(Self.cornerNames[name]!)
            }
            layer.maskedCorners = mask
        case "borderWidth": if let n = ctx.number(v, s, min: 0) { layer.borderWidth = n }
        case "borderColor": if let c = ctx.color(v, s) { layer.borderColor = c }
        case "shadowColor": if let c = ctx.color(v, s) { layer.shadowColor = c }
        case "shadowOpacity": if let n = ctx.number(v, s, min: 0, max: 1) { layer.shadowOpacity = n }
        case "shadowOffset": if let p = ctx.numbers(v, s, count: 2...2, what: "an offset [dx, dy]") { layer.shadowOffset = Size(width: p[0], height: p[1]) }
        case "shadowRadius": if let n = ctx.number(v, s, min: 0) { layer.shadowRadius = n }
        case "shadowPath": if let p = ctx.path(v, s) { layer.shadowPath = p }
        case "opacity": if let n = ctx.number(v, s, min: 0, max: 1) { layer.opacity = n }
        case "hidden": if let b = ctx.bool(v, s) { layer.isHidden = b }
        case "doubleSided": if let b = ctx.bool(v, s) { layer.isDoubleSided = b }
        case "masksToBounds": if let b = ctx.bool(v, s) { layer.masksToBounds = b }
        case "contents":
            guard let file = ctx.string(v, s), let path = readablePath(file, s) else { return }
            do { layer.contents = .image(try ImageLoader.load(path: SceneFileRule.openable(path))) } catch {
                ctx.error(s, "cannot open '\(file)': \(error)")
            }
        case "contentsGravity":
            if let g = ctx.choice(v, s, ContentsGravity.allCases.map(\.rawValue)) { layer.contentsGravity = ContentsGravity(rawValue: g)! }
        case "contentsRect": if let r = ctx.rect(v, s) { layer.contentsRect = r }
        case "contentsCenter": if let r = ctx.rect(v, s) { layer.contentsCenter = r }
        case "contentsScale": if let n = ctx.number(v, s, min: 0.01, max: 16) { layer.contentsScale = n }
        case "minificationFilter":
            if let f = ctx.choice(v, s, ContentsFilter.allCases.map(\.rawValue)) { layer.minificationFilter = ContentsFilter(rawValue: f)! }
        case "magnificationFilter":
            if let f = ctx.choice(v, s, ContentsFilter.allCases.map(\.rawValue)) { layer.magnificationFilter = ContentsFilter(rawValue: f)! }
        case "minificationFilterBias": if let n = ctx.number(v, s) { layer.minificationFilterBias = n }
        case "beginTime": if let t = ctx.time(v, s) { layer.beginTime = t }
        case "speed": if let n = ctx.number(v, s, min: -100, max: 100) { layer.speed = n }
        case "timeOffset": if let t = ctx.time(v, s) { layer.timeOffset = t }
        case "show": applyShow(v, s, to: layer)
        case "input", "src", "start", "loop", "stream", "videoGravity": break  // read by mediaLayer
        default:
            if let shape = layer as? ShapeLayer { applyShapeKey(key, v, s, to: shape) }
            else if let text = layer as? TextLayer { applyTextKey(key, v, s, to: text) }
            else if let gradient = layer as? GradientLayer { applyGradientKey(key, v, s, to: gradient) }
            else { _ = applyMoreKey(key, v, s, to: layer) }
        }
    }

    /// `show: [from, until]` on the parent's clock: a discrete keyframe animation of `hidden` (hidden outside).
    mutating func applyShow(_ v: SceneValue, _ s: Site, to layer: Layer) {
        guard case .list(let l) = v, l.count == 2, let from = ctx.time(l[0], s, min: 0), let until = ctx.time(l[1], s, min: 0) else {
            if case .list(let l) = v, l.count == 2 { return }  // the time reader already said what was wrong
            ctx.expected("[from, until]", s, got: v); return
        }
        guard until > from else { ctx.error(s, "expected until after from, got [\(formatNumber(from)), \(formatNumber(until))]"); return }
        let a = KeyframeAnimation(keyPath: "hidden")
        a.calculationMode = .discrete
        a.values = [true, false, true]
        a.keyTimes = [0, from / until, 1]
        a.duration = until
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        layer.add(a, forKey: "show")
    }

    mutating func applyShapeKey(_ key: String, _ v: SceneValue, _ s: Site, to shape: ShapeLayer) {
        switch key {
        case "path": if let p = ctx.path(v, s) { shape.path = p }
        case "fillColor": if let c = ctx.color(v, s) { shape.fillColor = c }
        case "fillRule": if let r = ctx.choice(v, s, ["nonZero", "evenOdd"]) { shape.fillRule = r == "nonZero" ? .nonZero : .evenOdd }
        case "strokeColor": if let c = ctx.color(v, s) { shape.strokeColor = c }
        case "lineWidth": if let n = ctx.number(v, s, min: 0) { shape.lineWidth = n }
        case "lineCap":
            if let c = ctx.choice(v, s, ["butt", "round", "square"]) { shape.lineCap = c == "butt" ? .butt : c == "round" ? .round : .square }
        case "lineJoin":
            if let j = ctx.choice(v, s, ["miter", "round", "bevel"]) { shape.lineJoin = j == "miter" ? .miter : j == "round" ? .round : .bevel }
        case "miterLimit": if let n = ctx.number(v, s, min: 0) { shape.miterLimit = n }
        case "lineDashPattern":
            if let l = ctx.numbers(v, s, count: 0...64, what: "a list of dash lengths") {
                guard l.allSatisfy({ $0 >= 0 }) else { ctx.expected("dash lengths ≥ 0", s, got: v); return }
                shape.lineDashPattern = l.isEmpty ? nil : l
            }
        case "lineDashPhase": if let n = ctx.number(v, s) { shape.lineDashPhase = n }
        case "strokeStart": if let n = ctx.number(v, s, min: 0, max: 1) { shape.strokeStart = n }
        case "strokeEnd": if let n = ctx.number(v, s, min: 0, max: 1) { shape.strokeEnd = n }
        default: break
        }
    }

    mutating func applyTextKey(_ key: String, _ v: SceneValue, _ s: Site, to text: TextLayer) {
        switch key {
        case "string":
            switch v {
            case .string(let str): text.string = .plain(str)
            case .number(let n): text.string = .plain(formatNumber(n))
            default: ctx.expected("a string", s, got: v)
            }
        case "font": if let f = ctx.string(v, s) { text.font = f }
        case "fontSize": if let n = ctx.number(v, s, min: 0, max: 4096) { text.fontSize = n }
        case "foregroundColor": if let c = ctx.color(v, s) { text.foregroundColor = c }
        case "alignmentMode":
            let modes: [String: TextLayer.AlignmentMode] = ["natural": .natural, "left": .left, "right": .right, "center": .center, "justified": .justified]
            if let m = ctx.choice(v, s, ["natural", "left", "right", "center", "justified"]) { text.alignmentMode = modes[m]! }
        case "wrapped": if let b = ctx.bool(v, s) { text.isWrapped = b }
        case "truncationMode":
            let modes: [String: TextLayer.TruncationMode] = ["none": TextLayer.TruncationMode.none, "start": .start, "middle": .middle, "end": .end]
            if let m = ctx.choice(v, s, ["none", "start", "middle", "end"]) { text.truncationMode = modes[m]! }
        default: break
        }
    }

    mutating func applyGradientKey(_ key: String, _ v: SceneValue, _ s: Site, to g: GradientLayer) {
        switch key {
        case "kind":
            if let k = ctx.choice(v, s, GradientLayer.GradientType.allCases.map(\.rawValue)) { g.type = GradientLayer.GradientType(rawValue: k)! }
        case "colors": if let c = ctx.colors(v, s) { g.colors = c }
        case "locations":
            if let l = ctx.numbers(v, s, count: 0...256, what: "a list of locations from 0 to 1") { g.locations = l }
        case "startPoint": if let p = ctx.point(v, s) { g.startPoint = p }
        case "endPoint": if let p = ctx.point(v, s) { g.endPoint = p }
        default: break
        }
    }
}
