"""layerplay-farm: segmented exports and batches of a scene rendered by the layerplay binary on a Ray cluster.

`render` cuts one export into the plan `layerplay … --segments N --plan` prints, renders each segment on a node
(`layerplay … --frames A:B`), the sound and soft subtitles once (`--audio-only`, when the plan lists either), and
joins them (`layerplay join`); `batch` renders a
scene once per row of a CSV or JSONL file. Outputs come back as bytes through Ray's object store.
"""
__version__ = "0.1.0"
