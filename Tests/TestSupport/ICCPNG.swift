import Foundation

/// Writes an 8-bit RGB PNG with an embedded ICC profile (an `iCCP` chunk), byte by byte: cairo cannot embed one.
/// Deflate streams use stored (uncompressed) blocks, which every reader takes.
public enum ICCPNG {
    /// A `width` × `height` PNG of one RGB colour per pixel (`pixel(x, y)`), with `profile` embedded as "P3".
    public static func data(width: Int, height: Int, profile: [UInt8]?, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width)); header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, adaptive filters, no interlace
        chunk("IHDR", header, into: &png)
        if let profile {
            chunk("iCCP", Data("P3".utf8) + Data([0, 0]) + zlibStored(profile), into: &png)
        }
        var rows: [UInt8] = []
        for y in 0..<height {
            rows.append(0)  // filter: none
            for x in 0..<width { let p = pixel(x, y); rows += [p.0, p.1, p.2] }
        }
        chunk("IDAT", zlibStored(rows), into: &png)
        chunk("IEND", Data(), into: &png)
        return png
    }

    static func chunk(_ type: String, _ body: Data, into png: inout Data) {
        png.append(bigEndian: UInt32(body.count))
        let typed = Data(type.utf8) + body
        png.append(typed)
        png.append(bigEndian: crc32(typed))
    }

    static func zlibStored(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let n = min(65_535, bytes.count - offset)
            out.append(offset + n == bytes.count ? 1 : 0)
            out.append(UInt8(n & 0xFF)); out.append(UInt8(n >> 8))
            out.append(UInt8(~n & 0xFF)); out.append(UInt8((~n >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<(offset + n)])
            offset += n
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        out.append(bigEndian: b << 16 | a)
        return out
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

private extension Data {
    mutating func append(bigEndian v: UInt32) { append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]) }
}
