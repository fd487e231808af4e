// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses for layerplay (`make fuzz`, see README). A package of its own, depending on ours by path,
// because a fuzz target has no `main` (libFuzzer brings it when linked with -sanitize=fuzzer): inside the main
// package it would break `swift build` and `make test`. Build only through `make fuzz`.
let package = Package(
    name: "layerplay-fuzz",
    dependencies: [
        .package(name: "layerplay", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzer"),
        // Each input written to a file, as the product opens media: by path.
        .target(name: "FuzzSupport"),
        // Open, probe and decode a few frames of any container, as `layerplay FILE` does.
        .executableTarget(name: "FuzzMedia", dependencies: ["CFuzzer", "FuzzSupport", .product(name: "LayerMedia", package: "layerplay")]),
        // Still images as `--mask`/image inputs read them: ImageLoader.load.
        .executableTarget(name: "FuzzImage", dependencies: ["CFuzzer", "FuzzSupport", .product(name: "LayerMedia", package: "layerplay")]),
        // Scene files as `layerplay SCENE.json` reads them: the loader with a media double, no file touched.
        .executableTarget(name: "FuzzScene", dependencies: ["CFuzzer", .product(name: "LayerScene", package: "layerplay"),
                                                            .product(name: "LayerKit", package: "layerplay"),
                                                            .product(name: "LayerGraphics", package: "layerplay"),
                                                            .product(name: "LayerMedia", package: "layerplay")]),
    ]
)
