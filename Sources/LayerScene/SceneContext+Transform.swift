import LayerGraphics
import LayerKit

/// Transforms as SCENES.md §4 writes them: a list of operations applied first to last (`[a, b]` is a·b, "a, then
/// b"), or an object of key-path components set on the identity. Angles in degrees.
extension SceneContext {
    static let transformOperations = ["translate", "scale", "rotate", "rotateX", "rotateY", "rotateZ", "rotate3d", "perspective", "matrix"]
    static let transformComponents = ["rotation.x", "rotation.y", "rotation.z", "rotation", "scale", "scale.x", "scale.y", "scale.z",
                                      "translation", "translation.x", "translation.y", "translation.z"]

    mutating func transform(_ v: SceneValue, _ site: Site) -> Transform3D? {
        switch v {
        case .list(let ops):
            var t = Transform3D.identity
            for (i, op) in ops.enumerated() {
                let opSite = Site(json: site.json, path: "\(site.path)[\(i)]")
                guard case .object(let o) = op, o.count == 1, let (name, value) = o.first else {
                    expected("an operation such as {\"rotateY\": 30}", opSite, got: op); return nil
                }
                guard let m = operation(name, value, Site(json: site.json, path: "\(opSite.path).\(name)")) else { return nil }
                t = t.concatenating(m)
            }
            return t
        case .object(let components):
            // Applied as Core Animation's transform key paths compose: scale, then rotation (x, y, z), then translation.
            var t = Transform3D.identity
            for key in components.keys where !Self.transformComponents.contains(key) {
                let hint = suggestion(for: key, among: Self.transformComponents).map { "; did you mean \"\($0)\"?" } ?? ""
                error(Site(json: site.json, path: "\(site.path).\(key)"), "unknown transform component\(hint)")
                return nil
            }
            func n(_ key: String) -> SceneValue? { components[key] }
            var scale = [1.0, 1.0, 1.0]
            if let s = n("scale") { guard let v = number(s, Site(json: site.json, path: "\(site.path).scale")) else { return nil }; scale = [v, v, v] }
            for (i, axis) in ["x", "y", "z"].enumerated() {
                if let s = n("scale.\(axis)") { guard let v = number(s, Site(json: site.json, path: "\(site.path).scale.\(axis)")) else { return nil }; scale[i] = v }
            }
            t = t.concatenating(.makeScale(scale[0], scale[1], scale[2]))
            for (axis, vector) in [("x", (1.0, 0.0, 0.0)), ("y", (0, 1, 0)), ("z", (0, 0, 1))] {
                for key in axis == "z" ? ["rotation.z", "rotation"] : ["rotation.\(axis)"] {
                    guard let a = n(key) else { continue }
                    guard let r = angle(a, Site(json: site.json, path: "\(site.path).\(key)")) else { return nil }
                    t = t.concatenating(.makeRotation(r, vector.0, vector.1, vector.2))
                }
            }
            var move = [0.0, 0.0, 0.0]
            if let tr = n("translation") {
                guard let v = numbers(tr, Site(json: site.json, path: "\(site.path).translation"), count: 2...3, what: "[x, y] or [x, y, z]") else { return nil }
                for (i, c) in v.enumerated() { move[i] = c }
            }
            for (i, axis) in ["x", "y", "z"].enumerated() {
                if let s = n("translation.\(axis)") { guard let v = number(s, Site(json: site.json, path: "\(site.path).translation.\(axis)")) else { return nil }; move[i] = v }
            }
            return t.concatenating(.makeTranslation(move[0], move[1], move[2]))
        default:
            expected("a list of transform operations or an object of components", site, got: v)
            return nil
        }
    }

    private mutating func operation(_ name: String, _ v: SceneValue, _ site: Site) -> Transform3D? {
        switch name {
        case "translate":
            guard let n = numbers(v, site, count: 2...3, what: "[x, y] or [x, y, z]") else { return nil }
            return .makeTranslation(n[0], n[1], n.count == 3 ? n[2] : 0)
        case "scale":
            if case .number(let s) = v { return .makeScale(s, s, 1) }
            guard let n = numbers(v, site, count: 2...3, what: "a scale s, [sx, sy] or [sx, sy, sz]") else { return nil }
            return .makeScale(n[0], n[1], n.count == 3 ? n[2] : 1)
        case "rotate", "rotateZ": return angle(v, site).map { .makeRotation($0, 0, 0, 1) }
        case "rotateX": return angle(v, site).map { .makeRotation($0, 1, 0, 0) }
        case "rotateY": return angle(v, site).map { .makeRotation($0, 0, 1, 0) }
        case "rotate3d":
            guard case .list(let l) = v, l.count == 4 else { expected("[x, y, z, angle]", site, got: v); return nil }
            guard let axis = numbers(.list(Array(l.prefix(3))), site, count: 3...3, what: "[x, y, z, angle]"),
                  let a = angle(l[3], Site(json: site.json, path: "\(site.path)[3]")) else { return nil }
            if axis == [0, 0, 0] { return .identity }  // no axis: no rotation, rather than a NaN matrix
            return .makeRotation(a, axis[0], axis[1], axis[2])
        case "perspective":
            guard let d = number(v, site, min: 0) else { return nil }
            return d == 0 ? .identity : .makePerspective(distance: d)
        case "matrix":
            guard let m = numbers(v, site, count: 16...16, what: "16 numbers, row by row") else { return nil }
            return Transform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                               m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
        default:
            let hint = suggestion(for: name, among: Self.transformOperations).map { "; did you mean \"\($0)\"?" } ?? ""
            error(site, "unknown transform operation\(hint)")
            return nil
        }
    }
}
