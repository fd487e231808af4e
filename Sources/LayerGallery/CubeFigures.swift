import LayerGraphics
import LayerKit
import LayerMedia

/// Figure 5.21: listing 5.9 with the camera turned (−45° about x, −45° about y): faces 1 (front), 2 (right) and 3
/// (top) in view, unlit, so their edges are hard to tell apart.
let cubeFigure = Figure(name: "5.21-cube", title: "Listing 5.9: six numbered faces folded into a cube, seen from above right with perspective",
                        width: 256, height: 256) { _ in
    CubeView(canvas: 256, lit: false).layer
}

/// Figure 5.22: listing 5.10, the same cube with each face darkened by 1 + n·l − 0.5, light (0, 1, −0.5).
let litCubeFigure = Figure(name: "5.22-lit-cube", title: "Listing 5.10: the cube lit from the face normals: top brightest, front nearly as bright, right side half dark",
                           width: 256, height: 256) { _ in
    CubeView(canvas: 256, lit: true).layer
}

/// Not in the book: the lit cube with face 1 a PlayerLayer playing media/clip.mp4, frozen at 1 s.
let videoCubeFigure = Figure(name: "video-cube", title: "The lit cube with face 1 a PlayerLayer playing clip.mp4 (the frame at 1.0 s)",
                             width: 256, height: 256, time: 1.0) { mediaDirectory in
    let player = try Player(path: mediaDirectory + "/clip.mp4")
    return CubeView(canvas: 256, lit: true) { index in
        guard index == 0 else { return CubeView.numberedFace(index) }
        let face = PlayerLayer(player: player)
        face.name = "video face"
        face.bounds = Rect(x: 0, y: 0, width: CubeView.faceSide, height: CubeView.faceSide)
        face.backgroundColor = .black
        face.videoGravity = .resizeAspectFill
        face.masksToBounds = true
        return face
    }.layer
}

/// Figure 5.21 again, listing 5.9 verbatim: the six faces are plain sublayers of the container, sorted by depth as
/// planes, so faces 4–6 (added later) stay hidden behind 1–3 as in the book.
let literalCubeFigure = Figure(name: "5.9-cube-literal", title: "Listing 5.9 verbatim: the faces as plain sublayers of the container, still drawn back to front",
                               width: 256, height: 256) { _ in
    CubeView(canvas: 256, lit: false, literal: true).layer
}

/// Figure 5.22 again, listing 5.10 verbatim (plain sublayers, each with its lighting layer).
let literalLitCubeFigure = Figure(name: "5.10-lit-cube-literal", title: "Listing 5.10 verbatim: the lit faces as plain sublayers of the container",
                                  width: 256, height: 256) { _ in
    CubeView(canvas: 256, lit: true, literal: true).layer
}
