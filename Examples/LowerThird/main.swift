// A lower third over a full-frame video, exported to a movie: a gradient band along the bottom and a title that
// slides in from the left over the first second (the look of Benchmarks/ffmpeg-peers.sh's `lowerthird` peer, which ffmpeg
// users build from `gradients`, `overlay` and `drawtext`). Public API only.
//
//   swift run -c release LowerThird media/ship.mp4 out/lower-third.mp4 ["a title"] [frames]
//   swift run -c release LowerThird media/ship.mp4 --play SECONDS      (plays in a window; prints --stats' JSON)
import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

var arguments = CommandLine.arguments
var playSeconds: Double?
if let i = arguments.firstIndex(of: "--play"), i + 1 < arguments.count {
    playSeconds = Double(arguments[i + 1])
    arguments.removeSubrange(i...(i + 1))
}
let input = arguments.count > 1 ? arguments[1] : "media/ship.mp4"
let output = arguments.count > 2 ? arguments[2] : "out/lower-third.mp4"
let title = arguments.count > 3 ? arguments[3] : "layerplay — lower third"

do {
    let player = try Player(path: input)
    guard let video = player.asset.video else { throw MediaError("'\(input)' has no video") }
    let frames = arguments.count > 4 ? Int(arguments[4]) ?? 0 : Int((video.duration * video.frameRate).rounded(.down))
    // The canvas is the video's own size; the look is laid out for 1080 lines and scaled to the canvas.
    let size = Size(width: Double(video.displayWidth), height: Double(video.displayHeight))
    let k = size.height / 1080

    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    root.position = Point(x: size.width / 2, y: size.height / 2)
    root.backgroundColor = .black

    let picture = PlayerLayer(player: player)
    picture.frame = root.bounds
    root.addSublayer(picture)

    // The band: 160 points high at y = 860, #1e3c72 at 90 % fading to transparent from left to right.
    let band = GradientLayer()
    band.frame = Rect(x: 0, y: 860 * k, width: size.width, height: 160 * k)
    let navy = try Color(parsing: "#1e3c72")
    band.colors = [navy.withAlpha(0.9), navy.withAlpha(0)]
    band.startPoint = Point(x: 0, y: 0.5)
    band.endPoint = Point(x: 1, y: 0.5)
    root.addSublayer(band)

    // The title: white, 64 points, its left edge sliding from just off the canvas to x = 96 during the first second.
    let text = TextLayer()
    text.string = .plain(title)
    text.fontSize = 64 * k
    text.foregroundColor = .white
    text.font = "Helvetica"
    text.contentsScale = 1
    text.bounds.size = Size(width: 4000, height: 100 * k)
    let measured = text.preferredFrameSize()
    text.bounds = Rect(x: 0, y: 0, width: ceil(measured.width), height: ceil(measured.height))
    text.anchorPoint = Point(x: 0, y: 0)
    text.position = Point(x: 96 * k, y: 900 * k)
    root.addSublayer(text)
    let slide = BasicAnimation(keyPath: "position.x")
    slide.fromValue = -text.bounds.width
    slide.toValue = 96 * k
    slide.duration = 1
    text.add(slide, forKey: "slide in")

    if let playSeconds {
        var options = PlaybackSession.Options(title: "LowerThird", range: PlaybackRange(start: 0, end: min(playSeconds, video.duration), loops: false),
                                              frameRate: video.frameRate)
        options.muted = true
        let session = try PlaybackSession(root: root, size: (Int(size.width), Int(size.height)), player: player,
                                          audioPath: player.asset.audio == nil ? nil : input, options: options) { _, _ in }
        print(session.run().json)
        exit(0)
    }

    let rate = MovieWriter.rational(video.frameRate)
    let exporter = Exporter(root: root, width: Int(size.width), height: Int(size.height),
                            settings: EncoderSettings(crf: 23, preset: "veryfast", frameRate: rate), start: 0,
                            frameCount: max(1, frames), audioSource: player.asset.audio == nil ? nil : input)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let stats = try exporter.export(to: output)
    print("wrote \(output): \(stats.frames) frames in \(String(format: "%.2f", stats.seconds)) s " +
          "(\(stats.overVideoFrames) composited only around the lower third)")
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("LowerThird: error: \(error)\n".utf8))
    exit(1)
}
