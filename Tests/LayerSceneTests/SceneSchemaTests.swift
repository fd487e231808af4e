import Foundation
import Testing
@testable import LayerScene

@Test func theSchemaNamesTheKeysTheLoaderAccepts() throws {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(SceneSchema.json().utf8)) as? [String: Any])
    #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    let defs = try #require(object["$defs"] as? [String: Any])
    let layer = try #require(defs["layer"] as? [String: Any])
    let properties = try #require(layer["properties"] as? [String: Any])
    #expect(Set(properties.keys) == SceneBuilder.commonKeys.union(SceneBuilder.typeKeys.values.reduce(Set<String>()) { $0.union($1) }))
    #expect(properties["frmae"] == nil && properties["frame"] != nil)
    #expect(((properties["type"] as? [String: Any])?["enum"] as? [String])?.contains("gradient") == true)
    #expect(layer["additionalProperties"] as? Bool == false)
}

@Test func theSchemaDescribesSwitchCutsAndTheirTransitions() throws {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(SceneSchema.json().utf8)) as? [String: Any])
    let layer = try #require((object["$defs"] as? [String: Any])?["layer"] as? [String: Any])
    let properties = try #require(layer["properties"] as? [String: Any])
    #expect(((properties["type"] as? [String: Any])?["enum"] as? [String]).map { $0.contains("switch") && $0.contains("scene") } == true)
    let cut = try #require((properties["cuts"] as? [String: Any])?["items"] as? [String: Any])
    #expect(Set((cut["properties"] as? [String: Any])?.keys.map { $0 } ?? []) == SceneBuilder.cutKeys)
    #expect(cut["required"] as? [String] == ["at", "show"])
    let transition = try #require((cut["properties"] as? [String: Any])?["transition"] as? [String: Any])
    let types = (transition["properties"] as? [String: Any])?["type"] as? [String: Any]
    #expect(types?["enum"] as? [String] == ["fade", "moveIn", "push", "reveal"])
}
