import Foundation
import LayerGraphics
import Testing
import TestSupport

// The card that `layerplay INPUT [effect flags]` draws, held to pictures recorded from the command line before the
// card became the built-in scene `builtin:card` (SCENES.md §5). Whatever builds the card's tree, these must not move.

/// One run of the card: its input, its flags, and the reference it is held to.
struct CardGoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let flags: [String]
    var testDescription: String { name }
}

@Suite("layerplay card goldens")
struct CardGoldenTests {
    /// Same decoder, same compositor, same tree: the pictures agree but for rounding on a few edge pixels (a spin
    /// through a value function and through `transform.rotation.y` may differ in the last bits of the matrix).
    static let tolerance = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 4)

    static let video = mediaSample("clip.mp4")
    static let still = mediaSample("card.png")
    /// The video is 320×180; every case but the size ones draws on a 160×90 canvas at 0.5 s.
    static let small = ["--size", "160x90", "--at", "0.5"]

    static let cases: [CardGoldenCase] = [
        CardGoldenCase(name: "plain", input: video, flags: small),
        CardGoldenCase(name: "rotate-bare", input: video, flags: small + ["--rotate"]),
        CardGoldenCase(name: "rotate-x-perspective", input: video,
                       flags: small + ["--rotate", "30", "--axis", "1,0,0", "--perspective", "800"]),
        // A quarter turn at 1 s: the card is edge-on, nothing of it shows.
        CardGoldenCase(name: "spin-at-1", input: video, flags: ["--size", "160x90", "--spin", "4", "--at", "1"]),
        CardGoldenCase(name: "spin-at-half", input: video, flags: ["--size", "160x90", "--spin", "4", "--at", "0.5"]),
        CardGoldenCase(name: "spin-bare", input: video, flags: ["--size", "160x90", "--spin", "--at", "1.5"]),
        CardGoldenCase(name: "spin-diagonal-axis", input: video,
                       flags: ["--size", "160x90", "--spin", "3", "--axis", "1,1,0", "--at", "0.4"]),
        CardGoldenCase(name: "corners-border", input: video, flags: small + ["--corner-radius", "24", "--border", "6:red"]),
        CardGoldenCase(name: "shadow-bare", input: video, flags: small + ["--shadow", "--background", "#a0a0a0"]),
        CardGoldenCase(name: "shadow-explicit", input: video,
                       flags: small + ["--shadow", "16:0.5:0,8", "--background", "#a0a0a0"]),
        CardGoldenCase(name: "shadow-offset", input: video,
                       flags: small + ["--shadow", "4:0.9:-6,6", "--background", "white", "--layer-size", "100x50"]),
        CardGoldenCase(name: "mask", input: video, flags: small + ["--mask", "mask.png"]),
        CardGoldenCase(name: "opacity", input: video, flags: small + ["--opacity", "0.5", "--background", "#3060c0"]),
        CardGoldenCase(name: "gravity-fill", input: video, flags: ["--size", "120x90", "--at", "0.5", "--gravity", "fill"]),
        CardGoldenCase(name: "gravity-aspect", input: video, flags: ["--size", "120x90", "--at", "0.5"]),
        CardGoldenCase(name: "gravity-resize", input: video, flags: ["--size", "120x90", "--at", "0.5", "--gravity", "resize"]),
        CardGoldenCase(name: "layer-size", input: video,
                       flags: ["--size", "160x120", "--layer-size", "100x40", "--at", "0.5", "--background", "#204020"]),
        CardGoldenCase(name: "background", input: video, flags: small + ["--background", "#ff8800", "--layer-size", "120x60"]),
        CardGoldenCase(name: "input-size", input: mediaSample("sar.mp4"), flags: ["--at", "0.2"]),
        CardGoldenCase(name: "still", input: still, flags: ["--size", "160x90"]),
        CardGoldenCase(name: "still-effects", input: still,
                       flags: ["--size", "160x90", "--rotate", "20", "--corner-radius", "12", "--border", "3:#00ff00",
                               "--shadow", "6:0.7:4,4", "--background", "#ffffff", "--opacity", "0.8"]),
    ]

    @Test(arguments: cases)
    func theCardLooksAsRecorded(_ c: CardGoldenCase) throws {
        try withTemporaryDirectory { dir in
            try writePNG(Self.diskMask(width: 40, height: 30), "mask.png", in: dir)
            let r = runLayerplay([c.input] + c.flags + ["-o", "out.png"], in: dir)
            expectSuccess(r)
            guard r.status == 0, let out = readPNG(dir.appendingPathComponent("out.png")) else { return }
            let message = GoldenImage.compare(Surface(image: out), area: "card", name: c.name, tolerance: Self.tolerance)
            #expect(message == nil, "\(message ?? "")")
        }
    }

    /// An audio-only input makes a movie of its drawn sound on the canvas (a single still of it is refused): its first
    /// frame (the waveform at 0 s: silence before the start, the tone's fade-in after: a nearly flat line), through a
    /// lossless H.264 (crf 0) and ffmpeg's decoder. The card's edges lie on even pixels, so 4:2:0 chroma blocks never
    /// straddle two colours and only the YUV round trip's rounding remains.
    @Test func anAudioOnlyInputMakesAMovieOfTheCanvas() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("tone.m4a"), "--size", "160x90", "--layer-size", "100x50", "--border", "6:red",
                                  "--background", "#204080", "--duration", "0.2", "--crf", "0", "--no-audio", "-o", "a.mp4"], in: dir)
            expectSuccess(r)
            guard r.status == 0 else { return }
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", "a.mp4", "-frames:v", "1", "first.png"], in: dir)
            guard let frame = readPNG(dir.appendingPathComponent("first.png")) else { return }
            let message = GoldenImage.compare(Surface(image: frame), area: "card", name: "audio-only",
                                              tolerance: GoldenTolerance(maxChannelDifference: 6, maxDifferingPixels: 0))
            #expect(message == nil, "\(message ?? "")")
        }
    }

    /// An alpha mask: an opaque disk filling the picture, transparent around it, a soft pixel at its rim.
    static func diskMask(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { px in
            let cx = Double(width) / 2, cy = Double(height) / 2, r = Double(min(width, height)) / 2
            for y in 0..<height {
                for x in 0..<width {
                    let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
                    let a = max(0, min(1, r - d))
                    px[y * width + x] = Color(red: 1, green: 1, blue: 1, alpha: a).premultiplied.bgra
                }
            }
        }
    }
}
