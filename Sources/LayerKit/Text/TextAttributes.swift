import Foundation
import LayerGraphics

/// The attributes a `TextLayer` reads from an `AttributedString` (the port of the book's NSAttributedString keys):
///
/// ```swift
/// var text = AttributedString("Lorem ipsum dolor")
/// let ipsum = text.range(of: "ipsum")!
/// text[ipsum].foregroundColor = .red
/// text[ipsum].underlineStyle = .single
/// layer.string = .attributed(text)
/// ```
extension AttributeScopes {
    public struct LayerKitAttributes: AttributeScope {
        public let font: FontAttribute
        public let fontSize: FontSizeAttribute
        public let foregroundColor: ForegroundColorAttribute
        public let underlineStyle: UnderlineStyleAttribute
        public let strikethroughStyle: StrikethroughStyleAttribute
        public let kern: KernAttribute

        /// A font name as `TextLayer.font` (`Helvetica-Bold`, `DejaVu Serif Italic`).
        public enum FontAttribute: AttributedStringKey {
            public typealias Value = String
            public static let name = "LayerKit.font"
        }
        /// Points.
        public enum FontSizeAttribute: AttributedStringKey {
            public typealias Value = Double
            public static let name = "LayerKit.fontSize"
        }
        public enum ForegroundColorAttribute: AttributedStringKey {
            public typealias Value = Color
            public static let name = "LayerKit.foregroundColor"
        }
        public enum UnderlineStyleAttribute: AttributedStringKey {
            public typealias Value = TextUnderline
            public static let name = "LayerKit.underlineStyle"
        }
        /// Whether the run is struck through.
        public enum StrikethroughStyleAttribute: AttributedStringKey {
            public typealias Value = Bool
            public static let name = "LayerKit.strikethroughStyle"
        }
        /// Extra space after each character, in points.
        public enum KernAttribute: AttributedStringKey {
            public typealias Value = Double
            public static let name = "LayerKit.kern"
        }
    }

    public var layerKit: LayerKitAttributes.Type { LayerKitAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.LayerKitAttributes, T>) -> T {
        self[T.self]
    }
}

extension TextLayer {
    /// The text of `attributed` and its runs in UTF-8 byte offsets (pango's), built scalar by scalar from the runs, so
    /// ranges stay right whatever the text (the book's `NSMakeRange` counts UTF-16 units; that breaks on non-ASCII).
    static func runs(of attributed: AttributedString) -> (String, [TextRun]) {
        typealias A = AttributeScopes.LayerKitAttributes
        var scalars = String.UnicodeScalarView()
        var byteCount = 0
        var runs: [TextRun] = []
        for run in attributed.runs {
            let start = byteCount
            for scalar in attributed[run.range].unicodeScalars {
                scalars.append(scalar)
                byteCount += UTF8.width(scalar)
            }
            let attributes = TextAttributes(
                font: run[A.FontAttribute.self], fontSize: run[A.FontSizeAttribute.self],
                color: run[A.ForegroundColorAttribute.self], underline: run[A.UnderlineStyleAttribute.self],
                strikethrough: run[A.StrikethroughStyleAttribute.self], kern: run[A.KernAttribute.self])
            if attributes != TextAttributes(), start < byteCount {
                runs.append(TextRun(range: start..<byteCount, attributes: attributes))
            }
        }
        return (String(scalars), runs)
    }
}
