import Foundation
import LayerKit

/// The JSON Schema (2020-12) of the scene format this build reads, for editors (`layerplay scene schema`): key
/// names come from the same tables the loader checks against, so the schema cannot drift from the reader. Values
/// are left open where `$name` and `=expr` may stand for them; structure, key names and type names are closed.
public enum SceneSchema {
    public static func json() -> String {
        let layerTypes = Array(SceneBuilder.typeKeys.keys).sorted()
        let layerKeys = SceneBuilder.commonKeys.union(SceneBuilder.typeKeys.values.reduce(Set<String>()) { $0.union($1) })
        let animationKeys = SceneBuilder.timingKeys.union(SceneBuilder.animationKeys.values.reduce(Set<String>()) { $0.union($1) })
        let schema: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://layerplay.invalid/scene-1.schema.json",
            "title": "layerplay scene, format \(SceneLoader.readsMajor).x",
            "type": "object",
            "required": ["version", "layers"],
            "additionalProperties": false,
            "properties": [
                "version": ["type": "string", "pattern": "^\(SceneLoader.readsMajor)\\.[0-9]+$"],
                "name": ["type": "string"],
                "canvas": closed(SceneLoader.canvasKeys),
                "params": ["type": "object", "additionalProperties": param()],
                "let": ["type": "object"],
                "inputs": ["type": "object", "additionalProperties": closed(SceneLoader.inputKeys, required: ["src"])],
                "layers": ["type": "array", "items": ["$ref": "#/$defs/layer"]],
                "audio": ["type": "string"],
            ],
            "$defs": [
                "layer": closed(layerKeys, overrides: [
                    "type": ["enum": layerTypes],
                    "sublayers": ["type": "array", "items": ["$ref": "#/$defs/layer"]],
                    "mask": ["$ref": "#/$defs/layer"],
                    "animations": ["type": "array", "items": ["$ref": "#/$defs/animation"]],
                    "set": ["type": "object"],
                    "cuts": ["type": "array", "items": closed(SceneBuilder.cutKeys, required: ["at", "show"], overrides: [
                        "transition": closed(SceneBuilder.transitionKeys, overrides: [
                            "type": ["enum": TransitionType.allCases.map(\.rawValue)],
                            "subtype": ["enum": TransitionSubtype.allCases.map(\.rawValue)],
                        ]),
                    ])],
                ]),
                "animation": closed(animationKeys, required: ["type"], overrides: [
                    "type": ["enum": Array(SceneBuilder.animationKeys.keys).sorted()],
                    "animations": ["type": "array", "items": ["$ref": "#/$defs/animation"]],
                    "keys": ["type": "array", "items": closed(SceneBuilder.keyKeys, required: ["t", "v"])],
                ]),
            ],
        ]
        let data = try! JSONSerialization.data(withJSONObject: schema, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    private static func param() -> [String: Any] {
        closed(SceneLoader.paramKeys, required: ["type"], overrides: [
            "type": ["anyOf": [["enum": SceneParam.Kind.names.keys.sorted()], ["type": "string", "pattern": "^list:"]]],
        ])
    }

    /// An object with exactly `keys` (values open unless overridden).
    private static func closed(_ keys: Set<String>, required: [String] = [], overrides: [String: Any] = [:]) -> [String: Any] {
        var properties: [String: Any] = [:]
        for k in keys { properties[k] = overrides[k] ?? [String: Any]() }
        var o: [String: Any] = ["type": "object", "additionalProperties": false, "properties": properties]
        if !required.isEmpty { o["required"] = required }
        return o
    }
}
