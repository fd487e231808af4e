// A video on a rounded, bordered, shadowed card turned in 3D over a background, exported to a movie.
// Uses only the public API of LayerKit, LayerMedia and LayerGraphics: the first thing to copy.
//
//   swift run VideoCard media/ship.mp4 out/card.mp4
import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

let arguments = CommandLine.arguments
let input = arguments.count > 1 ? arguments[1] : "media/ship.mp4"
let output = arguments.count > 2 ? arguments[2] : "out/video-card.mp4"

do {
    let player = try Player(path: input)
    let canvas = Size(width: 640, height: 360)

    // The canvas: the root layer, as big as the movie.
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    root.position = Point(x: canvas.width / 2, y: canvas.height / 2)
    root.backgroundColor = try Color(parsing: "#1d2433")

    // The card carries the shadow and the 3D turn; its shadow follows the rounded video inside it.
    let card = Layer()
    card.bounds = Rect(x: 0, y: 0, width: 400, height: 225)
    card.position = root.position
    card.shadowOpacity = 0.6
    card.shadowRadius = 12
    card.shadowOffset = Size(width: 0, height: 10)
    card.transform = Transform3D.makeRotation(-.pi / 7, 0, 1, 0).concatenating(.makePerspective(distance: 900))
    root.addSublayer(card)

    // The video, clipped to rounded corners, with a white border drawn above it.
    let video = PlayerLayer(player: player)
    video.frame = card.bounds
    video.videoGravity = .resizeAspectFill
    video.cornerRadius = 20
    video.masksToBounds = true
    video.borderWidth = 4
    video.borderColor = .white
    card.addSublayer(video)

    // Three seconds at 25 frames per second, with the source's audio.
    let exporter = Exporter(root: root, width: Int(canvas.width), height: Int(canvas.height),
                            settings: EncoderSettings(frameRate: (25, 1)), start: 0,
                            frameCount: 75, audioSource: player.asset.audio == nil ? nil : input)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let stats = try exporter.export(to: output)
    print("wrote \(output): \(stats.frames) frames in \(String(format: "%.1f", stats.seconds)) s")
} catch {
    FileHandle.standardError.write(Data("VideoCard: error: \(error)\n".utf8))
    exit(1)
}
