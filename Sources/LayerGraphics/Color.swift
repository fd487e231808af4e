import Foundation

/// A colour in straight (non-premultiplied) sRGB-encoded components, each 0…1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0…1 (sRGB-encoded, not premultiplied).
    public var red: Double
    /// The green component, 0…1 (sRGB-encoded, not premultiplied).
    public var green: Double
    /// The blue component, 0…1 (sRGB-encoded, not premultiplied).
    public var blue: Double
    /// The opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double
    /// A colour of straight sRGB components in 0…1 (`UIColor(red:green:blue:alpha:)`); alpha defaults to opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// A grey of brightness `white` (0 black … 1 white) and opacity `alpha` (`UIColor(white:alpha:)`).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }
    /// CGColor's spelling of `init(white:alpha:)`.
    public init(gray: Double, alpha: Double = 1) { self.init(white: gray, alpha: alpha) }

    /// Transparent black (`UIColor.clear`): alpha 0.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Opaque pure red (1, 0, 0).
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque pure green (0, 1, 0), as `UIColor.green`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque pure blue (0, 0, 1).
    public static let blue = Color(red: 0, green: 0, blue: 1)

    /// The same colour with opacity `a` (`UIColor.withAlphaComponent(_:)`).
    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
    /// Whether alpha is 1 (or more): nothing behind shows through.
    public var isOpaque: Bool { alpha >= 1 }

    /// The colour as premultiplied 8-bit channels, rounded.
    public var premultiplied: PremultipliedColor {
        let a = min(max(alpha, 0), 1)
        func q(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * a * 255).rounded()) }
        return PremultipliedColor(r: q(red), g: q(green), b: q(blue), a: UInt8((a * 255).rounded()))
    }

    public var description: String {
        func h(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            return String(n, radix: 16).count == 1 ? "0" + String(n, radix: 16) : String(n, radix: 16)
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }
}

/// An 8-bit premultiplied colour, the pixel type of `Image` and `Surface` (stored B, G, R, A in memory).
public struct PremultipliedColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, already multiplied by alpha (0…255, never above `a`).
    public var r: UInt8
    /// Green, already multiplied by alpha (0…255, never above `a`).
    public var g: UInt8
    /// Blue, already multiplied by alpha (0…255, never above `a`).
    public var b: UInt8
    /// The opacity, 0…255.
    public var a: UInt8
    /// A pixel of already premultiplied channels (`r`, `g`, `b` must not exceed `a`).
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// The transparent pixel (all channels 0).
    public static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)
    /// The pixel as one little-endian word: what `Surface` and `Image` store.
    public var bgra: UInt32 { UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(a) << 24 }
    /// The pixel a little-endian BGRA word holds (the inverse of `bgra`).
    public init(bgra w: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: w >> 16), g: UInt8(truncatingIfNeeded: w >> 8),
                  b: UInt8(truncatingIfNeeded: w), a: UInt8(truncatingIfNeeded: w >> 24))
    }
    public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
}

/// Why a colour string was refused.
public struct ColorParseError: Error, CustomStringConvertible {
    /// The refused text, as given.
    public let text: String
    public var description: String { "'\(text)' is not a colour (use a CSS name, #rgb, #rrggbb or #rrggbbaa)" }
}

extension Color {
    /// Parses a CSS colour name (`white`, `rebeccapurple`, `transparent`), `#rgb`, `#rrggbb` or `#rrggbbaa`.
    public init(parsing text: String) throws {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasPrefix("#") {
            let hex = s.dropFirst()
            guard hex.allSatisfy({ $0.isASCII && $0.isHexDigit }), [3, 4, 6, 8].contains(hex.count) else { throw ColorParseError(text: text) }
            var digits = Array(hex)
            if digits.count <= 4 { digits = digits.flatMap { [$0, $0] } }
            var values: [Double] = []
            for i in stride(from: 0, to: digits.count, by: 2) {
                values.append(Double(Int(String(digits[i...i + 1]), radix: 16)!) / 255)
            }
            self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
            return
        }
        if s == "transparent" { self = .clear; return }
        guard let rgb = cssNamedColors[s] else { throw ColorParseError(text: text) }
        self.init(red: Double(rgb >> 16 & 0xff) / 255, green: Double(rgb >> 8 & 0xff) / 255, blue: Double(rgb & 0xff) / 255)
    }
}

/// The CSS Color Module Level 4 named colours.
let cssNamedColors: [String: UInt32] = [
    "aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4, "azure": 0xf0ffff,
    "beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000, "blanchedalmond": 0xffebcd, "blue": 0x0000ff,
    "blueviolet": 0x8a2be2, "brown": 0xa52a2a, "burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00,
    "chocolate": 0xd2691e, "coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
    "cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b, "darkgray": 0xa9a9a9,
    "darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b, "darkmagenta": 0x8b008b,
    "darkolivegreen": 0x556b2f, "darkorange": 0xff8c00, "darkorchid": 0x9932cc, "darkred": 0x8b0000,
    "darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f, "darkslateblue": 0x483d8b, "darkslategray": 0x2f4f4f,
    "darkslategrey": 0x2f4f4f, "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3, "deeppink": 0xff1493,
    "deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1e90ff,
    "firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22, "fuchsia": 0xff00ff,
    "gainsboro": 0xdcdcdc, "ghostwhite": 0xf8f8ff, "gold": 0xffd700, "goldenrod": 0xdaa520, "gray": 0x808080,
    "green": 0x008000, "greenyellow": 0xadff2f, "grey": 0x808080, "honeydew": 0xf0fff0, "hotpink": 0xff69b4,
    "indianred": 0xcd5c5c, "indigo": 0x4b0082, "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa,
    "lavenderblush": 0xfff0f5, "lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6,
    "lightcoral": 0xf08080, "lightcyan": 0xe0ffff, "lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3,
    "lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1, "lightsalmon": 0xffa07a,
    "lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899, "lightslategrey": 0x778899,
    "lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0, "lime": 0x00ff00, "limegreen": 0x32cd32,
    "linen": 0xfaf0e6, "magenta": 0xff00ff, "maroon": 0x800000, "mediumaquamarine": 0x66cdaa,
    "mediumblue": 0x0000cd, "mediumorchid": 0xba55d3, "mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371,
    "mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc,
    "mediumvioletred": 0xc71585, "midnightblue": 0x191970, "mintcream": 0xf5fffa, "mistyrose": 0xffe4e1,
    "moccasin": 0xffe4b5, "navajowhite": 0xffdead, "navy": 0x000080, "oldlace": 0xfdf5e6, "olive": 0x808000,
    "olivedrab": 0x6b8e23, "orange": 0xffa500, "orangered": 0xff4500, "orchid": 0xda70d6,
    "palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98, "paleturquoise": 0xafeeee, "palevioletred": 0xdb7093,
    "papayawhip": 0xffefd5, "peachpuff": 0xffdab9, "peru": 0xcd853f, "pink": 0xffc0cb, "plum": 0xdda0dd,
    "powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xff0000,
    "rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513, "salmon": 0xfa8072,
    "sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee, "sienna": 0xa0522d, "silver": 0xc0c0c0,
    "skyblue": 0x87ceeb, "slateblue": 0x6a5acd, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xfffafa,
    "springgreen": 0x00ff7f, "steelblue": 0x4682b4, "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8,
    "tomato": 0xff6347, "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3, "white": 0xffffff,
    "whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
]
