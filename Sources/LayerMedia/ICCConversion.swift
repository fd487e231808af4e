import CFFmpeg
import CLCMS2
import Foundation

/// Pictures with an embedded ICC profile (PNG iCCP, JPEG APP2 — iPhone photos are Display P3 —, and any format
/// whose FFmpeg decoder exports one) converted into the compositor's space, sRGB, with lcms2 (perceptual intent).
/// Pictures without a profile keep today's rules.
enum ICCConversion {
    /// The frame's ICC profile, when its decoder exported one.
    static func profile(of frame: UnsafeMutablePointer<AVFrame>) -> UnsafeMutableBufferPointer<UInt8>? {
        guard let side = av_frame_get_side_data(frame, AV_FRAME_DATA_ICC_PROFILE), side.pointee.size > 0,
              let data = side.pointee.data else { return nil }
        return UnsafeMutableBufferPointer(start: data, count: Int(side.pointee.size))
    }

    /// Converts straight (not premultiplied) BGRA rows in place from `profile` to sRGB; alpha is kept. Returns why it
    /// could not (a damaged or non-RGB profile), in which case the pixels are untouched.
    static func convertToSRGB(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int,
                              profile: UnsafeRawBufferPointer) -> String? {
        guard profile.count >= 128, profile.count <= Int(UInt32.max),
              let source = cmsOpenProfileFromMem(profile.baseAddress, cmsUInt32Number(profile.count)) else {
            return "its ICC profile cannot be read"
        }
        defer { cmsCloseProfile(source) }
        guard cmsGetColorSpace(source) == cmsSigRgbData else { return "its ICC profile is not an RGB one" }
        guard let srgb = cmsCreate_sRGBProfile() else { return "lcms2 cannot make an sRGB profile" }
        defer { cmsCloseProfile(srgb) }
        let type = lp_cms_type_bgra_8()
        guard let transform = cmsCreateTransform(source, type, srgb, type, cmsUInt32Number(INTENT_PERCEPTUAL),
                                                 cmsUInt32Number(cmsFLAGS_COPY_ALPHA)) else {
            return "lcms2 cannot convert from its ICC profile"
        }
        defer { cmsDeleteTransform(transform) }
        for y in 0..<height {
            let row = pixels + y * bytesPerRow
            cmsDoTransform(transform, row, row, cmsUInt32Number(width))
        }
        return nil
    }

    /// A Display P3 profile (P3 primaries, D65, the sRGB curve), as iPhone photos embed: for tests and tools.
    static func displayP3Profile() -> [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                        Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, &parameters) else { return [] }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return [] }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return [] }
        return bytes
    }
}
