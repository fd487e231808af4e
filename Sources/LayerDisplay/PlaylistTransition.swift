import LayerKit

/// How a playlist goes from one item to the next (`--transition TYPE[-FROM][:SECONDS]`, issue 30): Core Animation's
/// transition types (`TransitionType`, SEMANTICS-ANIMATION.md §9) with both items playing, or a cube's two faces
/// turning. `FROM` is the side the new item comes from (`kCATransitionFromRight` by default).
public struct PlaylistTransition: Sendable, Equatable {
    /// What the transition looks like.
    public enum Kind: Sendable, Equatable {
        /// One of Core Animation's: fade, push, moveIn, reveal.
        case layer(TransitionType)
        /// The two items on adjacent faces of a cube that turns a quarter, with perspective.
        case cube
    }

    /// The look.
    public var kind: Kind
    /// The side the new item comes from.
    public var subtype: TransitionSubtype
    /// Seconds the two items overlap (before clamping to half of the shorter one).
    public var seconds: Double

    /// Seconds when the flag gives none.
    public static let defaultSeconds = 1.0

    /// A transition of `kind` from `subtype`, `seconds` long.
    public init(kind: Kind, subtype: TransitionSubtype = .fromRight, seconds: Double = Self.defaultSeconds) {
        self.kind = kind; self.subtype = subtype; self.seconds = seconds
    }

    /// Parses `fade`, `push-left`, `cube:0.5`, `moveIn-top:2`; nil with the reason when it is not one.
    public static func parse(_ text: String) -> Result<PlaylistTransition, ParseError> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var seconds = defaultSeconds
        if parts.count == 2 {
            guard let s = Double(parts[1]), s.isFinite, s > 0, s <= 60 else {
                return .failure(ParseError("the transition's SECONDS must be a number of seconds above 0 and at most 60, not '\(parts[1])'"))
            }
            seconds = s
        }
        let name = parts[0].split(separator: "-", maxSplits: 1).map(String.init)
        let kind: Kind
        switch name.first?.lowercased() ?? "" {
        case "fade": kind = .layer(.fade)
        case "push": kind = .layer(.push)
        case "movein": kind = .layer(.moveIn)
        case "reveal": kind = .layer(.reveal)
        case "cube": kind = .cube
        default: return .failure(ParseError("unknown transition '\(parts[0])' (fade, push, moveIn, reveal or cube, with -left, -right, -top or -bottom)"))
        }
        var subtype = TransitionSubtype.fromRight
        if name.count == 2 {
            switch name[1].lowercased() {
            case "left": subtype = .fromLeft
            case "right": subtype = .fromRight
            case "top": subtype = .fromTop
            case "bottom": subtype = .fromBottom
            default: return .failure(ParseError("a transition comes from left, right, top or bottom, not '\(name[1])'"))
            }
        }
        return .success(PlaylistTransition(kind: kind, subtype: subtype, seconds: seconds))
    }

    /// Why a `--transition` value was refused.
    public struct ParseError: Error, CustomStringConvertible {
        /// One line.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
