// swift-tools-version:6.0
import PackageDescription

// Module arrows point down (see docs/spec/ARCHITECTURE.md):
// layerplay -> LayerGallery (the book's figures) -> LayerMedia; layerplay -> LayerDisplay -> LayerMedia -> LayerCompositor -> LayerKit -> LayerGraphics -> CCairo, CKernels
let package = Package(
    name: "layerplay",
    products: [
        .library(name: "LayerGraphics", targets: ["LayerGraphics"]),
        .library(name: "LayerKit", targets: ["LayerKit"]),
        .library(name: "LayerCompositor", targets: ["LayerCompositor"]),
        .library(name: "LayerMedia", targets: ["LayerMedia"]),
        .library(name: "LayerDisplay", targets: ["LayerDisplay"]),
        .library(name: "LayerGallery", targets: ["LayerGallery"]),
        .library(name: "LayerScene", targets: ["LayerScene"]),
        .executable(name: "layerplay", targets: ["layerplay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the DocC catalogs, one per library (Sources/<Library>/<Library>.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries. Every FFmpeg library is listed in pkgConfig so that C targets link.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample libavfilter",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        // Little CMS: pictures with an embedded ICC profile (Display P3 photos) into sRGB.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CSDL2",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // libass: ASS/SSA subtitles drawn with their styles, positions and effects (LayerMedia's SubtitleLayer).
        .systemLibrary(
            name: "CLibass",
            pkgConfig: "libass",
            providers: [.apt(["libass-dev"])]
        ),
        .target(name: "CShims", dependencies: ["CFFmpeg"]),
        // AVX2 kernels (the samplers' gathers, the movie writer's BGRA → YUV) chosen at run time; each has a Swift twin that
        // the tests compare it with.
        .target(name: "CKernels"),

        .target(name: "LayerGraphics", dependencies: ["CCairo", "CKernels"]),
        .target(name: "LayerKit", dependencies: ["LayerGraphics"]),
        .target(name: "LayerCompositor", dependencies: ["LayerKit", "LayerGraphics", "CKernels"]),
        .target(name: "LayerMedia", dependencies: ["LayerKit", "LayerCompositor", "LayerGraphics", "CFFmpeg", "CShims", "CLibass", "CLCMS2"]),
        .target(name: "LayerDisplay", dependencies: ["LayerMedia", "LayerCompositor", "CSDL2"]),
        // The book's figures of chapters 1–5 rebuilt with LayerKit (`layerplay gallery`).
        .target(name: "LayerGallery", dependencies: ["LayerKit", "LayerGraphics", "LayerCompositor", "LayerMedia", "LayerGL"]),
        // OpenGL ES for DrawableLayer through surfaceless EGL; libEGL/libGLESv2 are opened at run time (dlopen), so
        // a machine without them still runs (the headers, libegl-dev and libgles-dev, are needed to build).
        .target(name: "CGLShim", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "LayerGL", dependencies: ["LayerKit", "LayerGraphics", "CGLShim"]),
        // Scene files (SCENES.md): JSONC with positions → checked values → a layer tree and its inputs.
        .target(name: "LayerScene", dependencies: ["LayerKit", "LayerGraphics", "LayerMedia"]),
        .executableTarget(
            name: "layerplay",
            dependencies: [
                "LayerGraphics", "LayerKit", "LayerCompositor", "LayerMedia", "LayerDisplay", "LayerGallery", "LayerScene", "CShims",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // What a Swift developer copies first: a video card exported with the public API only.
        .executableTarget(name: "VideoCard", dependencies: ["LayerGraphics", "LayerKit", "LayerMedia"], path: "Examples/VideoCard"),
        // Listings of "iOS Core Animation: Advanced Techniques" ported line by line (chapters 2 and 3).
        .executableTarget(name: "LayerDelegate", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/LayerDelegate"),
        .executableTarget(name: "Clock", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/Clock"),
        .executableTarget(name: "HitTest", dependencies: ["LayerGraphics", "LayerKit"], path: "Examples/HitTest"),
        .executableTarget(name: "Animations", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/Animations"),
        // Chapter 6's shape layer listings: the stick figure (6.1) and the three rounded corners.
        .executableTarget(name: "ShapeLayer", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/ShapeLayer"),
        // Listings 6.6 and 6.7: gradient layers.
        .executableTarget(name: "GradientLayer", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/GradientLayer"),

        // A lower third (gradient band + sliding title) over a full-frame video, exported or played (issue 17).
        .executableTarget(name: "LowerThird", dependencies: ["LayerGraphics", "LayerKit", "LayerMedia", "LayerDisplay"], path: "Examples/LowerThird"),
        .executableTarget(name: "TextLayer", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/TextLayer"),
        // Listing 6.13: an emitter layer's fire, a few frames to PNG (issue 18).
        .executableTarget(name: "Drawable", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor", "LayerGL", "LayerGallery"], path: "Examples/Drawable"),
        .executableTarget(name: "Emitter", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor"], path: "Examples/Emitter"),
        // Listing 6.11, the tile cutter; listing 6.12 in a window at 20,000² points (drag to pan; --bench pans headless).
        .executableTarget(name: "TileCutter", dependencies: ["LayerGraphics", "LayerGallery"], path: "Examples/TileCutter"),
        .executableTarget(name: "TiledViewer", dependencies: ["LayerGraphics", "LayerKit", "LayerCompositor", "LayerMedia", "LayerDisplay",
                                                              "LayerGallery", "CSDL2"], path: "Examples/TiledViewer"),

        .target(name: "TestSupport", dependencies: ["LayerGraphics"], path: "Tests/TestSupport"),
        .testTarget(name: "LayerGraphicsTests", dependencies: ["LayerGraphics", "TestSupport"]),
        .testTarget(name: "LayerKitTests", dependencies: ["LayerKit"]),
        .testTarget(
            name: "LayerCompositorTests",
            dependencies: ["LayerCompositor", "LayerKit", "LayerGraphics", "CKernels", "TestSupport"],
            exclude: ["References"]
        ),
        .testTarget(
            name: "LayerMediaTests",
            dependencies: ["LayerMedia", "LayerCompositor", "LayerKit", "LayerGraphics", "TestSupport"],
            exclude: ["References"]
        ),
        .testTarget(
            name: "LayerGalleryTests",
            dependencies: ["LayerGallery", "LayerKit", "LayerGraphics", "TestSupport", "LayerGL"],
            exclude: ["References"]
        ),
        .testTarget(name: "LayerSceneTests", dependencies: ["LayerScene", "LayerKit", "LayerGraphics", "LayerMedia", "TestSupport", "LayerCompositor"], exclude: ["References"]),
        .testTarget(name: "LayerplayCLITests", dependencies: ["LayerGraphics", "TestSupport"], exclude: ["References"]),
        // Playback against a real clock: `make test` runs these on their own (nothing else competing for the cores).
        .testTarget(name: "LayerDisplayTests", dependencies: ["LayerDisplay", "LayerMedia", "LayerKit", "LayerCompositor", "LayerGraphics", "CSDL2", "TestSupport", "LayerScene"]),
    ]
)
