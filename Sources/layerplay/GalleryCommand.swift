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
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: outdir, withIntermediateDirectories: true) } catch {
            throw RunError("cannot create the output directory \(outdir): \(Self.reason(error))")
        }
        for figure in Gallery.figures {
            let path = (outdir as NSString).appendingPathComponent(figure.name + ".png")
            let surface: LayerGraphics.Surface
            do { surface = try figure.render(mediaDirectory: media) } catch {
                throw RunError("cannot render figure \(figure.name): \(error)")
            }
            // Written beside the target and renamed when complete, so no partial PNG is ever left at the path.
            let partial = (outdir as NSString).appendingPathComponent(".\(figure.name).png.partial")
            do {
                try surface.writePNG(to: partial)
                guard rename(partial, path) == 0 else { throw RunError(String(cString: strerror(errno))) }
            } catch {
                try? fm.removeItem(atPath: partial)
                throw RunError("cannot write \(path): \(Self.reason(error))")
            }
            print("\(path)  \(figure.title)")
        }
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
