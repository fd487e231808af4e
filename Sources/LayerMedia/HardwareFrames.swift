import CFFmpeg
import CShims
import Foundation

/// The device and frame pool of a hardware encoder that takes only pictures in device memory (VAAPI's
/// `h264_vaapi`, `hevc_vaapi`): pictures are converted to the pool's software format (NV12) as for any encoder,
/// then uploaded. Encoders that open their device themselves and take pictures from memory (NVENC) need none of
/// this: where their device is missing, opening them fails with the driver's reason.
final class HardwareFrames {
    private var device: UnsafeMutablePointer<AVBufferRef>?
    private var pool: UnsafeMutablePointer<AVBufferRef>?
    private var uploaded: UnsafeMutablePointer<AVFrame>?
    /// The format pictures are converted to before the upload.
    let softwareFormat = AV_PIX_FMT_NV12

    /// The device type and picture format of an encoder that lists only hardware formats, else nil.
    static func needed(by codec: UnsafePointer<AVCodec>) -> (type: AVHWDeviceType, format: AVPixelFormat)? {
        let formats = VideoEncoderSetup.pixelFormats(of: codec)
        guard !formats.isEmpty, formats.allSatisfy({ isHardware($0) }) else { return nil }
        var i: Int32 = 0
        while let config = avcodec_get_hw_config(codec, i) {
            if Int(config.pointee.methods) & Int(AV_CODEC_HW_CONFIG_METHOD_HW_FRAMES_CTX) != 0 {
                return (config.pointee.device_type, config.pointee.pix_fmt)
            }
            i += 1
        }
        return nil
    }

    static func isHardware(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) != 0
    }

    /// Opens the system's default device of the kind and a pool of `width`×`height` frames on it, and hands the
    /// pool to the encoder. One error line when there is no device (no `/dev/dri` render node, no driver).
    init(_ kind: (type: AVHWDeviceType, format: AVPixelFormat), encoder enc: UnsafeMutablePointer<AVCodecContext>,
         codecName: String, width: Int32, height: Int32, path: String) throws {
        let typeName = av_hwdevice_get_type_name(kind.type).map { String(cString: $0) } ?? "hardware"
        var created: UnsafeMutablePointer<AVBufferRef>? = nil
        let opened = FFmpegLogging.reason { av_hwdevice_ctx_create(&created, kind.type, nil, nil, 0) }
        guard opened.status >= 0, let created else {
            // libva says why only at verbose level; where the kernel has no render node, that is why.
            if kind.type == AV_HWDEVICE_TYPE_VAAPI && !FileManager.default.fileExists(atPath: "/dev/dri") {
                throw MediaError("cannot write '\(path)': \(codecName) needs a VAAPI device and this system has none (no /dev/dri render node)")
            }
            throw MediaError.ffmpeg("cannot write '\(path)': \(codecName) needs a \(typeName) device and none could be opened", opened)
        }
        device = created
        guard let frames = av_hwframe_ctx_alloc(created) else { throw MediaError("out of memory") }
        pool = frames
        let context = UnsafeMutableRawPointer(frames.pointee.data).assumingMemoryBound(to: AVHWFramesContext.self)
        context.pointee.format = kind.format
        context.pointee.sw_format = softwareFormat
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.initial_pool_size = 8
        let ready = FFmpegLogging.reason { av_hwframe_ctx_init(frames) }
        guard ready.status >= 0 else {
            throw MediaError.ffmpeg("cannot write '\(path)': the \(typeName) device takes no \(width)x\(height) NV12 pictures", ready)
        }
        enc.pointee.hw_frames_ctx = av_buffer_ref(frames)
        enc.pointee.pix_fmt = kind.format
    }

    deinit {
        av_frame_free(&uploaded)
        av_buffer_unref(&pool)
        av_buffer_unref(&device)
    }

    /// `frame` (in `softwareFormat`) copied to a frame of the pool, with its time; valid until the next upload.
    func upload(_ frame: UnsafeMutablePointer<AVFrame>, path: String) throws -> UnsafeMutablePointer<AVFrame> {
        av_frame_free(&uploaded)
        guard let target = av_frame_alloc() else { throw MediaError("out of memory") }
        uploaded = target
        var status = av_hwframe_get_buffer(pool, target, 0)
        if status >= 0 { status = av_hwframe_transfer_data(target, frame, 0) }
        guard status >= 0 else { throw MediaError.ffmpeg("cannot upload a picture for '\(path)'", status) }
        target.pointee.pts = frame.pointee.pts
        return target
    }
}
