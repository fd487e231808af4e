import ArgumentParser

/// `A:B`: frames A up to (not including) B of the output timeline, 0 ≤ A < B.
struct FrameRange: ExpressibleByArgument {
    var frames: Range<Int>
    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a < b else { return nil }
        frames = a..<b
    }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// The flags of a segmented export (CLI.md, "Segments and joins"), shared by the card and scene runs.
struct SegmentFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Render only frames A..<B of the output timeline, as a segment that `layerplay join` joins (no sound).", valueName: "A:B"))
    var frames: FrameRange?
    @Option(help: ArgumentHelp("Render the export as N segments, the sound once, and join them (the farm's plan, in one process).", valueName: "N"))
    var segments: Int?
    @Flag(name: .customLong("audio-only"), help: "Write only the export's sound (the track a join muxes in).")
    var audioOnly = false
    @Flag(help: "Print the segment plan of --segments N (or of one segment) as JSON on stdout and write nothing.")
    var plan = false

    /// The long options and flags, for the scene run's effect-flag binding.
    static let options: Set<String> = ["--frames", "--segments"]
    static let flags: Set<String> = ["--audio-only", "--plan"]

    func validate() throws {
        if let segments, !(1...10_000).contains(segments) { throw ValidationError("--segments must be between 1 and 10000") }
        if frames != nil && segments != nil { throw ValidationError("--frames and --segments contradict each other (a segment is not cut again)") }
        if audioOnly && (frames != nil || segments != nil) { throw ValidationError("--audio-only writes the whole sound: it takes neither --frames nor --segments") }
    }

    /// Whether the export is anything but a plain one.
    var isActive: Bool { frames != nil || segments != nil || audioOnly || plan }
}
