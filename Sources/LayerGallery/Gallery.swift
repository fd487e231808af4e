import LayerCompositor

/// The figures of chapters 1–8 of "iOS Core Animation: Advanced Techniques", rebuilt with LayerKit
/// (listings ported line by line; the book's bitmaps are drawn procedurally, see `Art`).
public enum Gallery {
    /// Every figure, in the book's order.
    public static let figures: [Figure] = [
        blueLayerFigure,
        spriteSheetFigure,
        stretchableButtonsFigure,
        clockFigure,
        groupOpacityFigure,
        rasterizeFigure,
        rotatedCardFigure,
        perspectiveCardFigure,
        sharedVanishingPointFigure,
        flatteningInZFigure,
        flatteningInYFigure,
        cubeFigure,
        litCubeFigure,
        literalCubeFigure,
        literalLitCubeFigure,
        videoCubeFigure,
        stickFigureFigure,
        roundedCornersFigure,
        roundedCornersMaskFigure,
        textScaleFigure,
        attributedTextFigure,
        transformLayerCubesFigure,
        diagonalGradientFigure,
        gradientLocationsFigure,
        replicatorRingFigure,
        reflectionFigure,
        scrollViewFigureAtOrigin,
        scrollViewFigureScrolled,
        tiledLayerFigureScrolled,
        tiledLayerFigureZoomedOut,
        fireFigure,
        openGLTriangleFigure,
        implicitColourFigure,
        shipAlongPathFigure,
        animationGroupFigure,
        springFigure,
        pushTransitionFigure,
    ]

    /// The figure called `name`, if there is one.
    public static func figure(named name: String) -> Figure? { figures.first { $0.name == name } }

    /// One compositor for every figure: it keeps its threads and pools between renders.
    public static let compositor = Compositor()
}
