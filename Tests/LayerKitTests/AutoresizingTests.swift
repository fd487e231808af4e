import LayerGraphics
import LayerKit
import Testing

// autoresizingMask: a superlayer growing from 100×100 to 160×130 (60 more wide, 30 more high) moves and resizes a
// sublayer framed at (10, 20, 30, 40), sharing each axis's change evenly among its flexible parts.

struct AutoresizingCase: Sendable, CustomTestStringConvertible {
    let mask: AutoresizingMask
    let frame: Rect
    let testDescription: String
    init(_ name: String, _ mask: AutoresizingMask, _ frame: Rect) { self.mask = mask; self.frame = frame; testDescription = name }
}

let autoresizingCases: [AutoresizingCase] = [
    AutoresizingCase("not sizable", .layerNotSizable, Rect(x: 10, y: 20, width: 30, height: 40)),
    AutoresizingCase("min x margin", .layerMinXMargin, Rect(x: 70, y: 20, width: 30, height: 40)),
    AutoresizingCase("width sizable", .layerWidthSizable, Rect(x: 10, y: 20, width: 90, height: 40)),
    AutoresizingCase("max x margin", .layerMaxXMargin, Rect(x: 10, y: 20, width: 30, height: 40)),
    AutoresizingCase("min y margin", .layerMinYMargin, Rect(x: 10, y: 50, width: 30, height: 40)),
    AutoresizingCase("height sizable", .layerHeightSizable, Rect(x: 10, y: 20, width: 30, height: 70)),
    AutoresizingCase("max y margin", .layerMaxYMargin, Rect(x: 10, y: 20, width: 30, height: 40)),
    AutoresizingCase("min x margin and width", [.layerMinXMargin, .layerWidthSizable], Rect(x: 40, y: 20, width: 60, height: 40)),
    AutoresizingCase("both x margins", [.layerMinXMargin, .layerMaxXMargin], Rect(x: 40, y: 20, width: 30, height: 40)),
    AutoresizingCase("width and max x margin", [.layerWidthSizable, .layerMaxXMargin], Rect(x: 10, y: 20, width: 60, height: 40)),
    AutoresizingCase("all of x", [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin], Rect(x: 30, y: 20, width: 50, height: 40)),
    AutoresizingCase("both y margins", [.layerMinYMargin, .layerMaxYMargin], Rect(x: 10, y: 35, width: 30, height: 40)),
    AutoresizingCase("min y margin and height", [.layerMinYMargin, .layerHeightSizable], Rect(x: 10, y: 35, width: 30, height: 55)),
    AutoresizingCase("width and height", [.layerWidthSizable, .layerHeightSizable], Rect(x: 10, y: 20, width: 90, height: 70)),
    AutoresizingCase("everything", [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin, .layerMinYMargin, .layerHeightSizable, .layerMaxYMargin],
         Rect(x: 30, y: 30, width: 50, height: 50)),
]

private func grownParent(_ mask: AutoresizingMask) -> (parent: Layer, child: Layer) {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 10, y: 20, width: 30, height: 40), name: "child")
    child.autoresizingMask = mask
    parent.bounds.size = Size(width: 160, height: 130)
    return (parent, child)
}

@Test(arguments: autoresizingCases)
func autoresizingSharesTheChange(_ c: AutoresizingCase) {
    let (_, child) = grownParent(c.mask)
    #expect(isNear(child.frame, c.frame), "\(c.testDescription): \(child.frame)")
}

@Test func theDefaultMaskIsNotSizable() {
    #expect(Layer().autoresizingMask == .layerNotSizable)
    #expect(AutoresizingMask.layerNotSizable.isEmpty)
}

@Test func shrinkingGivesBackWhatGrowingGave() {
    let (parent, child) = grownParent([.layerMinXMargin, .layerWidthSizable, .layerHeightSizable])
    parent.bounds.size = Size(width: 100, height: 100)
    #expect(isNear(child.frame, Rect(x: 10, y: 20, width: 30, height: 40)))
}

@Test func aSizeNeverGoesBelowZero() {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 10, y: 20, width: 30, height: 40), name: "child")
    child.autoresizingMask = .layerWidthSizable
    parent.bounds.size = Size(width: 40, height: 100)
    #expect(child.frame.width == 0)
}

@Test func movingTheBoundsOriginResizesNothing() {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 10, y: 20, width: 30, height: 40), name: "child")
    child.autoresizingMask = [.layerWidthSizable, .layerMinXMargin]
    parent.bounds.origin = Point(x: 50, y: 50)
    #expect(child.frame == Rect(x: 10, y: 20, width: 30, height: 40))
}

@Test func settingTheFrameResizesToo() {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 10, y: 20, width: 30, height: 40), name: "child")
    child.autoresizingMask = .layerWidthSizable
    parent.frame = Rect(x: 0, y: 0, width: 120, height: 100)
    #expect(isNear(child.frame, Rect(x: 10, y: 20, width: 50, height: 40)))
}

@Test func resizingPassesDownTheTree() {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "child")
    child.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
    let grandchild = sublayer(of: child, frame: Rect(x: 10, y: 10, width: 20, height: 20), name: "grandchild")
    grandchild.autoresizingMask = [.layerMinXMargin, .layerMinYMargin]
    parent.bounds.size = Size(width: 150, height: 120)
    #expect(isNear(child.frame, Rect(x: 0, y: 0, width: 150, height: 120)))
    #expect(isNear(grandchild.frame, Rect(x: 60, y: 30, width: 20, height: 20)))
}

@Test func aTurnedSublayerKeepsItsTurn() {
    let parent = rootLayer(100, 100, name: "parent")
    let child = sublayer(of: parent, frame: Rect(x: 10, y: 20, width: 30, height: 40), name: "child",
                         transform: .makeRotation(0.4, 0, 0, 1))
    child.autoresizingMask = .layerMinXMargin
    let before = child.frame
    parent.bounds.size = Size(width: 160, height: 100)
    #expect(isNear(child.frame, before.offsetBy(dx: 60, dy: 0), 1e-9))
    #expect(child.transform == .makeRotation(0.4, 0, 0, 1))
}

/// Records the calls autoresizing makes.
private final class RecordingLayer: Layer {
    var resizedSublayersFrom: [Size] = []
    var resizedFrom: [Size] = []
    override func resizeSublayers(withOldSize oldSize: Size) {
        resizedSublayersFrom.append(oldSize)
        super.resizeSublayers(withOldSize: oldSize)
    }
    override func resize(withOldSuperlayerSize oldSize: Size) {
        resizedFrom.append(oldSize)
        super.resize(withOldSuperlayerSize: oldSize)
    }
}

@Test func aSizeChangeCallsResizeSublayersThenResizeOnEachSublayer() {
    let parent = RecordingLayer()
    parent.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    let a = RecordingLayer(), b = RecordingLayer()
    parent.addSublayer(a)
    parent.addSublayer(b)
    parent.bounds.size = Size(width: 120, height: 100)
    parent.bounds.origin = Point(x: 5, y: 5)
    #expect(parent.resizedSublayersFrom == [Size(width: 0, height: 0), Size(width: 100, height: 100)])
    #expect(a.resizedFrom == [Size(width: 100, height: 100)])
    #expect(b.resizedFrom == [Size(width: 100, height: 100)])
}
