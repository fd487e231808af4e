import CCairo
import Foundation

/// PNG reading and writing through cairo (which stores the same premultiplied BGRA words as `Image`).
public enum PNG {
    /// Reads a PNG file into an `Image`.
    /// - Throws: `GraphicsError` naming the file when it is missing, unreadable or not a PNG.
    public static func read(path: String) throws -> Image {
        guard FileManager.default.fileExists(atPath: path) else { throw GraphicsError("cannot open '\(path)': No such file or directory") }
        guard let surface = cairo_image_surface_create_from_png(path) else { throw GraphicsError("cannot read '\(path)'") }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            // cairo reports a damaged or foreign file as a read error or as "out of memory".
            let reason = status == CAIRO_STATUS_NO_MEMORY || status == CAIRO_STATUS_READ_ERROR || status == CAIRO_STATUS_INVALID_FORMAT
                ? "not a PNG image, or a damaged one" : String(cString: cairo_status_to_string(status))
            throw GraphicsError("cannot read '\(path)' as PNG: \(reason)")
        }
        return try image(fromCairo: surface, name: path)
    }

    /// Copies a cairo image surface (ARGB32, RGB24 or A8) into an `Image`.
    static func image(fromCairo surface: OpaquePointer, name: String) throws -> Image {
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let format = cairo_image_surface_get_format(surface)
        guard w > 0, h > 0, let data = cairo_image_surface_get_data(surface) else { throw GraphicsError("'\(name)' has no pixels") }
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_A8 else {
            throw GraphicsError("'\(name)' has a pixel format cairo cannot give as 8-bit RGBA")
        }
        return Image(width: w, height: h) { out in
            for y in 0..<h {
                let row = data + y * stride
                for x in 0..<w {
                    let word: UInt32
                    if format == CAIRO_FORMAT_A8 {
                        word = UInt32(row[x]) << 24
                    } else {
                        let v = UnsafeRawPointer(row).load(fromByteOffset: x * 4, as: UInt32.self)
                        word = format == CAIRO_FORMAT_RGB24 ? v | 0xff00_0000 : v
                    }
                    out[y * w + x] = word
                }
            }
        }
    }

    /// Writes pixels as PNG: to a temporary file beside `path`, renamed over it only when complete.
    static func write(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, pixelsPerRow: Int, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial").path
        let surface = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(pixelsPerRow * 4))
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_write_to_png(surface, temporary)
        guard status == CAIRO_STATUS_SUCCESS else {
            try? FileManager.default.removeItem(atPath: temporary)
            let reason = status == CAIRO_STATUS_WRITE_ERROR ? "cannot write there" : String(cString: cairo_status_to_string(status))
            throw GraphicsError("cannot write '\(path)': \(reason)")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw GraphicsError("cannot write '\(path)': \(reason)")
        }
    }
}

extension Surface {
    /// Saves the surface as a PNG file, atomically (a temporary beside the target, then a rename).
    public func writePNG(to path: String) throws {
        try PNG.write(pixels: pixels, width: width, height: height, pixelsPerRow: pixelsPerRow, to: path)
    }
}

extension Image {
    /// Reads a PNG file.
    public convenience init(contentsOfPNG path: String) throws {
        let image = try PNG.read(path: path)
        self.init(width: image.width, height: image.height) { out in
            image.withUnsafePixels { out.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
        }
    }

    /// Saves the image as a PNG file, atomically.
    public func writePNG(to path: String) throws {
        try PNG.write(pixels: storage, width: width, height: height, pixelsPerRow: width, to: path)
    }
}
