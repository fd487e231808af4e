/// One problem in a scene file, compiler style: `FILE:LINE:COL: PATH: MESSAGE` (SCENES.md §7).
public struct SceneDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (messages repeat what they typed, not an absolute path).
    public var file: String
    /// The line and column the problem points at.
    public var position: SourcePosition
    /// The key path with layer ids, `layers[1]("inset-frame").animations[0].damping`; empty for syntax errors.
    public var path: String
    /// What was expected and what was found, e.g. `expected a number ≥ 0, got "soft"`.
    public var message: String

    /// A problem in `file` at `position`, at key path `path`, saying `message`.
    public init(file: String, position: SourcePosition, path: String, message: String) {
        self.file = file; self.position = position; self.path = path; self.message = message
    }

    public var description: String {
        path.isEmpty ? "\(file):\(position): \(message)" : "\(file):\(position): \(path): \(message)"
    }
}

/// All the problems a scene had; a run reports the first and how many more, `scene check` all of them.
public struct SceneErrors: Error, Sendable, CustomStringConvertible {
    /// Every problem, in file order (never empty when thrown).
    public var diagnostics: [SceneDiagnostic]
    /// The problems `diagnostics`.
    public init(_ diagnostics: [SceneDiagnostic]) { self.diagnostics = diagnostics }

    /// CLI.md's one-line rule: the first problem, then how many more there are.
    public var description: String {
        guard let first = diagnostics.first else { return "no errors" }
        let more = diagnostics.count - 1
        return more == 0 ? first.description : "\(first.description) (and \(more) more; run `layerplay scene check` to list them)"
    }
}

/// The nearest known key to a misspelt one, for "did you mean …": edit distance at most a third of the key's
/// length (at least 1), so `frmae` finds `frame` but `x` does not find `id`.
func suggestion(for key: String, among known: some Sequence<String>) -> String? {
    let limit = max(1, key.count / 3)
    var best: (String, Int)?
    for candidate in known {
        let d = editDistance(key.lowercased(), candidate.lowercased())
        if d <= limit, d < best?.1 ?? .max { best = (candidate, d) }
    }
    return best?.0
}

/// Damerau–Levenshtein distance with adjacent transpositions (a swapped pair, `frmae`, counts as one edit).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}
