import LayerGraphics
import LayerKit
import Testing

/// A host keeps making frames while the tree changes over time: a running animation, or a layer that draws
/// differently as time passes with no animation (particles, a drawable rendering every snapshot).
@Suite("Changes over time")
struct ChangesOverTimeTests {
    @Test func aStillTreeDoesNotChange() {
        let root = Layer(), child = Layer()
        root.addSublayer(child)
        #expect(!root.changesOverTime(at: 0))
    }

    @Test func aRunningAnimationChangesTheTreeUntilItEnds() {
        let root = Layer(), child = Layer()
        root.addSublayer(child)
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
        child.add(a, forKey: "fade")
        #expect(root.changesOverTime(at: 0.5))
        #expect(!root.changesOverTime(at: 2))
    }

    @Test func anEmitterWithCellsChangesWithoutAnimations() {
        let root = Layer(), emitter = EmitterLayer()
        root.addSublayer(emitter)
        #expect(!root.changesOverTime(at: 0), "no cells, no particles")
        emitter.emitterCells = [EmitterCell()]
        #expect(root.changesOverTime(at: 0))
        #expect(root.changesOverTime(at: 1000))
    }

    @Test func aDrawableChangesWhenItRendersEverySnapshot() {
        let root = Layer(), drawable = DrawableLayer()
        root.mask = drawable // masks count too
        drawable.render = { _, _ in true }
        #expect(!root.changesOverTime(at: 0), "pulled only on setNeedsDisplay")
        drawable.isAsynchronous = true
        #expect(root.changesOverTime(at: 0))
    }
}
