import LayerGraphics

/// Where a value came from and what it is called: the position for the message and the key path for its prefix.
struct Site {
    var json: JSONValue
    var path: String
    /// The position of the key itself (unknown-key errors point there).
    var keyPosition: SourcePosition?
    var position: SourcePosition { json.position }
}

/// What the loader carries while it walks a scene: collected diagnostics and the names expressions see.
struct SceneContext {
    var file: String
    var diagnostics: [SceneDiagnostic] = []
    var warnings: [SceneDiagnostic] = []
    /// Params, `let`, `W`, `H`, and per layer `w`, `h`, `i`.
    var names: [String: SceneValue] = [:]
    /// Frames per second for `"48f"` times.
    var fps = 30.0
    /// Format minor version above 0: unknown keys may be keys that version added.
    var newerMinor = false
    /// `scene check` without every required value: undefined values propagate instead of failing (`Expression`).
    var lenient = false
    /// Ids of inputs whose declaration failed (a file that cannot be opened, a bad `src`): that error is reported
    /// once, where the input is declared, and what refers to the input stays quiet (`inputReference`), so one
    /// cause gives one line rather than a second "expected one of …" at every layer that uses it.
    var failedInputs: Set<String> = []

    mutating func error(_ site: Site, _ message: String, at position: SourcePosition? = nil) {
        diagnostics.append(SceneDiagnostic(file: file, position: position ?? site.position, path: site.path, message: message))
    }

    mutating func expected(_ what: String, _ site: Site, got: SceneValue) {
        error(site, "expected \(what), got \(got.shortDescription)")
    }

    /// Resolves `$name`, `${name}` and `=expr` in `json` (recursively in lists and objects). nil after an error
    /// (recorded); `.undefined` when it names a param without a value, which leaves the key out.
    mutating func resolve(_ site: Site) -> SceneValue? {
        switch site.json.kind {
        case .string(let s):
            if s.hasPrefix("=") {
                do throws(ExpressionError) {
                    return try Expression.evaluate(String(s.dropFirst()), names: names, lenient: lenient)
                } catch {
                    // A value computed from an input that failed to open: that failure is the one error to report.
                    if readsFailedInput(s) { return nil }
                    // The column points into the string: past the opening quote and the `=`.
                    let p = SourcePosition(line: site.position.line, column: site.position.column + 2 + error.offset)
                    self.error(site, error.message, at: p)
                    return nil
                }
            }
            if s.hasPrefix("$"), !s.hasPrefix("${") {
                let name = String(s.dropFirst())
                guard let v = names[name] else {
                    let hint = suggestion(for: name, among: names.keys).map { "; did you mean \"$\($0)\"?" } ?? ""
                    error(site, "\"$\(name)\" names no param or let\(hint)")
                    return nil
                }
                return v
            }
            if s.contains("${") { return interpolate(s, site) }
            return .string(s)
        case .array(let elements):
            var out: [SceneValue] = []
            for (i, e) in elements.enumerated() {
                guard let v = resolve(Site(json: e, path: "\(site.path)[\(i)]")) else { return nil }
                out.append(v)
            }
            // Checking without a required value: a list with an undefined member is left out as a whole.
            if lenient, out.contains(.undefined) { return .undefined }
            return .list(out)
        case .object(let members):
            var out: [String: SceneValue] = [:]
            for m in members {
                guard let v = resolve(Site(json: m.value, path: "\(site.path).\(m.key)")) else { return nil }
                out[m.key] = v
            }
            return .object(out)
        default:
            return SceneValue(literal: site.json)
        }
    }

    /// Whether the expression `text` reads `inputs.ID` of an input whose declaration failed.
    func readsFailedInput(_ text: String) -> Bool {
        guard !failedInputs.isEmpty else { return false }
        let compact = text.filter { !$0.isWhitespace }
        return failedInputs.contains { id in
            var rest = Substring(compact)
            while let r = rest.range(of: "inputs.\(id)") {
                // `inputs.main` but not `inputs.mainClip`: the id must end there.
                if let next = rest[r.upperBound...].first, next.isLetter || next.isNumber || next == "_" { rest = rest[r.upperBound...]; continue }
                return true
            }
            return false
        }
    }

    /// An input named by `v` at `site` (a layer's `input`, the scene's `audio`): one of `ids`, else an error with the
    /// nearest id; nil without a second error when it names an input whose declaration already failed.
    mutating func inputReference(_ v: SceneValue, _ site: Site, among ids: [String]) -> String? {
        if case .string(let s) = v, failedInputs.contains(s) { return nil }
        return choice(v, site, ids)
    }

    /// `"Hello ${name}"`: each `${…}` is replaced by the named value's text.
    private mutating func interpolate(_ s: String, _ site: Site) -> SceneValue? {
        var out = ""
        var rest = Substring(s)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                error(site, "unterminated ${ in \(SceneValue.string(s).shortDescription)")
                return nil
            }
            let name = String(rest[open.upperBound..<close])
            guard let v = names[name], v != .undefined else {
                error(site, names[name] == nil ? "\"${\(name)}\" names no param or let" : "\"${\(name)}\" has no value")
                return nil
            }
            out += text(of: v)
            rest = rest[rest.index(after: close)...]
        }
        return .string(out + rest)
    }

    private func text(of v: SceneValue) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n): return formatNumber(n)
        case .bool(let b): return b ? "true" : "false"
        case .list(let l): return l.map(text(of:)).joined(separator: ",")
        default: return v.shortDescription
        }
    }

    /// Reports members of `object` that are not in `known`, with the nearest known key.
    mutating func checkKeys(_ members: [JSONMember], known: Set<String>, path: String) {
        var seen: Set<String> = []
        for m in members {
            let memberPath = path.isEmpty ? m.key : "\(path).\(m.key)"
            let site = Site(json: m.value, path: memberPath, keyPosition: m.keyPosition)
            if !seen.insert(m.key).inserted {
                error(site, "duplicate key", at: m.keyPosition)
                continue
            }
            guard !known.contains(m.key) else { continue }
            var message = "unknown key"
            if let s = suggestion(for: m.key, among: known.sorted()) { message += "; did you mean \"\(s)\"?" }
            else if newerMinor { message += " (added after scene format 1.0?)" }
            error(site, message, at: m.keyPosition)
        }
    }
}
