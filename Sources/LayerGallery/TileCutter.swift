import Foundation
import LayerGraphics
import LayerKit

/// Listing 6.11's tile cutter and listing 6.12's tile loader (SEMANTICS-LAYERS.md §6, "Book examples"): an image cut
/// into `tileSize` squares named `NAME_COL_ROW.png` (column and row with two digits at least, as the book's `%02i`),
/// and a tiled layer's drawing that loads the tile its clip names and draws it into the clip.
public enum TileCutter {
    /// The file name of the tile at `column`, `row` of `name`: `name_07_03.png`.
    public static func fileName(_ name: String, column: Int, row: Int) -> String {
        name + "_" + twoDigits(column) + "_" + twoDigits(row) + ".png"
    }

    private static func twoDigits(_ n: Int) -> String { n >= 0 && n < 10 ? "0\(n)" : "\(n)" }

    /// The tiles of `image`, `tileSize` pixels square (clamped to [1, 8192]), row by row; those on the right and bottom
    /// edges keep only the pixels the image has (the book's `CGImageCreateWithImageInRect`).
    public static func cut(_ image: Image, tileSize: Int = 256) -> [(column: Int, row: Int, image: Image)] {
        let side = min(max(tileSize, 1), 8192)
        let columns = (image.width + side - 1) / side, rows = (image.height + side - 1) / side
        var out: [(column: Int, row: Int, image: Image)] = []
        image.withUnsafePixels { src in
            for row in 0..<rows {
                for column in 0..<columns {
                    let x0 = column * side, y0 = row * side
                    let w = min(side, image.width - x0), h = min(side, image.height - y0)
                    let tile = Image(width: w, height: h) { dst in
                        for y in 0..<h {
                            for x in 0..<w { dst[y * w + x] = src[(y0 + y) * image.width + x0 + x] }
                        }
                    }
                    out.append((column, row, tile))
                }
            }
        }
        return out
    }

    /// Cuts the PNG at `input` into `directory` (the input's own when nil, as the book writes beside it), the tiles
    /// named after the input's file name without its extension; returns the paths written.
    @discardableResult
    public static func cut(pngAt input: String, into directory: String? = nil, tileSize: Int = 256) throws -> [String] {
        let image = try Image(contentsOfPNG: input)
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let dir = directory ?? (input as NSString).deletingLastPathComponent
        var written: [String] = []
        for tile in cut(image, tileSize: tileSize) {
            let path = ((dir.isEmpty ? "." : dir) as NSString).appendingPathComponent(fileName(name, column: tile.column, row: tile.row))
            try tile.image.writePNG(to: path)
            written.append(path)
        }
        return written
    }

    /// Listing 6.12's `drawLayer:inContext:` as a tiled layer's `drawTile`: the tile's column and row from its clip
    /// (⌊clip.minX / tile side⌋, as the book does, the side in points being `tileSide / request.scale` × 2^level so
    /// that a coarser level shows the same file scaled down), the file `prefix_COL_ROW.png` loaded and drawn into the
    /// clip. A missing or unreadable file draws nothing (the background shows), as a nil `UIImage` does in the book.
    /// - Parameters:
    ///   - prefix: the tiles' path without `_COL_ROW.png`, e.g. `/tmp/tiles/picture`.
    ///   - tileSide: the side of the cut tiles in pixels (the cutter's `tileSize`), which the tiled layer's points match.
    public static func drawing(prefix: String, tileSide: Double = 256) -> @Sendable (DrawingContext, TileRequest) -> Void {
        let side = tileSide.isFinite && tileSide >= 1 ? tileSide : 256
        return { context, request in
            let r = request.rect
            let firstColumn = Int((r.minX / side).rounded(.down)), lastColumn = Int(((r.maxX / side).rounded(.up))) - 1
            let firstRow = Int((r.minY / side).rounded(.down)), lastRow = Int(((r.maxY / side).rounded(.up))) - 1
            guard firstColumn <= lastColumn, firstRow <= lastRow, lastColumn - firstColumn < 64, lastRow - firstRow < 64 else { return }
            // A coarse level's tile covers several cut tiles: each is drawn into its own square of the clip.
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn {
                    guard let image = try? Image(contentsOfPNG: fileName(prefix, column: column, row: row)) else { continue }
                    context.draw(image, in: Rect(x: Double(column) * side, y: Double(row) * side,
                                                 width: Double(image.width), height: Double(image.height)))
                }
            }
        }
    }
}
