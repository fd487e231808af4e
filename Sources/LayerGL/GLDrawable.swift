@_exported import CGLShim
import Foundation
import LayerKit
import Synchronization

/// An OpenGL ES 2 context without a window (EGL, surfaceless: Mesa's llvmpipe renders on the CPU when there is no
/// GPU), for a `DrawableLayer` (SEMANTICS-LAYERS.md §8). Each frame the app's GL callback draws into a framebuffer of
/// the drawable's size; the pixels are read back, rows flipped (GL's origin is bottom-left), into the layer's BGRA
/// buffer. The app renders premultiplied colours, as a `DrawableLayer` expects.
///
/// `GLDrawable.shared` is nil where EGL cannot be had (no libEGL, no surfaceless context, or `LAYERPLAY_NO_EGL=1`),
/// with one warning line; callers then draw with their CPU path.
public final class GLDrawable: @unchecked Sendable {
    /// The GLES 2 entry points; valid only inside a `draw` callback (the context is current there).
    public typealias Functions = LPGLES2

    // The context is used by one thread at a time: each frame makes it current and releases it under this lock.
    private let lock = Mutex(())
    private let context: OpaquePointer

    /// The process's context, made on first use; nil without EGL.
    public static let shared: GLDrawable? = {
        do { return try GLDrawable() } catch {
            try? FileHandle.standardError.write(contentsOf: Data("warning: \(error); drawables use their CPU path\n".utf8))
            return nil
        }
    }()

    /// The C shim's NUL-terminated message buffer as text (invalid UTF-8 repaired).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new context, or `GLError.unavailable` saying why not.
    public init() throws(GLError) {
        var message = [CChar](repeating: 0, count: 256)
        guard let c = lp_gl_create(&message, message.count) else { throw .unavailable(Self.text(message)) }
        context = c
    }

    deinit { lp_gl_destroy(context) }

    /// Renders one `width`×`height` frame with `draw` and returns its pixels as the buffer a `DrawableLayer` takes.
    public func renderFrame(width: Int, height: Int, _ draw: (Functions) throws -> Void) throws -> DrawableTarget {
        var target = DrawableTarget(width: width, height: height)
        try lock.withLock { _ in
            var message = [CChar](repeating: 0, count: 256)
            guard lp_gl_begin(context, Int32(clamping: width), Int32(clamping: height), &message, message.count) == 0 else {
                throw GLError.frameFailed(Self.text(message))
            }
            do { try draw(lp_gl_functions(context).pointee) } catch {
                _ = target.withUnsafeMutablePixels { lp_gl_end(context, Int32(width), Int32(height), $0.baseAddress, nil, 0) }
                throw error
            }
            let status = target.withUnsafeMutablePixels { lp_gl_end(context, Int32(width), Int32(height), $0.baseAddress, &message, message.count) }
            guard status == 0 else { throw GLError.frameFailed(Self.text(message)) }
        }
        return target
    }

    /// A `DrawableLayer.render` callback that draws each frame with GL: `draw` gets the entry points (the frame's
    /// framebuffer bound, viewport set) and the frame, and returns false to keep the previous pixels.
    public func renderCallback(_ draw: @escaping @Sendable (Functions, DrawableFrame) throws -> Bool)
        -> @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool {
        { [self] target, frame in
            var drew = false
            let pixels = try renderFrame(width: frame.width, height: frame.height) { gl in drew = try draw(gl, frame) }
            if drew { target = pixels }
            return drew
        }
    }
}

/// Why GL rendering could not run.
public enum GLError: Error, CustomStringConvertible, Equatable {
    /// No EGL context could be made (the reason from EGL, or "disabled by LAYERPLAY_NO_EGL").
    case unavailable(String)
    /// A frame could not be set up or read back.
    case frameFailed(String)
    /// A shader did not compile or a program did not link (the GL info log).
    case shader(String)

    public var description: String {
        switch self {
        case .unavailable(let why): "OpenGL ES unavailable: \(why)"
        case .frameFailed(let why): "GL frame failed: \(why)"
        case .shader(let log): "GL shader failed: \(log)"
        }
    }
}
