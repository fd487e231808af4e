#!/usr/bin/env python3
# Writes the chapter articles of Sources/LayerKit/LayerKit.docc from the ports (Sources/LayerGallery, Examples/)
# and copies the gallery's golden PNGs (what `layerplay gallery` renders) into the catalog's Resources.
import os, re, shutil
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCC = os.path.join(ROOT, "Sources/LayerKit/LayerKit.docc")
GOLD = os.path.join(ROOT, "Tests/LayerGalleryTests/References/gallery")
G = "Sources/LayerGallery/"

CHAPTERS = [
 ("Chapter1-TheLayerTree", "Chapter 1: The Layer Tree",
  "Layers, sublayers and the tree they make: listing 1.1's blue layer.",
  [G+"BlueLayerFigure.swift"], ["1.5-blue-layer"]),
 ("Chapter2-TheBackingImage", "Chapter 2: The Backing Image",
  "A layer's contents: images, contentsRect sprites, contentsCenter stretching and drawing through a delegate.",
  [G+"SpriteSheetFigure.swift", G+"StretchableButtonsFigure.swift", "Examples/LayerDelegate/main.swift"],
  ["2.8-sprites", "2.10-nine-slice"]),
 ("Chapter3-LayerGeometry", "Chapter 3: Layer Geometry",
  "Frame, bounds, position and anchorPoint: the clock whose hands turn about their ends, and hit testing.",
  [G+"ClockFigure.swift", "Examples/HitTest/main.swift"], ["3.7-clock"]),
 ("Chapter4-VisualEffects", "Chapter 4: Visual Effects",
  "Corner radius, borders, shadows, masks and group opacity: a translucent button with and without rasterization.",
  [G+"GroupOpacityFigures.swift"], ["4.20-group-opacity", "4.21-rasterize"]),
 ("Chapter5-Transforms", "Chapter 5: Transforms",
  "Affine and 3D transforms, perspective, the vanishing point, flattening and the cube.",
  [G+"RotatedCardFigures.swift", G+"VanishingPointFigure.swift", G+"FlatteningFigures.swift", G+"CubeFigures.swift", G+"CubeView.swift"],
  ["5.8-rotate-y", "5.10-perspective", "5.13-vanishing-point", "5.16-opposite-z", "5.18-opposite-y", "5.21-cube", "5.22-lit-cube"]),
 ("Chapter6-SpecializedLayers", "Chapter 6: Specialized Layers",
  "Shape, text, transform, gradient, replicator, scroll, emitter and drawable layers.",
  [G+"ShapeFigures.swift", G+"TextFigures.swift", G+"TransformLayerCubesFigure.swift", G+"GradientFigures.swift",
   G+"ReplicatorFigures.swift", G+"ScrollFigures.swift", G+"EmitterFigures.swift", G+"DrawableFigure.swift"],
  ["6.1-stick-figure", "6.x-rounded-corners", "6.x-rounded-corners-mask", "6.2-text-layer-scale", "6.3-attributed-text",
   "6.5-transform-layer-cubes", "6.6-diagonal-gradient", "6.7-gradient-locations", "6.8-replicator-ring", "6.9-reflection",
   "6.10-scroll-view", "6.13-fire", "6.15-opengl-triangle"]),
 ("Chapter7-ImplicitAnimations", "Chapter 7: Implicit Animations",
  "Transactions and the animations a property change makes by itself.",
  [G+"AnimationFigures.swift#implicitColourFigure"], ["7-implicit-colour"]),
 ("Chapter8-ExplicitAnimations", "Chapter 8: Explicit Animations",
  "Basic, keyframe, spring and grouped animations and transitions.",
  ["Examples/Animations/main.swift"], ["8-ship-along-path", "8-animation-group", "8-spring", "8-push-transition"]),
]

def resource(name):  # DocC names a resource by its file name without extension, so no dots in it
    return "figure-" + name.replace(".", "-")

def title_of(name):
    for path in os.listdir(os.path.join(ROOT, G)):
        m = re.search(r'name: "%s",\s*title: "([^"]*)"' % re.escape(name), open(os.path.join(ROOT, G, path)).read())
        if m: return m.group(1)
    return name

def listing(path):
    """A file without its imports, or with `path#name` only the top-level declaration of `name` and the doc comment
    above it (up to its closing brace at the start of a line)."""
    path, _, name = path.partition("#")
    lines = [l for l in open(os.path.join(ROOT, path)).read().splitlines() if not l.startswith("import ")]
    if name:
        start = next(i for i, l in enumerate(lines) if re.match(r"(let|var|struct|final class|class|enum|func) %s\b" % name, l))
        while start > 0 and lines[start - 1].startswith("///"): start -= 1
        end = next(i for i in range(start, len(lines)) if lines[i] == "}")
        lines = lines[start:end + 1]
    return "\n".join(lines).strip("\n")

os.makedirs(os.path.join(DOCC, "Resources"), exist_ok=True)
for slug, title, abstract, files, figures in CHAPTERS:
    out = ["# %s" % title, "", abstract, "", "## Overview", "",
           "These are the book's listings ported to LayerKit (from `Sources/LayerGallery` and `Examples/`), and the pictures "
           "they make: `layerplay gallery` renders them, and the gallery's tests compare every render with these images.", ""]
    for name in figures:
        shutil.copy(os.path.join(GOLD, name + ".png"), os.path.join(DOCC, "Resources", resource(name) + ".png"))
        out += ["![%s](%s)" % (title_of(name).replace("[", "(").replace("]", ")"), resource(name)), ""]
    out += ["## Listings", ""]
    for path in files:
        out += ["### `%s`" % path.partition("#")[0], "", "```swift", listing(path), "```", ""]
    open(os.path.join(DOCC, slug + ".md"), "w").write("\n".join(out))
