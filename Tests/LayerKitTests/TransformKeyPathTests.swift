import Foundation
import LayerGraphics
import LayerKit
import Testing

private func elements(_ t: Transform3D) -> [Double] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
     t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
}

private func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(elements(a), elements(b)).allSatisfy { abs($0 - $1) < tolerance }
}

/// Scale 2, a turn of 0.3 about z, then a move of (5, 6, 7).
private let example = Transform3D.makeScale(2, 2, 2)
    .concatenating(.makeRotation(0.3, 0, 0, 1))
    .concatenating(.makeTranslation(5, 6, 7))

// MARK: - Rotation

@Test(arguments: [-2.5, -1.2, -0.3, 0.5, 1.4, 3.0])
func rotationXReadsBackTheAngle(angle: Double) {
    let t = Transform3D.makeRotation(angle, 1, 0, 0)
    #expect(abs(t.value(for: .rotationX) - angle) < 1e-9)
    #expect(abs(t.value(for: .rotationY)) < 1e-9)
    #expect(abs(t.value(for: .rotationZ)) < 1e-9)
}

@Test(arguments: [-1.4, -0.3, 0.5, 1.2])
func rotationYReadsBackTheAngle(angle: Double) {
    let t = Transform3D.makeRotation(angle, 0, 1, 0)
    #expect(abs(t.value(for: .rotationY) - angle) < 1e-9)
    #expect(abs(t.value(for: .rotationX)) < 1e-9)
    #expect(abs(t.value(for: .rotationZ)) < 1e-9)
}

@Test(arguments: [-3.0, -1.2, -0.3, 0.5, 1.4, 2.5])
func rotationZReadsBackTheAngle(angle: Double) {
    let t = Transform3D.makeRotation(angle, 0, 0, 1)
    #expect(abs(t.value(for: .rotationZ) - angle) < 1e-9)
    #expect(abs(t.value(for: .rotationX)) < 1e-9)
    #expect(abs(t.value(for: .rotationY)) < 1e-9)
    // And the scale of a pure rotation is 1.
    #expect(abs(t.value(for: .scale) - 1) < 1e-9)
}

@Test func rotationIsRotationZ() {
    let t = Transform3D.makeRotation(0.7, 0, 0, 1)
    #expect(abs(t.value(for: .rotation) - 0.7) < 1e-9)
    #expect(t.value(for: .rotation) == t.value(for: .rotationZ))
    #expect(abs(example.value(for: .rotation) - 0.3) < 1e-9)

    var set = Transform3D.identity
    set.setValue(0.6, for: .rotation)
    #expect(near(set, .makeRotation(0.6, 0, 0, 1)))
    #expect(abs(set.value(for: .rotationZ) - 0.6) < 1e-9)
}

@Test func settingRotationOnTheIdentityBuildsThatRotation() {
    var x = Transform3D.identity
    x.setValue(0.4, for: .rotationX)
    #expect(near(x, .makeRotation(0.4, 1, 0, 0)))
    var y = Transform3D.identity
    y.setValue(-0.9, for: .rotationY)
    #expect(near(y, .makeRotation(-0.9, 0, 1, 0)))
    var z = Transform3D.identity
    z.setValue(2.0, for: .rotationZ)
    #expect(near(z, .makeRotation(2.0, 0, 0, 1)))
}

@Test func rotationsAboutSeveralAxesReadBackSeparately() {
    var t = Transform3D.identity
    t.setValue(0.2, for: .rotationX)
    t.setValue(-0.5, for: .rotationY)
    t.setValue(0.7, for: .rotationZ)
    #expect(abs(t.value(for: .rotationX) - 0.2) < 1e-9)
    #expect(abs(t.value(for: .rotationY) + 0.5) < 1e-9)
    #expect(abs(t.value(for: .rotationZ) - 0.7) < 1e-9)
    // The matrix is a real 3D rotation, not the identity.
    #expect(!t.isAffine)
}

// MARK: - Scale

@Test func scaleComponentsAndMean() {
    let t = Transform3D.makeScale(2, 3, 4)
    #expect(abs(t.value(for: .scaleX) - 2) < 1e-9)
    #expect(abs(t.value(for: .scaleY) - 3) < 1e-9)
    #expect(abs(t.value(for: .scaleZ) - 4) < 1e-9)
    #expect(abs(t.value(for: .scale) - 3) < 1e-9)
}

@Test func scaleReadsThroughARotation() {
    let t = Transform3D.makeScale(2, 3, 4).concatenating(.makeRotation(0.5, 0, 0, 1))
    #expect(abs(t.value(for: .scaleX) - 2) < 1e-9)
    #expect(abs(t.value(for: .scaleY) - 3) < 1e-9)
    #expect(abs(t.value(for: .scaleZ) - 4) < 1e-9)
    #expect(abs(t.value(for: .rotationZ) - 0.5) < 1e-9)
}

@Test func settingScaleSetsAllThree() {
    var t = Transform3D.makeScale(2, 3, 4)
    t.setValue(5, for: .scale)
    #expect(near(t, .makeScale(5, 5, 5)))
    #expect(abs(t.value(for: .scaleY) - 5) < 1e-9)
}

@Test func settingOneScaleLeavesTheOtherScales() {
    var t = Transform3D.makeScale(2, 3, 4)
    t.setValue(6, for: .scaleY)
    #expect(near(t, .makeScale(2, 6, 4)))
    t.setValue(0.5, for: .scaleZ)
    #expect(near(t, .makeScale(2, 6, 0.5)))
    t.setValue(-1, for: .scaleX)
    #expect(near(t, .makeScale(-1, 6, 0.5)))
}

@Test func aMirrorKeepsItsMirrorWhenTheRotationChanges() {
    var t = Transform3D.makeScale(-2, 1, 1)
    #expect(abs(t.value(for: .scaleX) + 2) < 1e-9)
    t.setValue(0.3, for: .rotationZ)
    #expect(near(t, Transform3D.makeScale(-2, 1, 1).concatenating(.makeRotation(0.3, 0, 0, 1))))
}

// MARK: - Translation

@Test func translationComponents() {
    let t = Transform3D.makeTranslation(5, 6, 7)
    #expect(t.value(for: .translationX) == 5)
    #expect(t.value(for: .translationY) == 6)
    #expect(t.value(for: .translationZ) == 7)
    #expect(t.translation == Size(width: 5, height: 6))
    #expect(example.translation == Size(width: 5, height: 6))
}

@Test func settingTranslationSizeMovesXAndYOnly() {
    var t = example
    t.translation = Size(width: -1, height: 9)
    #expect(t.m41 == -1 && t.m42 == 9 && t.m43 == 7)
    var expected = example
    expected.m41 = -1
    expected.m42 = 9
    #expect(t == expected)
}

@Test func settingOneTranslationLeavesTheRest() {
    var t = example
    t.setValue(-20, for: .translationZ)
    #expect(near(t, Transform3D.makeScale(2, 2, 2).concatenating(.makeRotation(0.3, 0, 0, 1)).concatenating(.makeTranslation(5, 6, -20))))
    t.setValue(11, for: .translationX)
    #expect(t.m41 == 11 && t.m42 == 6 && t.m43 == -20)
}

// MARK: - Setting one component leaves the others

@Test func settingRotationZLeavesScaleAndTranslation() {
    var t = example
    t.setValue(1.0, for: .rotationZ)
    #expect(abs(t.value(for: .rotationZ) - 1.0) < 1e-9)
    #expect(abs(t.value(for: .scale) - 2) < 1e-9)
    #expect(abs(t.value(for: .scaleX) - 2) < 1e-9)
    #expect(abs(t.value(for: .scaleY) - 2) < 1e-9)
    #expect(abs(t.value(for: .scaleZ) - 2) < 1e-9)
    #expect(t.value(for: .translationX) == 5)
    #expect(t.value(for: .translationY) == 6)
    #expect(t.value(for: .translationZ) == 7)
    let expected = Transform3D.makeScale(2, 2, 2).concatenating(.makeRotation(1.0, 0, 0, 1)).concatenating(.makeTranslation(5, 6, 7))
    #expect(near(t, expected))
}

@Test func settingScaleLeavesRotationAndTranslation() {
    var t = example
    t.setValue(3, for: .scale)
    #expect(abs(t.value(for: .rotationZ) - 0.3) < 1e-9)
    #expect(t.translation == Size(width: 5, height: 6))
    #expect(t.m43 == 7)
    let expected = Transform3D.makeScale(3, 3, 3).concatenating(.makeRotation(0.3, 0, 0, 1)).concatenating(.makeTranslation(5, 6, 7))
    #expect(near(t, expected))
}

@Test func settingRotationXLeavesRotationZ() {
    var t = example
    t.setValue(0.4, for: .rotationX)
    #expect(abs(t.value(for: .rotationX) - 0.4) < 1e-9)
    #expect(abs(t.value(for: .rotationZ) - 0.3) < 1e-9)
    #expect(abs(t.value(for: .rotationY)) < 1e-9)
    #expect(abs(t.value(for: .scale) - 2) < 1e-9)
    #expect(t.m41 == 5 && t.m42 == 6 && t.m43 == 7)
}

@Test func settingRotationKeepsThePerspective() {
    var t = Transform3D.makeRotation(0.2, 0, 0, 1).concatenating(.makePerspective(distance: 500))
    t.setValue(1.1, for: .rotationZ)
    #expect(abs(t.m34 + 1.0 / 500) < 1e-12)
    #expect(near(t, Transform3D.makeRotation(1.1, 0, 0, 1).concatenating(.makePerspective(distance: 500))))
}

// MARK: - String key paths

@Test func stringKeyPathsRead() throws {
    #expect(try abs(#require(example.value(forKeyPath: "rotation.z")) - 0.3) < 1e-9)
    #expect(try abs(#require(example.value(forKeyPath: "rotation")) - 0.3) < 1e-9)
    #expect(try abs(#require(example.value(forKeyPath: "scale")) - 2) < 1e-9)
    #expect(try abs(#require(example.value(forKeyPath: "scale.y")) - 2) < 1e-9)
    #expect(example.value(forKeyPath: "translation.x") == 5)
    #expect(example.value(forKeyPath: "translation.y") == 6)
    #expect(example.value(forKeyPath: "translation.z") == 7)
    #expect(try abs(#require(Transform3D.makeRotation(0.4, 1, 0, 0).value(forKeyPath: "rotation.x")) - 0.4) < 1e-9)
    #expect(try abs(#require(Transform3D.makeRotation(0.4, 0, 1, 0).value(forKeyPath: "rotation.y")) - 0.4) < 1e-9)
}

@Test func everyKeyPathHasItsStringForm() {
    let t = Transform3D.makeScale(2, 3, 4).concatenating(.makeRotation(0.3, 1, 2, 3)).concatenating(.makeTranslation(5, 6, 7))
    #expect(TransformKeyPath.allCases.count == 11)
    for key in TransformKeyPath.allCases {
        #expect(t.value(forKeyPath: key.rawValue) == t.value(for: key), "\(key.rawValue)")
    }
}

@Test(arguments: ["", "rotation.w", "scale.", "transform.rotation.z", "Rotation.Z", "translation", "opacity"])
func unknownStringKeyPathsAreNilAndRefused(key: String) {
    #expect(example.value(forKeyPath: key) == nil)
    var t = example
    let accepted = t.setValue(1, forKeyPath: key)
    #expect(accepted == false)
    #expect(t == example)
}

@Test func stringKeyPathsWrite() {
    var t = example
    let ok1 = t.setValue(1.0, forKeyPath: "rotation.z")
    #expect(ok1)
    #expect(abs(t.value(for: .rotationZ) - 1.0) < 1e-9)
    #expect(abs(t.value(for: .scale) - 2) < 1e-9)
    let ok2 = t.setValue(-4, forKeyPath: "translation.y")
    #expect(ok2)
    #expect(t.m42 == -4 && t.m41 == 5)
    let ok3 = t.setValue(0.5, forKeyPath: "scale")
    #expect(ok3)
    #expect(abs(t.value(for: .scaleZ) - 0.5) < 1e-9)
    let ok4 = t.setValue(0.25, forKeyPath: "rotation")
    #expect(ok4)
    #expect(abs(t.value(for: .rotationZ) - 0.25) < 1e-9)
    let expected = Transform3D.makeScale(0.5, 0.5, 0.5).concatenating(.makeRotation(0.25, 0, 0, 1)).concatenating(.makeTranslation(5, -4, 7))
    #expect(near(t, expected))
}
