import Foundation
@testable import LayerKit
import Testing

// SEMANTICS-ANIMATION.md §5: UnmatrixedTransform and TransformInterpolation.

private func rotZ(_ a: Double) -> Transform3D { .makeRotation(a, 0, 0, 1) }

/// `a · b · c · …` (each applied after the ones before).
private func chain(_ ts: Transform3D...) -> Transform3D { ts.dropFirst().reduce(ts[0]) { $0.concatenating($1) } }

private func near(_ a: Transform3D?, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return a.isApproximatelyEqual(to: b, tolerance: tolerance)
}

private func near<V: SIMD>(_ a: V, _ b: V, _ tolerance: Double = 1e-12) -> Bool where V.Scalar == Double {
    (0..<a.scalarCount).allSatisfy { abs(a[$0] - b[$0]) <= tolerance }
}

private func entries(_ m: Transform3D) -> [Double] {
    [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
}

private func scaled(_ m: Transform3D, _ k: Double) -> Transform3D {
    let e = entries(m).map { $0 * k }
    return Transform3D(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                       m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
}

private extension SplitMix64 {
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    mutating func unitAxis() -> SIMD3<Double> {
        while true {
            let v = SIMD3(uniform(-1...1), uniform(-1...1), uniform(-1...1))
            let l = (v * v).sum().squareRoot()
            if l > 0.1 && l <= 1 { return v / l }
        }
    }
}

@Suite("Transform interpolation (§5)")
struct TransformInterpolationTests {
    // MARK: Decomposition

    @Test func aRotationAboutAUnitAxisIsTheHalfAngleQuaternion() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let a = rng.unitAxis()
            let theta = rng.uniform(-3...3)   // cos(θ/2) > 0: the trace branch, w > 0
            let u = try #require(UnmatrixedTransform(.makeRotation(theta, a.x, a.y, a.z)))
            let expected = SIMD4(a.x * sin(theta / 2), a.y * sin(theta / 2), a.z * sin(theta / 2), cos(theta / 2))
            #expect(near(u.quaternion, expected, 1e-12), "θ = \(theta), axis \(a)")
            #expect(near(u.scale, SIMD3(1, 1, 1), 1e-12) && near(u.skew, .zero, 1e-12))
            #expect(u.translation == .zero && u.perspective == SIMD4(0, 0, 0, 1))
        }
    }

    @Test func halfTurnsUseTheLargestDiagonalBranch() throws {
        // 1 + trace = 4cos²(θ/2) ≤ 0.001: the rotation's own axis gives the quaternion, up to sign.
        var rng = SplitMix64(seed: 8)
        for theta in [Double.pi, .pi - 1e-4, -.pi + 1e-6, .pi - 0.03] {
            for _ in 0..<50 {
                let a = rng.unitAxis()
                let u = try #require(UnmatrixedTransform(.makeRotation(theta, a.x, a.y, a.z)))
                let expected = SIMD4(a.x * sin(theta / 2), a.y * sin(theta / 2), a.z * sin(theta / 2), cos(theta / 2))
                #expect(near(u.quaternion, expected, 1e-9) || near(u.quaternion, -expected, 1e-9), "θ = \(theta), axis \(a)")
            }
        }
    }

    @Test func builtComponentsComeBackOut() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<200 {
            let scale = SIMD3(rng.uniform(0.2...3), rng.uniform(0.2...3), rng.uniform(0.2...3))
            let skew = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
            let axis = rng.unitAxis(), theta = rng.uniform(-3...3)
            let q = SIMD4(axis * sin(theta / 2), cos(theta / 2))
            let t = SIMD3(rng.uniform(-100...100), rng.uniform(-100...100), rng.uniform(-100...100))
            var p = SIMD4(rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01), rng.uniform(-0.01...0.01), 0)
            p.w = 1 - (t * SIMD3(p.x, p.y, p.z)).sum()   // m44 = t·p + p.w = 1
            let built = UnmatrixedTransform(scale: scale, skew: skew, quaternion: q, translation: t, perspective: p)
            let m = built.transform
            #expect(abs(m.m44 - 1) < 1e-12)
            let u = try #require(UnmatrixedTransform(m))
            #expect(near(u.scale, scale, 1e-9) && near(u.skew, skew, 1e-9), "\(u) vs \(built)")
            #expect(near(u.quaternion, q, 1e-9) && near(u.translation, t, 1e-9) && near(u.perspective, p, 1e-9), "\(u) vs \(built)")
        }
    }

    @Test func theComposedOrderIsScaleSkewRotateTranslatePerspective() {
        let u = UnmatrixedTransform(scale: SIMD3(2, 3, 4), skew: SIMD3(0.5, 0, 0), quaternion: SIMD4(0, 0, sin(0.35), cos(0.35)),
                                    translation: SIMD3(10, 20, 30), perspective: SIMD4(0, 0, -0.002, 1.06))
        var skew = Transform3D.identity
        skew.m21 = 0.5
        var perspective = Transform3D.identity
        perspective.m34 = -0.002
        perspective.m44 = 1.06
        let expected = chain(.makeScale(2, 3, 4), skew, rotZ(0.7), .makeTranslation(10, 20, 30), perspective)
        #expect(near(u.transform, expected, 1e-12))
    }

    @Test func decomposeThenRecomposeRoundTrips() throws {
        var rng = SplitMix64(seed: 10)
        var checked = 0
        while checked < 500 {
            // Any 4×4 with a well-conditioned upper 3×3 and m44 away from 0, perspective row included.
            var e = (0..<16).map { _ in rng.uniform(-2...2) }
            if checked % 3 == 0 { e[3] = 0; e[7] = 0; e[11] = 0 }                  // affine
            if checked % 5 == 0 { e[0] = -abs(e[0]) * 3 }                           // mirrors on the way
            let m = Transform3D(m11: e[0], m12: e[1], m13: e[2], m14: e[3] * 0.1, m21: e[4], m22: e[5], m23: e[6], m24: e[7] * 0.1,
                                m31: e[8], m32: e[9], m33: e[10], m34: e[11] * 0.1, m41: e[12] * 50, m42: e[13] * 50, m43: e[14] * 50,
                                m44: e[15])
            let det = e[0] * (e[5] * e[10] - e[6] * e[9]) - e[1] * (e[4] * e[10] - e[6] * e[8]) + e[2] * (e[4] * e[9] - e[5] * e[8])
            guard abs(det) > 0.2, abs(e[15]) > 0.2 else { continue }
            let u = try #require(UnmatrixedTransform(m))
            #expect(near(u.transform, scaled(m, 1 / m.m44), 1e-9), "\(m)")
            checked += 1
        }
    }

    @Test func aMirrorNegatesTheScales() throws {
        // Rows (−1,0,0), (0,1,0), (0,0,1) have a negative determinant: scales (−1,−1,−1) and the rows negated, which are
        // a half turn about x.
        let m = Transform3D.makeScale(-1, 1, 1)
        let u = try #require(UnmatrixedTransform(m))
        #expect(near(u.scale, SIMD3(-1, -1, -1)))
        #expect(near(u.quaternion, SIMD4(1, 0, 0, 0)) || near(u.quaternion, SIMD4(-1, 0, 0, 0)))
        #expect(near(u.transform, m))
        #expect(near(TransformInterpolation.interpolate(m, m, 0.5), m))
    }

    @Test func whatCannotBeDecomposed() {
        var flat = Transform3D.identity
        flat.m44 = 0
        #expect(UnmatrixedTransform(flat) == nil)
        // Perspective with a singular 3×3.
        var singular = Transform3D.makeScale(0, 1, 1)
        singular.m34 = -0.01
        #expect(UnmatrixedTransform(singular) == nil)
        // Rotated, then flattened: two parallel rows, which S·K·R cannot write.
        #expect(UnmatrixedTransform(chain(rotZ(0.3), .makeScale(0, 1, 1))) == nil)
        var nan = Transform3D.identity
        nan.m12 = .nan
        #expect(UnmatrixedTransform(nan) == nil)
        var inf = Transform3D.identity
        inf.m41 = .infinity
        #expect(UnmatrixedTransform(inf) == nil)
        // Either end not decomposable, or a fraction that is not a number: nil, the caller goes discrete.
        #expect(TransformInterpolation.interpolate(.identity, flat, 0.5) == nil)
        #expect(TransformInterpolation.interpolate(singular, .identity, 0.5) == nil)
        #expect(TransformInterpolation.interpolate(.identity, rotZ(1), .nan) == nil)
        #expect(TransformInterpolation.interpolate(.identity, rotZ(1), .infinity) == nil)
    }

    @Test func aZeroScaleDecomposesWithTheIdentitysRow() throws {
        let u = try #require(UnmatrixedTransform(.makeScale(0, 2, 1)))
        #expect(near(u.scale, SIMD3(0, 2, 1)) && near(u.quaternion, SIMD4(0, 0, 0, 1)))
        let zero = try #require(UnmatrixedTransform(chain(.makeScale(0, 0, 0), .makeTranslation(1, 2, 3))))
        #expect(near(zero.scale, .zero) && near(zero.translation, SIMD3(1, 2, 3)))
        // A zero row after a rotation keeps the rotation of the rows that are there.
        let turned = try #require(UnmatrixedTransform(chain(.makeScale(0, 1, 1), rotZ(0.4))))
        #expect(near(turned.quaternion, SIMD4(0, 0, sin(0.2), cos(0.2))))
        #expect(near(turned.transform, chain(.makeScale(0, 1, 1), rotZ(0.4))))
    }

    // MARK: Interpolation

    @Test func theRotationTakesTheShorterArc() {
        let below = rotZ(.pi - 0.1), above = rotZ(.pi + 0.1)
        #expect(near(TransformInterpolation.interpolate(.identity, below, 0.5), rotZ((.pi - 0.1) / 2)))
        #expect(near(TransformInterpolation.interpolate(.identity, above, 0.5), rotZ(-(.pi - 0.1) / 2)))
        for f in [0.1, 0.25, 0.5, 0.9] {
            #expect(near(TransformInterpolation.interpolate(.identity, below, f), rotZ(f * (.pi - 0.1))), "\(f)")
            #expect(near(TransformInterpolation.interpolate(.identity, above, f), rotZ(-f * (.pi - 0.1))), "\(f)")
            // A whole turn is the identity: nothing moves.
            #expect(near(TransformInterpolation.interpolate(.identity, rotZ(2 * .pi), f), .identity), "\(f)")
        }
        // Quaternions on opposite hemispheres: one is negated, and the way from π − 0.2 to π + 0.2 passes π, not 0.
        #expect(near(TransformInterpolation.interpolate(rotZ(.pi - 0.2), rotZ(.pi + 0.2), 0.5), rotZ(.pi)))
        #expect(near(TransformInterpolation.interpolate(rotZ(.pi - 0.2), rotZ(.pi + 0.2), 0.25), rotZ(.pi - 0.1)))
        // About another axis, between two rotations, and beyond the ends (an overshooting timing function).
        let a = Transform3D.makeRotation(0.3, 1, 2, 2), b = Transform3D.makeRotation(1.5, 1, 2, 2)
        #expect(near(TransformInterpolation.interpolate(a, b, 0.5), .makeRotation(0.9, 1, 2, 2)))
        #expect(near(TransformInterpolation.interpolate(a, b, 1.25), .makeRotation(1.8, 1, 2, 2)))
        #expect(near(TransformInterpolation.interpolate(a, b, -0.5), .makeRotation(-0.3, 1, 2, 2)))
        // Nearly equal rotations (the normalised-lerp branch).
        #expect(near(TransformInterpolation.interpolate(rotZ(0.01), rotZ(0.02), 0.5), rotZ(0.015), 1e-9))
    }

    @Test func translationScaleAndRotationMixComponentWise() {
        let b = chain(.makeScale(2, 3, 1), rotZ(0.8), .makeTranslation(10, 20, 0))
        #expect(near(TransformInterpolation.interpolate(.identity, b, 0.5), chain(.makeScale(1.5, 2, 1), rotZ(0.4), .makeTranslation(5, 10, 0))))
        let rx = { (a: Double) in Transform3D.makeRotation(a, 1, 0, 0) }
        let from = chain(rx(0.2), .makeTranslation(1, 2, 3)), to = chain(.makeScale(0.5, 2, 4), rx(1), .makeTranslation(-1, 0, 9))
        #expect(near(TransformInterpolation.interpolate(from, to, 0.5), chain(.makeScale(0.75, 1.5, 2.5), rx(0.6), .makeTranslation(0, 1, 6))))
        #expect(near(TransformInterpolation.interpolate(from, to, 0.25), chain(.makeScale(0.875, 1.25, 1.75), rx(0.4), .makeTranslation(0.5, 1.5, 4.5))))
        // Skew and perspective are linear.
        var skew = Transform3D.identity
        skew.m21 = 0.5
        var halfSkew = Transform3D.identity
        halfSkew.m21 = 0.25
        #expect(near(TransformInterpolation.interpolate(.identity, skew, 0.5), halfSkew))
        #expect(near(TransformInterpolation.interpolate(.identity, .makePerspective(distance: 500), 0.5), .makePerspective(distance: 1000)))
    }

    @Test func theEndsAreTheMatricesThemselves() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<100 {
            func random() -> Transform3D {
                let axis = rng.unitAxis()
                var p = Transform3D.identity
                p.m34 = rng.uniform(-0.01...0.01)
                return chain(.makeScale(rng.uniform(0.3...2), rng.uniform(0.3...2), rng.uniform(0.3...2)),
                             .makeRotation(rng.uniform(-3...3), axis.x, axis.y, axis.z),
                             .makeTranslation(rng.uniform(-50...50), rng.uniform(-50...50), rng.uniform(-50...50)), p)
            }
            // The result is normalised to m44 = 1 (§5 step 1): the same projective map as the matrix it came from.
            let a = random(), b = random()
            let na = scaled(a, 1 / a.m44), nb = scaled(b, 1 / b.m44)
            #expect(near(TransformInterpolation.interpolate(a, b, 0), na, 1e-9))
            #expect(near(TransformInterpolation.interpolate(a, b, 1), nb, 1e-9))
            #expect(near(TransformInterpolation.interpolate(a, a, 0.37), na, 1e-9))
        }
    }

    @Test func scaleZeroGrowsInPlace() {
        let b = chain(rotZ(0.5), .makeTranslation(10, 0, 0))
        for f in [0.0, 0.25, 0.5, 1] {
            let s = f
            #expect(near(TransformInterpolation.interpolate(.makeScale(0, 0, 0), b, f),
                         chain(.makeScale(s, s, s), rotZ(0.5), .makeTranslation(10 * f, 0, 0))), "\(f)")
            // And the other way round.
            #expect(near(TransformInterpolation.interpolate(b, .makeScale(0, 0, 0), 1 - f),
                         chain(.makeScale(s, s, s), rotZ(0.5), .makeTranslation(10 * f, 0, 0))), "\(f)")
        }
        // One zero row borrows the other end's direction, made orthogonal to its own rows.
        #expect(near(TransformInterpolation.interpolate(.makeScale(0, 1, 1), rotZ(0.6), 0.5), chain(.makeScale(0.5, 1, 1), rotZ(0.3))))
        #expect(near(TransformInterpolation.interpolate(chain(.makeScale(0, 1, 1), rotZ(0.4)), rotZ(0.4), 0.5),
                     chain(.makeScale(0.5, 1, 1), rotZ(0.4))))
        // Zero at both ends: the identity's row.
        #expect(near(TransformInterpolation.interpolate(.makeScale(0, 1, 1), .makeScale(0, 2, 1), 0.5), .makeScale(0, 1.5, 1)))
    }

    // MARK: Hostile inputs

    @Test func hostileMatricesNeitherTrapNorGiveNonFiniteResults() {
        let values: [Double] = [0, 1, -1, 1e300, -1e300, 1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity]
        var rng = SplitMix64(seed: 12)
        for _ in 0..<5_000 {
            let e = (0..<16).map { _ in values.randomElement(using: &rng)! }
            let m = Transform3D(m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
                                m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
            if let u = UnmatrixedTransform(m) {
                let c = [u.scale.x, u.scale.y, u.scale.z, u.skew.x, u.skew.y, u.skew.z, u.translation.x, u.translation.y, u.translation.z,
                         u.quaternion.x, u.quaternion.y, u.quaternion.z, u.quaternion.w,
                         u.perspective.x, u.perspective.y, u.perspective.z, u.perspective.w]
                #expect(c.allSatisfy { $0.isFinite }, "\(m)")
                _ = u.transform
            }
            for f in [0.0, 0.5, 1, 1e300, -3] {
                if let r = TransformInterpolation.interpolate(m, rotZ(1), f) { #expect(entries(r).allSatisfy { $0.isFinite }) }
                if let r = TransformInterpolation.interpolate(.makeScale(1e300, 1e-300, 1), m, f) { #expect(entries(r).allSatisfy { $0.isFinite }) }
            }
        }
        // Huge and tiny but regular matrices still decompose.
        let extreme = UnmatrixedTransform(.makeScale(1e200, 1e-200, 1))?.scale ?? .zero
        #expect(abs(extreme.x / 1e200 - 1) < 1e-12 && abs(extreme.y / 1e-200 - 1) < 1e-12 && extreme.z == 1)
        #expect(UnmatrixedTransform(.makeScale(1e-200, 1e-200, 1e-200))?.scale.x == 1e-200)
    }
}
