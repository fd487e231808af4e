import LayerGraphics
import LayerKit
import Testing

private func named(_ name: String) -> Layer {
    let layer = Layer()
    layer.name = name
    return layer
}

private func names(_ layer: Layer) -> [String] {
    (layer.sublayers ?? []).map { $0.name ?? "?" }
}

/// A parent with sublayers a, b, c.
private func abc() -> (parent: Layer, a: Layer, b: Layer, c: Layer) {
    let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
    parent.addSublayer(a)
    parent.addSublayer(b)
    parent.addSublayer(c)
    return (parent, a, b, c)
}

// MARK: - Adding

@Test func aNewLayerHasNoSublayersAndNoSuperlayer() {
    let layer = Layer()
    #expect(layer.sublayers == nil)
    #expect(layer.superlayer == nil)
    #expect(layer.mask == nil)
}

@Test func identifiersAreUnique() {
    let layers = (0..<50).map { _ in Layer() }
    #expect(Set(layers.map(\.identifier)).count == 50)
}

@Test func addSublayerAppends() {
    let (parent, a, b, c) = abc()
    #expect(names(parent) == ["a", "b", "c"])
    #expect(a.superlayer === parent && b.superlayer === parent && c.superlayer === parent)
    #expect(parent.superlayer == nil)
}

@Test func addSublayerOfAnExistingSublayerMovesItToTheEnd() {
    let (parent, a, _, _) = abc()
    parent.addSublayer(a)
    #expect(names(parent) == ["b", "c", "a"])
    #expect(a.superlayer === parent)
}

@Test func insertSublayerAtIndex() {
    let (parent, _, _, _) = abc()
    parent.insertSublayer(named("x"), at: 0)
    #expect(names(parent) == ["x", "a", "b", "c"])
    parent.insertSublayer(named("y"), at: 2)
    #expect(names(parent) == ["x", "a", "y", "b", "c"])
    parent.insertSublayer(named("z"), at: 5)
    #expect(names(parent) == ["x", "a", "y", "b", "c", "z"])
}

@Test func insertSublayerAtIndexClamps() {
    let (parent, _, _, _) = abc()
    let low = named("low"), high = named("high")
    parent.insertSublayer(low, at: -5)
    parent.insertSublayer(high, at: 100)
    #expect(names(parent) == ["low", "a", "b", "c", "high"])
    #expect(low.superlayer === parent && high.superlayer === parent)
    let empty = Layer()
    empty.insertSublayer(named("only"), at: 7)
    #expect(names(empty) == ["only"])
}

@Test func insertSublayerAtIndexTakesTheLayerFromItsOldParent() {
    let (parent, _, b, _) = abc()
    let other = Layer()
    other.insertSublayer(b, at: 0)
    #expect(names(parent) == ["a", "c"])
    #expect(names(other) == ["b"])
    #expect(b.superlayer === other)
}

@Test func insertSublayerAbove() {
    let (parent, a, b, c) = abc()
    parent.insertSublayer(named("x"), above: a)
    #expect(names(parent) == ["a", "x", "b", "c"])
    parent.insertSublayer(named("y"), above: c)
    #expect(names(parent) == ["a", "x", "b", "c", "y"])
    // Nil or a stranger: at the end.
    parent.insertSublayer(named("n"), above: nil)
    parent.insertSublayer(named("s"), above: Layer())
    #expect(names(parent) == ["a", "x", "b", "c", "y", "n", "s"])
    _ = b
}

@Test func insertSublayerAboveReordersASibling() {
    let (parent, a, b, c) = abc()
    parent.insertSublayer(a, above: b)
    #expect(names(parent) == ["b", "a", "c"])
    parent.insertSublayer(c, above: b)
    #expect(names(parent) == ["b", "c", "a"])
    parent.insertSublayer(b, above: a)
    #expect(names(parent) == ["c", "a", "b"])
    #expect(a.superlayer === parent && b.superlayer === parent && c.superlayer === parent)
}

@Test func insertSublayerBelow() {
    let (parent, a, _, c) = abc()
    parent.insertSublayer(named("x"), below: a)
    #expect(names(parent) == ["x", "a", "b", "c"])
    parent.insertSublayer(named("y"), below: c)
    #expect(names(parent) == ["x", "a", "b", "y", "c"])
    // Nil or a stranger: at the start.
    parent.insertSublayer(named("n"), below: nil)
    parent.insertSublayer(named("s"), below: Layer())
    #expect(names(parent) == ["s", "n", "x", "a", "b", "y", "c"])
}

@Test func insertSublayerBelowReordersASibling() {
    let (parent, a, b, c) = abc()
    parent.insertSublayer(c, below: b)
    #expect(names(parent) == ["a", "c", "b"])
    parent.insertSublayer(a, below: b)
    #expect(names(parent) == ["c", "a", "b"])
    parent.insertSublayer(b, below: c)
    #expect(names(parent) == ["b", "c", "a"])
}

// MARK: - Removing and replacing

@Test func removeFromSuperlayer() {
    let (parent, a, b, c) = abc()
    b.removeFromSuperlayer()
    #expect(b.superlayer == nil)
    #expect(names(parent) == ["a", "c"])
    a.removeFromSuperlayer()
    c.removeFromSuperlayer()
    #expect(parent.sublayers == nil)
    // Removing a root does nothing.
    parent.removeFromSuperlayer()
    #expect(parent.superlayer == nil)
}

@Test func replaceSublayer() {
    let (parent, a, b, c) = abc()
    let x = named("x")
    parent.replaceSublayer(b, with: x)
    #expect(names(parent) == ["a", "x", "c"])
    #expect(b.superlayer == nil)
    #expect(x.superlayer === parent)
    _ = (a, c)
}

@Test func replaceSublayerTakesTheNewLayerFromItsOldParent() {
    let (parent, a, _, _) = abc()
    let other = Layer(), x = named("x")
    other.addSublayer(x)
    parent.replaceSublayer(a, with: x)
    #expect(names(parent) == ["x", "b", "c"])
    #expect(other.sublayers == nil)
    #expect(x.superlayer === parent)
    #expect(a.superlayer == nil)
}

@Test func replaceSublayerWithASibling() {
    let (parent, a, b, c) = abc()
    parent.replaceSublayer(a, with: c)
    #expect(names(parent) == ["c", "b"])
    #expect(a.superlayer == nil && c.superlayer === parent)
    let (parent2, _, b2, c2) = abc()
    parent2.replaceSublayer(c2, with: b2)
    #expect(names(parent2) == ["a", "b"])
    _ = b
}

@Test func replaceSublayerThatIsNotASublayerDoesNothing() {
    let (parent, _, _, _) = abc()
    let stranger = named("stranger"), x = named("x")
    parent.replaceSublayer(stranger, with: x)
    #expect(names(parent) == ["a", "b", "c"])
    #expect(x.superlayer == nil)
}

// MARK: - The sublayers setter

@Test func settingSublayersReplacesThemAll() {
    let (parent, a, b, c) = abc()
    let x = named("x"), y = named("y")
    parent.sublayers = [x, y]
    #expect(names(parent) == ["x", "y"])
    #expect(a.superlayer == nil && b.superlayer == nil && c.superlayer == nil)
    #expect(x.superlayer === parent && y.superlayer === parent)
}

@Test func settingSublayersCanKeepAndReorderOldOnes() {
    let (parent, a, b, c) = abc()
    parent.sublayers = [c, a]
    #expect(names(parent) == ["c", "a"])
    #expect(c.superlayer === parent && a.superlayer === parent)
    #expect(b.superlayer == nil)
}

@Test func settingSublayersToNilRemovesThemAll() {
    let (parent, a, _, _) = abc()
    parent.sublayers = nil
    #expect(parent.sublayers == nil)
    #expect(a.superlayer == nil)
    parent.sublayers = []
    #expect(parent.sublayers == nil)
}

@Test func settingSublayersTakesLayersFromTheirOldParent() {
    let (first, a, _, _) = abc()
    let second = Layer()
    second.sublayers = [a]
    #expect(a.superlayer === second)
    #expect(names(first) == ["b", "c"])
    #expect(names(second) == ["a"])
}

@Test func aLayerAddedToASecondParentLeavesTheFirst() {
    let first = Layer(), second = Layer(), child = named("child")
    first.addSublayer(child)
    second.addSublayer(child)
    #expect(first.sublayers == nil)
    #expect(names(second) == ["child"])
    #expect(child.superlayer === second)
}

// MARK: - Masks

@Test func settingAMaskRemovesItFromItsSuperlayer() {
    let (parent, _, b, _) = abc()
    let masked = Layer()
    masked.mask = b
    #expect(masked.mask === b)
    #expect(b.superlayer == nil)
    #expect(names(parent) == ["a", "c"])
}

@Test func aMaskAddedAsASublayerStopsBeingAMask() {
    let masked = Layer(), mask = named("mask"), parent = Layer()
    masked.mask = mask
    parent.addSublayer(mask)
    #expect(masked.mask == nil)
    #expect(mask.superlayer === parent)
}

@Test func aMaskMovesToItsNewOwner() {
    let first = Layer(), second = Layer(), mask = Layer()
    first.mask = mask
    second.mask = mask
    #expect(first.mask == nil)
    #expect(second.mask === mask)
}

@Test func clearingAMaskFreesTheLayer() {
    let owner = Layer(), mask = Layer(), parent = Layer()
    owner.mask = mask
    owner.mask = nil
    parent.addSublayer(mask)
    #expect(owner.mask == nil)
    #expect(mask.superlayer === parent)
    // A second owner is not disturbed by the first one's old mask.
    let other = Layer()
    other.mask = Layer()
    let keep = other.mask
    owner.mask = mask
    #expect(other.mask === keep)
    #expect(owner.mask === mask)
    #expect(mask.superlayer == nil)
}

@Test func theMaskAppearsInTheSnapshot() throws {
    let owner = Layer(), mask = named("mask")
    owner.mask = mask
    let snapshot = owner.snapshot()
    let m = try #require(snapshot.mask)
    #expect(m.name == "mask")
    #expect(m.layerID == mask.identifier)
    #expect(snapshot.sublayers.isEmpty)
}

// MARK: - Snapshots

@Test func aSnapshotKeepsTheValuesOfItsTime() {
    let (parent, a, _, _) = abc()
    parent.position = Point(x: 10, y: 20)
    parent.bounds = Rect(x: 0, y: 0, width: 50, height: 60)
    parent.backgroundColor = .red
    parent.opacity = 0.5
    a.transform = .makeRotation(0.3, 0, 0, 1)
    let snapshot = parent.snapshot()

    // Without actions: the changes show at once in the next snapshot (with them, they would animate).
    Transaction.begin()
    Transaction.disableActions = true
    defer { Transaction.commit() }
    parent.position = Point(x: 99, y: 99)
    parent.bounds = Rect(x: 1, y: 2, width: 3, height: 4)
    parent.backgroundColor = .blue
    parent.opacity = 1
    parent.name = "renamed"
    a.transform = .identity
    a.name = "changed"
    parent.addSublayer(named("late"))
    parent.sublayers?.first?.removeFromSuperlayer()

    #expect(snapshot.layerID == parent.identifier)
    #expect(snapshot.name == "parent")
    #expect(snapshot.position == Point(x: 10, y: 20))
    #expect(snapshot.bounds == Rect(x: 0, y: 0, width: 50, height: 60))
    #expect(snapshot.backgroundColor == .red)
    #expect(snapshot.opacity == 0.5)
    #expect(snapshot.sublayers.map { $0.name ?? "?" } == ["a", "b", "c"])
    #expect(snapshot.sublayers[0].transform == .makeRotation(0.3, 0, 0, 1))
    #expect(snapshot.sublayers[0].layerID == a.identifier)

    // A new snapshot sees the new values.
    let later = parent.snapshot()
    #expect(later.position == Point(x: 99, y: 99))
    #expect(later.sublayers.map { $0.name ?? "?" } == ["b", "c", "late"])
}

@Test func aSnapshotCopiesTheVisualProperties() {
    let layer = Layer()
    layer.cornerRadius = 8
    layer.borderWidth = 2
    layer.borderColor = .green
    layer.shadowOpacity = 0.7
    layer.shadowOffset = Size(width: 1, height: 2)
    layer.shadowRadius = 5
    layer.masksToBounds = true
    layer.isHidden = true
    layer.isDoubleSided = false
    layer.zPosition = 4
    layer.anchorPointZ = -3
    layer.contentsGravity = .topLeft
    layer.maskedCorners = [.layerMinXMinYCorner]
    let s = layer.snapshot()
    #expect(s.cornerRadius == 8 && s.borderWidth == 2 && s.borderColor == .green)
    #expect(s.shadowOpacity == 0.7 && s.shadowOffset == Size(width: 1, height: 2) && s.shadowRadius == 5)
    #expect(s.masksToBounds && s.isHidden && !s.isDoubleSided)
    #expect(s.zPosition == 4 && s.anchorPointZ == -3)
    #expect(s.contentsGravity == .topLeft)
    #expect(s.maskedCorners == [.layerMinXMinYCorner])
    #expect(!s.preserves3D)
}
