import ArgumentParser
import LayerDisplay

/// `--transition`: how the items of a playlist follow each other, in a window and in an export (issue 30).
struct PlaylistOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Between playlist items, both playing: fade, push, moveIn, reveal or cube, the new item from the right unless -left, -top or -bottom is added; SECONDS long (1 by default, at most half of the shorter item).", valueName: "TYPE[-FROM][:SECONDS]"))
    var transition: String?

    /// The parsed transition; nil without the flag (items cut from one to the next).
    var parsedTransition: PlaylistTransition? {
        guard let transition, case .success(let t) = PlaylistTransition.parse(transition) else { return nil }
        return t
    }

    func validate() throws {
        if let transition, case .failure(let error) = PlaylistTransition.parse(transition) {
            throw ValidationError("--transition: \(error.description)")
        }
    }
}
