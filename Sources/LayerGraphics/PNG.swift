import CCairo
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// Writes pixels as PNG to a temporary file beside `path` (`PartialFile`), put at `path` only when complete.
    /// - Parameter replacing: whether an existing file at `path` is replaced; when not, a file that appeared there
    ///   meanwhile makes the write fail with `FileExistsError` (checked atomically, at the end).
    /// - Throws: `GraphicsError` saying why (`No space left on device`), `InterruptedError` for SIGINT, SIGTERM, SIGHUP,
    ///   SIGQUIT; the temporary is removed in either case.
    static func write(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, pixelsPerRow: Int, to path: String,
                      replacing: Bool) throws {
        try Interruption.during {
            PartialFile.sweep(beside: path)
            let temporary = PartialFile.path(for: path)
            // A file with our own PID in its name is the leftover of an earlier process that had our number.
            unlink(temporary)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw GraphicsError("cannot write '\(path)': \(PartialFile.describe(errno))") }
            do {
                try encode(pixels: pixels, width: width, height: height, pixelsPerRow: pixelsPerRow, into: fd, name: path)
                try Interruption.check(writing: path)
                try PartialFile.publish(temporary, at: path, replacing: replacing)
            } catch {
                unlink(temporary)
                throw error
            }
        }
    }

    /// Where cairo's PNG stream goes, and the first write error (cairo itself only says "write error").
    private struct Sink {
        let fd: Int32
        var error: Int32 = 0
        /// Bytes of cairo's stream seen so far: the `sRGB` chunk goes in after the signature and IHDR.
        var seen = 0
        var wroteSRGB = false
    }

    /// Signature (8 bytes) and IHDR (4 + 4 + 13 + 4): the bytes before the first chunk that may follow IHDR.
    static let headerLength = 33
    /// An `sRGB` chunk, rendering intent perceptual: says the pixels are sRGB, so viewers that manage colour do
    /// not guess (cairo writes none). Length 1, type, intent 0, CRC-32 of type and data.
    static let sRGBChunk: [UInt8] = [0, 0, 0, 1, 0x73, 0x52, 0x47, 0x42, 0, 0xAE, 0xCE, 0x1C, 0xE9]

    /// Writes all of `length` bytes at `data` to `fd`; errno on failure.
    private static func writeAll(_ fd: Int32, _ data: UnsafeRawPointer, _ length: Int) -> Int32 {
        var done = 0
        while done < length {
            let n = Glibc.write(fd, data + done, length - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return 0
    }

    /// Encodes the pixels as PNG into `fd` and closes it. Written through our own descriptor rather than
    /// `cairo_surface_write_to_png`, so that a failure can say why (errno), not only that it failed.
    private static func encode(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, pixelsPerRow: Int,
                               into fd: Int32, name path: String) throws {
        let surface = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(pixelsPerRow * 4))
        defer { cairo_surface_destroy(surface) }
        var sink = Sink(fd: fd)
        let status = withUnsafeMutablePointer(to: &sink) { sink in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                let sink = closure!.assumingMemoryBound(to: Sink.self)
                let start = sink.pointee.seen, count = Int(length)
                sink.pointee.seen += count
                // The part before the end of IHDR, the sRGB chunk when this write crosses it, then the rest.
                let head = min(max(PNG.headerLength - start, 0), count)
                var error = PNG.writeAll(sink.pointee.fd, data!, head)
                if error == 0 && !sink.pointee.wroteSRGB && start + count >= PNG.headerLength {
                    sink.pointee.wroteSRGB = true
                    error = PNG.sRGBChunk.withUnsafeBytes { PNG.writeAll(sink.pointee.fd, $0.baseAddress!, $0.count) }
                }
                if error == 0 { error = PNG.writeAll(sink.pointee.fd, data! + head, count - head) }
                if error != 0 { sink.pointee.error = error; return CAIRO_STATUS_WRITE_ERROR }
                return CAIRO_STATUS_SUCCESS
            }, sink)
        }
        // close reports what a network filesystem only learns at the end (a full disk, a quota).
        let closed = close(fd) == 0 ? 0 : errno
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = sink.error != 0 ? PartialFile.describe(sink.error) : String(cString: cairo_status_to_string(status))
            throw GraphicsError("cannot write '\(path)': \(reason)")
        }
        if closed != 0 { throw GraphicsError("cannot write '\(path)': \(PartialFile.describe(closed))") }
    }
}

extension Surface {
    /// Saves the surface as a PNG file, atomically (a temporary beside the target, then a rename).
    /// - Parameters:
    ///   - path: the file to write; its folder must exist.
    ///   - replacing: whether an existing file is replaced (otherwise `FileExistsError`, checked atomically).
    public func writePNG(to path: String, replacing: Bool = true) throws {
        try PNG.write(pixels: pixels, width: width, height: height, pixelsPerRow: pixelsPerRow, to: path, replacing: replacing)
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
    /// - Parameters:
    ///   - path: the file to write; its folder must exist.
    ///   - replacing: whether an existing file is replaced (otherwise `FileExistsError`, checked atomically).
    public func writePNG(to path: String, replacing: Bool = true) throws {
        try PNG.write(pixels: storage, width: width, height: height, pixelsPerRow: width, to: path, replacing: replacing)
    }
}
