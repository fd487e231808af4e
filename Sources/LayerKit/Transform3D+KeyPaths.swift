import Foundation
import LayerGraphics

/// The components of a transform that Core Animation exposes as key paths (`transform.rotation.z`, …).
public enum TransformKeyPath: String, CaseIterable, Sendable {
    /// The rotation about x, y or z in radians (`rotation` is about z).
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation = "rotation"
    /// The scale along x, y or z (`scale`: the average of the three).
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale = "scale"
    /// The translation along x, y or z.
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
}

/// A transform split into scale, then rotation about x, y and z (in that order), then translation:
/// `M = S · Rx · Ry · Rz · T`. The fourth column (perspective) is carried unchanged.
struct DecomposedTransform {
    var scale: SIMD3<Double>
    var rotation: SIMD3<Double>
    var translation: SIMD3<Double>
    var perspectiveColumn: SIMD4<Double>

    init(_ m: Transform3D) {
        var r0 = SIMD3(m.m11, m.m12, m.m13), r1 = SIMD3(m.m21, m.m22, m.m23), r2 = SIMD3(m.m31, m.m32, m.m33)
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        var s = SIMD3(length(r0), length(r1), length(r2))
        // A mirror shows up as a negative determinant: give it to x.
        let cross = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
        if (r0 * cross).sum() < 0 { s.x = -s.x }
        if s.x != 0 { r0 /= s.x }
        if s.y != 0 { r1 /= s.y }
        if s.z != 0 { r2 /= s.z }
        // R = Rx(a)·Ry(b)·Rz(c): R13 = -sin b, R12/R11 = tan c, R23/R33 = tan a.
        let sb = min(max(-r0.z, -1), 1)
        let b = asin(sb)
        let a: Double, c: Double
        if abs(cos(b)) > 1e-9 {
            c = atan2(r0.y, r0.x)
            a = atan2(r1.z, r2.z)
        } else { // gimbal lock: fold z into x
            c = 0
            a = atan2(r1.x * sb, r1.y)
        }
        scale = s
        rotation = SIMD3(a, b, c)
        translation = SIMD3(m.m41, m.m42, m.m43)
        perspectiveColumn = SIMD4(m.m14, m.m24, m.m34, m.m44)
    }

    var transform: Transform3D {
        var m = Transform3D.makeScale(scale.x, scale.y, scale.z)
            .concatenating(.makeRotation(rotation.x, 1, 0, 0))
            .concatenating(.makeRotation(rotation.y, 0, 1, 0))
            .concatenating(.makeRotation(rotation.z, 0, 0, 1))
        m.m41 = translation.x; m.m42 = translation.y; m.m43 = translation.z
        m.m14 = perspectiveColumn.x; m.m24 = perspectiveColumn.y; m.m34 = perspectiveColumn.z; m.m44 = perspectiveColumn.w
        return m
    }
}

extension Transform3D {
    /// The value of a key path component (`transform.rotation.z` reads `value(for: .rotationZ)`).
    /// Angles are in radians; `scale` is the mean of the three scales; `rotation` is `rotation.z`.
    public func value(for keyPath: TransformKeyPath) -> Double {
        let d = DecomposedTransform(self)
        switch keyPath {
        case .rotationX: return d.rotation.x
        case .rotationY: return d.rotation.y
        case .rotationZ, .rotation: return d.rotation.z
        case .scaleX: return d.scale.x
        case .scaleY: return d.scale.y
        case .scaleZ: return d.scale.z
        case .scale: return d.scale.sum() / 3
        case .translationX: return d.translation.x
        case .translationY: return d.translation.y
        case .translationZ: return d.translation.z
        }
    }

    /// Sets one component, leaving the others as they were (`scale` sets all three).
    public mutating func setValue(_ value: Double, for keyPath: TransformKeyPath) {
        var d = DecomposedTransform(self)
        switch keyPath {
        case .rotationX: d.rotation.x = value
        case .rotationY: d.rotation.y = value
        case .rotationZ, .rotation: d.rotation.z = value
        case .scaleX: d.scale.x = value
        case .scaleY: d.scale.y = value
        case .scaleZ: d.scale.z = value
        case .scale: d.scale = SIMD3(repeating: value)
        case .translationX: d.translation.x = value
        case .translationY: d.translation.y = value
        case .translationZ: d.translation.z = value
        }
        self = d.transform
    }

    /// `transform.translation`: x and y together.
    public var translation: Size {
        get { Size(width: m41, height: m42) }
        set { m41 = newValue.width; m42 = newValue.height }
    }

    /// The string form of the key paths: `value(forKeyPath: "rotation.z")`; nil for an unknown key.
    public func value(forKeyPath key: String) -> Double? {
        TransformKeyPath(rawValue: key).map { value(for: $0) }
    }
    /// Sets a component by its string key path; returns false for an unknown key.
    @discardableResult
    public mutating func setValue(_ value: Double, forKeyPath key: String) -> Bool {
        guard let k = TransformKeyPath(rawValue: key) else { return false }
        setValue(value, for: k)
        return true
    }
}
