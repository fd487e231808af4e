import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §4: "a replicator of 100 instances of a video layer costs no more than 100 layers written out",
// tinted or not. A tinted instance's contents are multiplied in the sampling (no group pass), so it draws what a
// group of one would, pixel for pixel, at the cost of an untinted one.

@Suite("ReplicatorLayer: tinted instances")
struct ReplicatorTintCostTests {
    /// A 64×48 yuv420p frame: a luma ramp across, chroma varying down.
    static let frame = PixelBuffer(format: .yuv420p, width: 64, height: 48) { plane, base, bytesPerRow in
        let (w, h) = plane == 0 ? (64, 48) : (32, 24)
        for y in 0..<h {
            for x in 0..<w {
                base.storeBytes(of: UInt8(plane == 0 ? 16 + x * 3 : 64 + y * 4 + plane * 20), toByteOffset: y * bytesPerRow + x, as: UInt8.self)
            }
        }
    }

    /// 100 instances of `contents` 1.5 points apart, each tinted by `color` faded by 0.005 green per instance:
    /// as one replicator, or written out as 100 one-instance replicators with each instance's colour.
    static func scenes(_ contents: LayerContents, color: Color?) -> (replicated: Layer, writtenOut: Layer) {
        let replicatedRoot = canvas(256, 256)
        let replicator = ReplicatorLayer()
        replicator.frame = replicatedRoot.bounds
        replicator.instanceCount = 100
        replicator.instanceTransform = .makeTranslation(1.5, 1.5, 0)
        replicator.instanceColor = color
        if color != nil { replicator.instanceGreenOffset = -0.005 }
        let original = makeLayer(Rect(x: 10, y: 10, width: 64, height: 48))
        original.contents = contents
        replicator.addSublayer(original)
        replicatedRoot.addSublayer(replicator)

        let writtenRoot = canvas(256, 256)
        for k in 0..<100 {
            let copy = makeLayer(Rect(x: 10 + 1.5 * Double(k), y: 10 + 1.5 * Double(k), width: 64, height: 48))
            copy.contents = contents
            if let color {
                let one = ReplicatorLayer()
                one.frame = writtenRoot.bounds
                one.instanceColor = Color(red: color.red, green: max(0, color.green - 0.005 * Double(k)), blue: color.blue, alpha: color.alpha)
                one.addSublayer(copy)
                writtenRoot.addSublayer(one)
            } else {
                writtenRoot.addSublayer(copy)
            }
        }
        return (replicatedRoot, writtenRoot)
    }

    @Test func aTintedInstanceIsItsContentsTimesTheColour() throws {
        for contents in [LayerContents.pixelBuffer(Self.frame), .image(testImage(width: 64, height: 48))] {
            let plainRoot = canvas(96, 80, background: nil), tintedRoot = canvas(96, 80, background: nil)
            for (root, color) in [(plainRoot, Color?.none), (tintedRoot, Color(red: 0.5, green: 0.8, blue: 1, alpha: 0.75))] {
                let r = ReplicatorLayer()
                r.frame = root.bounds
                r.instanceColor = color
                let l = makeLayer(Rect(x: 10, y: 10, width: 64, height: 48))
                l.contents = contents
                r.addSublayer(l)
                root.addSublayer(r)
            }
            let plain = render(plainRoot), tinted = render(tintedRoot)
            var worst = 0
            for y in stride(from: 0, to: 80, by: 3) {
                for x in stride(from: 0, to: 96, by: 3) {
                    let p = plain.pixel(x: x, y: y), t = tinted.pixel(x: x, y: y)
                    // Premultiplied × (r·a, g·a, b·a, a).
                    let want = [Double(p.r) * 0.375, Double(p.g) * 0.6, Double(p.b) * 0.75, Double(p.a) * 0.75]
                    let got = [Double(t.r), Double(t.g), Double(t.b), Double(t.a)]
                    worst = max(worst, zip(want, got).map { Int(abs($0 - $1).rounded(.up)) }.max()!)
                }
            }
            #expect(worst <= 1, "tinted = plain × colour, within rounding (worst \(worst))")
        }
    }

    @Test func aHundredTintedVideoInstancesCostWhatAHundredWrittenOutDo() {
        func seconds(_ root: Layer) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = sharedCompositor.render(root.snapshot(), width: 256, height: 256)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        // Opaque tints keep the instances opaque (each hides the ones beneath, as untinted ones do); a translucent
        // one makes every instance show, so both scenes draw all of them (the cost of overdraw, not of the tint).
        for (name, color) in [("untinted", Color?.none), ("tinted", Color(red: 1, green: 0.9, blue: 0.6)),
                              ("tinted translucent", Color(red: 1, green: 0.9, blue: 0.6, alpha: 0.9))] {
            let (replicated, writtenOut) = Self.scenes(.pixelBuffer(Self.frame), color: color)
            let a = render(replicated), b = render(writtenOut)
            var differing = 0
            for y in 0..<256 { for x in 0..<256 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "\(name): the same pixels either way (\(differing) differ)")
            var r: [Double] = [], w: [Double] = []
            for _ in 0..<10 { r.append(seconds(replicated)); w.append(seconds(writtenOut)) }
            // A figure for the lead's note, not an assertion: timings never gate tests.
            print("video replicator, \(name), 100 instances: \(r.min()! * 1e3) ms; written out: \(w.min()! * 1e3) ms; ratio \(r.min()! / w.min()!)")
        }
    }
}
