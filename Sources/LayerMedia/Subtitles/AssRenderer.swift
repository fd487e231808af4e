import CLibass
import Foundation
import LayerGraphics

/// Draws an ASS/SSA track with libass: its styles, positions and effects, at a frame size. libass gives alpha
/// bitmaps with one colour each; they are tinted and composited, in order, into a premultiplied BGRA `Image` of
/// the area they cover. A frame is composited again only when libass reports a change (`detect_change`) or
/// the frame size changed; otherwise the last picture is kept. A font the script names that is not installed is
/// replaced by fontconfig's nearest match. Not thread-safe: one owner (the layer) uses it.
final class AssRenderer {
    /// What one time shows: the picture and where it goes in the frame (nil when nothing shows).
    struct Frame {
        var image: Image
        var origin: (x: Int, y: Int)
    }

    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private let track: UnsafeMutablePointer<ASS_Track>
    private var frameSize: (width: Int, height: Int) = (0, 0)
    private var last: Frame?

    init?(_ subtitles: SubtitleTrack) {
        guard let library = ass_library_init() else { return nil }
        // libass logs font matching and script warnings on stderr; the command line speaks for itself.
        ass_set_message_cb(library, { _, _, _, _ in }, nil)
        guard let renderer = ass_renderer_init(library) else { ass_library_done(library); return nil }
        guard let track = ass_new_track(library) else { ass_renderer_done(renderer); ass_library_done(library); return nil }
        self.library = library
        self.renderer = renderer
        self.track = track
        // Fonts through fontconfig; "sans-serif" where the script's font is not installed.
        ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        var header = Array(subtitles.assHeader.utf8CString.dropLast())
        header.withUnsafeMutableBufferPointer { ass_process_codec_private(track, $0.baseAddress, Int32($0.count)) }
        for cue in subtitles.cues {
            var event = Array(cue.assEvent.utf8CString.dropLast())
            let duration = Swift.min(cue.end - cue.start, Int64(Int32.max))
            event.withUnsafeMutableBufferPointer { ass_process_chunk(track, $0.baseAddress, Int32($0.count), cue.start, duration) }
        }
    }

    deinit {
        ass_free_track(track)
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// The picture at `millisecond` for a frame of `width`×`height` pixels (the video's storage size too).
    func frame(width: Int, height: Int, at millisecond: Int64) -> Frame? {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        var resized = false
        if frameSize != (width, height) {
            frameSize = (width, height)
            ass_set_frame_size(renderer, Int32(width), Int32(height))
            ass_set_storage_size(renderer, Int32(width), Int32(height))
            resized = true
        }
        var change: Int32 = 0
        let images = ass_render_frame(renderer, track, millisecond, &change)
        if change == 0 && !resized { return last }
        last = Self.composite(images, width: width, height: height)
        return last
    }

    /// Tints each alpha bitmap by its colour (RGBA, A = transparency) and lays it over the ones before, into one
    /// image of their bounding box, clipped to the frame.
    static func composite(_ first: UnsafeMutablePointer<ASS_Image>?, width: Int, height: Int) -> Frame? {
        var minX = width, minY = height, maxX = 0, maxY = 0
        var node = first
        while let image = node {
            let i = image.pointee
            if i.w > 0 && i.h > 0 {
                minX = min(minX, max(0, Int(i.dst_x))); minY = min(minY, max(0, Int(i.dst_y)))
                maxX = max(maxX, min(width, Int(i.dst_x) + Int(i.w))); maxY = max(maxY, min(height, Int(i.dst_y) + Int(i.h)))
            }
            node = i.next
        }
        guard maxX > minX, maxY > minY else { return nil }
        let boxWidth = maxX - minX
        let picture = Image(width: boxWidth, height: maxY - minY) { pixels in
            var node = first
            while let image = node {
                let i = image.pointee
                node = i.next
                guard i.w > 0, i.h > 0, let bitmap = i.bitmap else { continue }
                let color = i.color
                let r = (color >> 24) & 0xff, g = (color >> 16) & 0xff, b = (color >> 8) & 0xff
                let opacity = 255 - (color & 0xff)
                let x0 = max(0, Int(i.dst_x)), x1 = min(width, Int(i.dst_x) + Int(i.w))
                let y0 = max(0, Int(i.dst_y)), y1 = min(height, Int(i.dst_y) + Int(i.h))
                guard x1 > x0, y1 > y0 else { continue }
                for y in y0..<y1 {
                    let source = bitmap + (y - Int(i.dst_y)) * Int(i.stride) - Int(i.dst_x)
                    let row = (y - minY) * boxWidth - minX
                    for x in x0..<x1 {
                        let coverage = UInt32(source[x])
                        guard coverage != 0 else { continue }
                        let a = (coverage * opacity + 127) / 255
                        guard a != 0 else { continue }
                        let under = pixels[row + x]
                        let keep = 255 - a
                        // Source over destination, premultiplied: out = src·a + dst·(1 − a).
                        func channel(_ shift: UInt32, _ value: UInt32) -> UInt32 {
                            let d = (under >> shift) & 0xff
                            return min(255, (value * a + d * keep + 127) / 255) << shift
                        }
                        pixels[row + x] = channel(0, b) | channel(8, g) | channel(16, r) | channel(24, 255)
                    }
                }
            }
        }
        return Frame(image: picture, origin: (minX, minY))
    }
}
