import ArgumentParser
import Foundation
import LayerGallery
import LayerGraphics
#if canImport(Glibc)
import Glibc
#endif

/// `layerplay gallery OUTDIR`: the figures of the book's chapters 1–5, rebuilt with LayerKit, one PNG each.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery", abstract: "Render the figures of \"iOS Core Animation: Advanced Techniques\" chapters 1–5 as PNGs in OUTDIR.")

    @Argument(help: "The directory to write NAME.png into (created when missing).")
    var outdir: String
    @Option(help: "The directory holding clip.mp4, for the video-face cube.")
    var media: String = "media"

    func run() throws {
        try Self.makeDirectories(outdir)
        for figure in Gallery.figures {
            let path = (outdir as NSString).appendingPathComponent(figure.name + ".png")
            let surface: LayerGraphics.Surface
            do { surface = try figure.render(mediaDirectory: media) } catch {
                throw RunError("cannot render figure \(figure.name): \(error)")
            }
            // Written beside the target and put in place when complete (PNG's PartialFile): no partial PNG is ever
            // left at the path, nor a temporary on a signal. The gallery's figures are its own: they are replaced.
            do { try surface.writePNG(to: path) } catch { throw RunError("\(error)") }
            print("\(path)  \(figure.title)")
        }
    }

    /// `mkdir -p`, one component at a time, so that the error names the component that failed and why
    /// (Foundation's createDirectory only says "error 512").
    private static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current = (current as NSString).appendingPathComponent(String(component))
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: current, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw RunError("cannot create the output directory \(path): \(current) is not a directory") }
                continue
            }
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw RunError("cannot create the output directory \(path): \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}
