import LayerGraphics
import LayerKit
import Testing

// A cumulative transform animation repeats its delta by matrix powers: the iteration at time 1e300 is 1e300,
// which `Int(_:)` trapped on, and at 1e9 a loop of a billion products never finished (issue 15).

private func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    let ea = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
    let eb = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
    return zip(ea, eb).allSatisfy { abs($0 - $1) <= tolerance }
}

/// A layer turning a quarter about z each second, cumulatively, forever.
private func turningLayer(delta: Transform3D = .makeRotation(.pi / 2, 0, 0, 1)) -> Layer {
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    let turn = BasicAnimation(keyPath: "transform")
    turn.fromValue = Transform3D.identity
    turn.toValue = delta
    turn.duration = 1
    turn.repeatCount = .infinity
    turn.isCumulative = true
    layer.add(turn, forKey: "turn")
    return layer
}

@Test func aCumulativeTransformRepeatsItsDeltaOncePerIteration() {
    // Iteration 5 at its start: five quarter turns, a quarter from the identity.
    let quarter = Transform3D.makeRotation(.pi / 2, 0, 0, 1)
    #expect(near(turningLayer().snapshot(at: 5).transform, quarter))
    #expect(near(turningLayer().snapshot(at: 6).transform, .makeRotation(.pi, 0, 0, 1)))
    // A translation stacks: eleven steps of 2 at time 11.
    #expect(near(turningLayer(delta: .makeTranslation(2, 0, 0)).snapshot(at: 11).transform, .makeTranslation(22, 0, 0)))
}

@Test(arguments: [1e9, 1e15, 1e300, .greatestFiniteMagnitude])
func aCumulativeTransformFarAheadNeitherTrapsNorHangs(_ time: Double) {
    _ = turningLayer().snapshot(at: time)
    _ = turningLayer(delta: .makeScale(2, 2, 1)).snapshot(at: time)
}
