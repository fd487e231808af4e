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
    /// LayerKit's attributes for `AttributedString`, reached as `text[range].foregroundColor` and so on.
    public struct LayerKitAttributes: AttributeScope {
        /// The run's font name.
        public let font: FontAttribute
        /// The run's font size, in points.
        public let fontSize: FontSizeAttribute
        /// The run's colour.
        public let foregroundColor: ForegroundColorAttribute
        /// The run's underline.
        public let underlineStyle: UnderlineStyleAttribute
        /// Whether the run is struck through.
        public let strikethroughStyle: StrikethroughStyleAttribute
        /// Extra space after each character of the run, in points.
        public let kern: KernAttribute

        /// A font name as `TextLayer.font` (`Helvetica-Bold`, `DejaVu Serif Italic`).
        public enum FontAttribute: AttributedStringKey {
            /// A font name.
            public typealias Value = String
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.font"
        }
        /// Points.
        public enum FontSizeAttribute: AttributedStringKey {
            /// Points.
            public typealias Value = Double
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.fontSize"
        }
        /// The colour of the run's glyphs.
        public enum ForegroundColorAttribute: AttributedStringKey {
            /// A colour.
            public typealias Value = Color
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.foregroundColor"
        }
        /// A line under the run.
        public enum UnderlineStyleAttribute: AttributedStringKey {
            /// None, single or double.
            public typealias Value = TextUnderline
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.underlineStyle"
        }
        /// Whether the run is struck through.
        public enum StrikethroughStyleAttribute: AttributedStringKey {
            /// Whether it is struck through.
            public typealias Value = Bool
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.strikethroughStyle"
        }
        /// Extra space after each character, in points.
        public enum KernAttribute: AttributedStringKey {
            /// Points.
            public typealias Value = Double
            /// The attribute's name in an `AttributedString`.
            public static let name = "LayerKit.kern"
        }
    }

    /// LayerKit's attribute scope.
    public var layerKit: LayerKitAttributes.Type { LayerKitAttributes.self }
}

extension AttributeDynamicLookup {
    /// Reaches LayerKit's attributes by name: `text[range].foregroundColor`.
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
