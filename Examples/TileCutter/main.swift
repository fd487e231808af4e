// Listing 6.11 of "iOS Core Animation: Advanced Techniques": the command-line tool that cuts a large image into
// 256 × 256 tiles for a tiled layer, ported (PNG in and out instead of JPEG: LayerGraphics reads and writes PNG).
//
//     TileCutter INPUT.png [OUTDIR [TILESIZE]]
//
// writes OUTDIR/NAME_COL_ROW.png (NAME: the input's file name without its extension; COL, ROW: two digits), OUTDIR
// being the input's directory when left out, as the book writes the tiles beside the image.
import Foundation
import LayerGallery

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments.count <= 4 else {
    FileHandle.standardError.write(Data("usage: TileCutter INPUT.png [OUTDIR [TILESIZE]]\n".utf8))
    exit(2)
}
let tileSize = arguments.count == 4 ? Int(arguments[3]) : 256
guard let tileSize, tileSize >= 1, tileSize <= 8192 else {
    FileHandle.standardError.write(Data("TileCutter: the tile size must be a whole number of pixels in 1…8192\n".utf8))
    exit(2)
}
do {
    let written = try TileCutter.cut(pngAt: arguments[1], into: arguments.count >= 3 ? arguments[2] : nil, tileSize: tileSize)
    print("\(written.count) tiles of \(tileSize)² pixels: \(written.first ?? "") … \(written.last ?? "")")
} catch {
    FileHandle.standardError.write(Data("TileCutter: \(error)\n".utf8))
    exit(1)
}
