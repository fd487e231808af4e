import LayerKit
import LayerMedia

extension Layer {
    /// The audio visualisers in the tree (the layer and its sublayers, depth first): what `w` switches.
    var audioVisualizers: [AudioVisualizerLayer] {
        var found: [AudioVisualizerLayer] = []
        func walk(_ layer: Layer) {
            if let v = layer as? AudioVisualizerLayer { found.append(v) }
            for s in layer.sublayers ?? [] { walk(s) }
        }
        walk(self)
        return found
    }
}
