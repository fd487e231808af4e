import ArgumentParser
import Foundation
import LayerGraphics
import LayerMedia
import LayerScene

/// `layerplay scene check|params|print|schema SCENE.json [ARG…] [--set NAME=VALUE]…` (SCENES.md §5).
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerplay scene",
        abstract: "Check a scene file and list every problem, list its params, print it resolved, or print the format's JSON Schema.")

    enum Action: String, ExpressibleByArgument, CaseIterable { case check, params, print, schema }

    @Argument(help: "check: every problem, one per line; params: the params with their types and docs; print: the scene with params, let, repeat and when resolved (plain JSON); schema: the format's JSON Schema.")
    var action: Action
    @Argument(help: "The scene file (JSON with comments); schema needs none.")
    var scene: String?
    @Argument(help: "Values of the params that have a position.")
    var arguments: [String] = []
    @Option(name: .customLong("set"), help: ArgumentHelp("A param's value.", valueName: "NAME=VALUE"))
    var sets: [String] = []

    /// A default as a person would type it (nil: a value with no short form, an undefined one).
    static func text(_ value: SceneValue) -> String? {
        switch value {
        case .undefined, .object: return nil
        case .number(let n): return number(n)
        case .string(let s): return s.isEmpty ? "\"\"" : s
        case .bool(let b): return b ? "true" : "false"
        case .color(let c): return c.alpha == 1 ? String(c.hexText.dropLast(2)) : c.hexText
        case .list(let items):
            let parts = items.compactMap(text)
            return parts.count == items.count ? parts.joined(separator: ",") : nil
        }
    }

    static func number(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }

    func run() throws {
        if action == .schema { return print(SceneSchema.json()) }
        guard let scene else { throw ValidationError("scene \(action.rawValue) needs a scene file") }
        var options = SceneLoadOptions(file: scene, directory: (scene as NSString).deletingLastPathComponent)
        options.arguments = arguments
        options.sets = try SceneRunCommand.parseSets(sets)
        options.checkOnly = action != .print
        options.media = MediaAssetSceneMedia()
        // `print` resolves everything, so it needs what a run needs: every required value, every input probed.
        if action == .print {
            do throws(SceneErrors) { return print(try SceneLoader.resolvedJSON(contentsOf: scene, options: options)) } catch {
                for d in error.diagnostics { StandardError.writeLine("layerplay: error: \(d)") }
                Foundation.exit(1)
            }
        }
        let loaded: LoadedScene
        do throws(SceneErrors) { loaded = try SceneLoader.load(contentsOf: scene, options: options) } catch {
            for d in error.diagnostics { StandardError.writeLine("layerplay: error: \(d)") }
            Foundation.exit(1)  // every problem is printed above; one more summary line would only repeat them
        }
        for w in loaded.warnings { StandardError.writeLine("layerplay: warning: \(w)") }
        switch action {
        case .schema, .print: break  // answered above
        case .check: print("\(scene): ok (\(loaded.params.count) params, \(loaded.inputs.count) inputs)")
        case .params:
            for p in loaded.params {
                var line = "\(p.name): \(p.kind.name)"
                if let pos = p.position { line += ", argument \(pos + 1)" }
                if p.required { line += ", required" }
                if !p.values.isEmpty { line += " (\(p.values.joined(separator: " | ")))" }
                // What a run gets without a value, and what a value may be (issue 30: both were left out).
                if let value = p.defaultValue, let text = Self.text(value) { line += ", default \(text)" }
                switch (p.min, p.max) {
                case (let lo?, let hi?): line += ", \(Self.number(lo))…\(Self.number(hi))"
                case (let lo?, nil): line += ", at least \(Self.number(lo))"
                case (nil, let hi?): line += ", at most \(Self.number(hi))"
                default: break
                }
                if let d = p.doc { line += " — \(d)" }
                print(line)
            }
        }
    }
}
