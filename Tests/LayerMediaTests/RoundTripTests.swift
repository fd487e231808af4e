import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

/// Frame `i` of a smooth moving gradient (a sinusoid drifting right), or of colour bars over it.
func gradientFrame(_ i: Int, width: Int, height: Int, bars: Bool = false) -> Surface {
    let s = Surface(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let phase = 2 * Double.pi * (Double(x) - 3 * Double(i)) / Double(width)
            let v = Double(y) / Double(height)
            var c = Color(red: 0.5 + 0.3 * sin(phase), green: 0.25 + 0.5 * v, blue: 0.5 + 0.3 * cos(phase))
            if bars {
                let palette: [Color] = [.white, Color(red: 0.75, green: 0.75, blue: 0), Color(red: 0, green: 0.75, blue: 0.75),
                                        Color(red: 0, green: 0.75, blue: 0), Color(red: 0.75, green: 0, blue: 0.75), Color(red: 0.75, green: 0, blue: 0)]
                if y < height / 2 { c = palette[x * palette.count / width] }
            }
            s.setPixel(x: x, y: y, c.premultiplied)
        }
    }
    return s
}

@Suite("Round trips")
struct RoundTripTests {
    @Test(arguments: [("mp4", "libx264"), ("webm", "libvpx-vp9"), ("mkv", "libx264")])
    func encodedFramesDecodeBackExactlyInCountAndTime(_ container: String, _ codec: String) throws {
        for bars in [false, true] { try roundTrip(container, codec, bars: bars) }
    }

    func roundTrip(_ container: String, _ codec: String, bars: Bool) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("gradient.\(container)").path
            let writer = try MovieWriter(finalPath: path, temporaryPath: path, width: 192, height: 108,
                                         settings: EncoderSettings(codec: codec, crf: 12, frameRate: (30, 1)))
            let frames = 24
            for i in 0..<frames { try writer.append(gradientFrame(i, width: 192, height: 108, bars: bars)) }
            try writer.finish()
            let source = try VideoFrameSource(path: path)
            var worst = Double.infinity
            for i in 0..<frames {
                let frame = try #require(try source.frame(at: Double(i) / 30 + 1e-4))
                // Exact in MP4 and WebM's own time bases; Matroska stores milliseconds.
                #expect(Int((frame.time.seconds * 30).rounded()) == i && abs(frame.time.seconds - Double(i) / 30) < 0.001,
                        "frame \(i) at \(frame.time)")
                let decoded = picture(frame.pixelBuffer), original = gradientFrame(i, width: 192, height: 108, bars: bars)
                // Colour bars have sharp colour edges that 4:2:0 cannot keep: judge them by luma, and colour loosely.
                if bars {
                    let p = componentPSNR(decoded, original)
                    worst = min(worst, p.luma)
                    #expect(p.chroma >= 30 && abs(p.meanChromaShift) < 1, "\(codec) bars frame \(i): \(p)")
                } else {
                    worst = min(worst, psnr(decoded, original))
                }
            }
            let last = try #require(try source.frame(at: 10))
            #expect(abs(last.time.seconds - Double(frames - 1) / 30) < 0.001, "no frame past the last")
            #expect(worst >= 40, "\(codec)\(bars ? " bars (luma)" : ""): worst PSNR \(worst) dB")
        }
    }

    /// A Matroska reader without the stream's rate estimates one from millisecond timestamps (29.83 or 30.30 fps);
    /// NUT's readers infer one from the timestamps, but ffmpeg goes by the stream's `r_frame_rate` (it read a NUT
    /// of ours as 61440 fps and duplicated every frame thousands of times).
    @Test(arguments: [("mkv", "libx264"), ("mkv", "ffv1"), ("nut", "rawvideo")])
    func theStreamSaysItsFrameRate(_ container: String, _ codec: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("rate.\(container)").path
            let writer = try MovieWriter(finalPath: path, temporaryPath: path, width: 64, height: 36,
                                         settings: EncoderSettings(codec: codec, frameRate: (30000, 1001)))
            for i in 0..<4 { try writer.append(gradientFrame(i, width: 64, height: 36)) }
            try writer.finish()
            let video = try #require(try MediaAsset(path: path).video)
            #expect(video.frameRateNumerator == 30000 && video.frameRateDenominator == 1001, "\(container)/\(codec): \(video.frameRate) fps")
        }
    }

    @Test func framesConvertedOnlyWhereTheyChangedDecodeAsFramesConvertedWhole() throws {
        // The exporter's way: two surfaces in turn, each drawn over what it last showed, appended with what it shows,
        // so the writer converts only what either frame drew on. Lossless, the decoded planes must be those of the
        // same frames converted whole. On the way the canvas changes colour and, for two frames, is transparent
        // (no backdrop: the next frame must be converted whole again).
        let (w, h) = (96, 64)
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        root.position = Point(x: Double(w) / 2, y: Double(h) / 2)
        let card = Layer()
        card.bounds = Rect(x: 0, y: 0, width: 30, height: 20)
        card.backgroundColor = .red
        card.cornerRadius = 6
        card.shadowOpacity = 0.6
        root.addSublayer(card)
        func surfaces() -> [(Surface, Backdrop?)] {
            let compositor = Compositor()
            let pool = [Surface(width: w, height: h), Surface(width: w, height: h)]
            var shows: [Backdrop?] = [nil, nil]
            var out: [(Surface, Backdrop?)] = []
            for i in 0..<12 {
                Transaction.withoutActions { // each frame shows its values at once (no implicit animation)
                    card.position = Point(x: 25 + Double(5 * i), y: 20 + Double(3 * i % 7))
                    card.transform = .makeRotation(Double(i) * 0.3, 0, 0, 1)
                    root.backgroundColor = i == 6 || i == 7 ? nil : i > 8 ? Color(red: 0.1, green: 0.2, blue: 0.3) : .white
                }
                shows[i % 2] = compositor.render(root.snapshot(), into: pool[i % 2], over: shows[i % 2])
                let copy = Surface(width: w, height: h)
                copy.pixels.update(from: pool[i % 2].pixels, count: w * h)
                out.append((copy, shows[i % 2]))
            }
            return out
        }
        let frames = surfaces()
        #expect(frames.filter { $0.1 != nil }.count == 10)
        try withTemporaryDirectory { dir in
            var planes: [[[UInt8]]] = []
            for (name, useBackdrops) in [("whole.nut", false), ("changed.nut", true)] {
                let path = dir.appendingPathComponent(name).path
                let writer = try MovieWriter(finalPath: path, temporaryPath: path, width: w, height: h,
                                             settings: EncoderSettings(codec: "rawvideo", frameRate: (30, 1)))
                for (surface, backdrop) in frames { try writer.append(surface, backdrop: useBackdrops ? backdrop : nil) }
                try writer.finish()
                let source = try VideoFrameSource(path: path)
                var decoded: [[UInt8]] = []
                for i in 0..<frames.count {
                    let buffer = try #require(try source.frame(at: Double(i) / 30 + 1e-4)).pixelBuffer
                    decoded.append(buffer.planes.flatMap { p in
                        (0..<p.height).flatMap { y in (0..<p.width).map { p.base.load(fromByteOffset: y * p.bytesPerRow + $0, as: UInt8.self) } }
                    })
                }
                planes.append(decoded)
            }
            let differing = (0..<frames.count).filter { planes[0][$0] != planes[1][$0] }
            #expect(differing.isEmpty, "frames \(differing) differ")
        }
    }

    @Test func fullAndLimitedRangeInDifferentMatricesShowTheSameColour() {
        let colours: [Color] = [Color(red: 0.8, green: 0.3, blue: 0.1), Color(red: 0.1, green: 0.6, blue: 0.9), Color(white: 0.5)]
        for c in colours {
            let image = Image(width: 8, height: 8, color: c)
            let bt709full = PixelBuffer(converting: image, to: .yuv420p, matrix: .bt709, range: .full)
            let bt601limited = PixelBuffer(converting: image, to: .yuv420p, matrix: .bt601, range: .limited)
            let a = picture(bt709full).pixel(x: 4, y: 4), b = picture(bt601limited).pixel(x: 4, y: 4)
            for (p, q) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] { #expect(abs(Int(p) - Int(q)) <= 2, "\(c): \(a) vs \(b)") }
            let expected = c.premultiplied
            #expect(abs(Int(a.r) - Int(expected.r)) <= 2 && abs(Int(a.g) - Int(expected.g)) <= 2 && abs(Int(a.b) - Int(expected.b)) <= 2)
        }
    }
}
