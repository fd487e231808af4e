#ifndef CKERNELS_H
#define CKERNELS_H
// Pixel kernels that need instructions Swift cannot emit for the baseline x86-64 target (AVX2: gathers, byte
// shuffles, 256-bit integer lanes). Each is compiled for AVX2 alone (a function attribute), chosen at run time when
// the CPU has it (`avx2KernelsEnabled`), and has a Swift twin that is the reference in the tests (LayerCompositor's
// SamplerRuns.swift, YUVVectorRuns.swift, GatherKernels.swift and PlaneResampling.swift; LayerGraphics' YUV420Conversion.swift,
// VideoColorConverter.swift and TenBitReduction.swift; LayerCompositor's OpacityBlend.swift and TexelForPixel.swift).
#include <stdint.h>
#include "tsan_annotations.h"

/// 1 when the CPU runs AVX2 and FMA (and the kernels below may be called), else 0. Every CPU with AVX2 has had FMA;
/// the colour converter's kernels fuse multiply-adds as its Swift twin does.
int lp_cpu_has_avx2(void);
/// Whether the CPU has AVX-512 F and VL (the colour converter's polynomial kernel).
int lp_cpu_has_avx512(void);

/// Three 8-bit planes of a 4:2:0 picture.
typedef struct {
    const uint8_t *y, *u, *v;
    long yStride, cStride;
} lp_yuv420_planes;

/// Four 16.16 fixed-point walks over the planes (luma x, y; chroma x, y): start, then a step per pixel.
typedef struct {
    int32_t lx, lsx, ly, lsy, cx, csx, cy, csy;
} lp_yuv420_walks;

/// Y'CbCr → R'G'B' for 8.8 fixed-point inputs: channel = luma·yScale + cb·toX + cr·toX + offsetX.
typedef struct {
    float yScale, cbToB, cbToG, crToG, crToR, b0, g0, r0;
} lp_yuv_matrix;

/// Bilinear samples of a 4:2:0 picture along the walks, as opaque BGRA words, eight pixels at a time.
/// Returns how many pixels were written (count rounded down to a multiple of 8): the caller does the rest.
/// Preconditions: every tap stays inside its plane (both taps of each walk), and reading 4 bytes at each
/// left tap (two past the right one) stays inside the planes' memory.
long lp_yuv420_bilinear_avx2(uint32_t *dst, long count, const lp_yuv420_planes *planes,
                             const lp_yuv420_walks *walks, const lp_yuv_matrix *matrix);

/// A row of pixels mapped projectively into a picture: pixel i (0 at the run's first) samples the texel
/// ((x0 + dx·i) / (w0 + dw·i), (y0 + dy·i) / (w0 + dw·i)), in the luma plane's texel units (centre rule).
typedef struct {
    double x0, dx, y0, dy, w0, dw;
} lp_row_projection;

/// From luma texel coordinates to the four 16.16 walks' positions: position = texel · scale + offset, clamped to
/// 0…limit (limit = (plane size − 1)·65536 − 256: both taps of every position lie inside the plane, and the limit
/// is a float; the low byte of a position is never read).
typedef struct {
    double lumaScaleX, lumaOffsetX, lumaLimitX, lumaScaleY, lumaOffsetY, lumaLimitY;
    double chromaScaleX, chromaOffsetX, chromaLimitX, chromaScaleY, chromaOffsetY, chromaLimitY;
} lp_yuv420_fixing;

/// Bilinear samples of a 4:2:0 picture along a projective row, every pixel projected exactly (one division per
/// pixel), as opaque BGRA words: all `count` pixels. The projection and the fixing run in floats (every constant
/// rounded to a float once): a texel of a picture up to 16384 wide is then off by under 1/1000 of a texel, a
/// quarter of the 8-bit weights' step. The taps and sums are those of the 4:2:0 walk at each pixel's own position,
/// so the Swift twin (the same float operations, in order) is a one-pixel walk per pixel. Precondition:
/// w0 + dw·i > 0 over the run, and reading 4 bytes at each left tap stays inside the planes' memory (the last row
/// of a plane whose rows have fewer than two bytes of padding may be read past its end).
void lp_yuv420_projective_avx2(uint32_t *dst, long count, const lp_yuv420_planes *planes,
                               const lp_row_projection *row, const lp_yuv420_fixing *fixing, const lp_yuv_matrix *matrix);

/// One row of a 4:2:0 picture placed texel for pixel (a projective row whose pixel i samples luma texel column c + i,
/// on texel row r, exactly): the luma bytes from the row's first pixel, and the two chroma rows of each plane from
/// the left tap of the first pixel, whose 16.16 position's fraction is `chromaFraction` (its step is half a sample);
/// `chromaWeightY` is the lower chroma row's 8-bit weight. Luma taps have weight 0 both ways (never clamped).
typedef struct {
    const uint8_t *luma, *cbTop, *cbBottom, *crTop, *crBottom;
    int32_t chromaFraction, chromaWeightY;
} lp_yuv420_texel_row;

/// `lp_yuv420_projective_avx2` on such a row, pixel for pixel the same words, eight pixels at a time: written to
/// `dst`, or with `blend` at `opacity` over it as `lp_blend_over_opacity_avx2` blends. Returns `count` rounded down to
/// a multiple of 8 (the caller does the rest). Reads luma[0, count) and each chroma row's [0, count/2 + 4).
long lp_yuv420_texel_row_avx2(uint32_t *dst, long count, const lp_yuv420_texel_row *row, const lp_yuv_matrix *matrix,
                              float opacity, int blend);

/// A tint blended over `dst` through a bilinear sample of an 8-bit mask along a walk (a shadow): per pixel,
/// m = mask/255, dst = tint·m + dst·(1 − tint.a·m), in the integers of the Swift kernel (`blendTint`), exactly.
/// Returns how many pixels were done: all of them (the last few as a group through a lane mask). Preconditions as
/// for the 4:2:0 walk.
long lp_tint_mask_bilinear_avx2(uint32_t *dst, long count, const uint8_t *mask, long stride,
                                int32_t x, int32_t dx, int32_t y, int32_t dy, uint32_t tint);

/// The fixed-point weights of premultiplied BGRA → 8-bit Y'CbCr, as LayerGraphics' `YUV420Kernel` computes them:
/// Y = (B·yB + R·yR + G·yG + A·yA + yOffset) >> 15 per pixel, and Cb, Cr likewise with the c weights and >> 18 on
/// sums of eight samples (taps ¼, ½, ¼ of two rows, × 8). `yOffset` and `cOffset` include the rounding half.
typedef struct {
    int16_t yB, yR, yG, yA;
    int16_t cbB, cbR, cbG, cbA, crB, crR, crG, crA;
    int32_t yOffset, cOffset;
} lp_bgra_yuv420_weights;

/// The Y codes of `src`'s first pixels, 16 at a time: `count` rounded down to a multiple of 16, which it returns.
/// Bit for bit `YUV420Kernel.luma` (the Swift twin, and the reference in the tests).
long lp_bgra_luma_avx2(uint8_t *dst, const uint32_t *src, long count, lp_bgra_yuv420_weights weights);

/// The Cb and Cr codes at the even columns of a row pair's pixels from `top` and `bottom`, 16 pixels (8 codes) at a
/// time: `count` rounded down to a multiple of 16, which it returns. Reads `top[-1]` and `bottom[-1]` (the left tap
/// of the first column) and nothing at or past `count`: the caller does the steps at the picture's edges. Bit for
/// bit `YUV420Kernel.chroma`.
long lp_bgra_chroma_avx2(uint8_t *cb, uint8_t *cr, const uint32_t *top, const uint32_t *bottom, long count,
                         lp_bgra_yuv420_weights weights);


/// A row of particle pixels (LayerCompositor's ParticleKernel.swift, the Swift twin): texel (u + du·i, v + dv·i) of
/// `tex`, bilinear in 8-bit fixed point with taps outside [ix0, ix1) × [iy0, iy1) clear, times `tint` (B, G, R, A
/// factors of 0…256 in the 16-bit lanes of a 64-bit word, B lowest), then added (`additive`, clamped at 255) or
/// painted over `dst`; bit for bit the Swift kernel, eight pixels at a time. Returns how many pixels were done:
/// `count` rounded down to a multiple of 8 (the caller does the rest). Precondition: |u|, |v| < 2²¹.
long lp_particle_row_avx2(uint32_t *dst, long count, const uint32_t *tex, long stride, int32_t ix0, int32_t iy0,
                          int32_t ix1, int32_t iy1, float u, float v, float du, float dv, uint64_t tint, int additive);

/// Two rows of an 8-bit plane blended into a 16-bit line: line[i] = top[i]·(128 − weight) + bottom[i]·weight, weight
/// in 0…128, 16 columns at a time: `count` rounded down to a multiple of 16, which it returns (the caller does the
/// rest). Bit for bit LayerCompositor's `PlaneResampler.vertical`.
long lp_resample_vertical_avx2(int16_t *line, const uint8_t *top, const uint8_t *bottom, long count, int weight);

/// Output columns from a blended line: dst[i] = (line[index[i]]·w₀ + line[index[i] + 1]·w₁ + 2¹⁴) >> 15, where
/// weights[i] holds w₀ in its low 16 bits and w₁ in its high ones (w₀ + w₁ = 256), 16 columns at a time: `count`
/// rounded down to a multiple of 16, which it returns. Reads up to 17 elements past a column's left tap (the line
/// needs that many past its last one). Bit for bit `PlaneResampler.horizontal`.
long lp_resample_horizontal_avx2(uint8_t *dst, const int16_t *line, const int32_t *index, const int32_t *weights,
                                 long count);

/// Chroma samples of one matrix re-expressed in another (`MatrixChange` in LayerCompositor's PlaneResampling.swift,
/// the Swift twin): with b = Cb − 128 and r = Cr − 128, each output is clamp((k₀·b + k₁·r + 128·2¹² + 2¹¹) >> 12, 0, 255)
/// with (k[0], k[1]) for `dy` (twice the luma's change, around 128), (k[2], k[3]) for `cb2`, (k[4], k[5]) for `cr2`,
/// 16 samples at a time: `count` rounded down to a multiple of 16, which it returns.
long lp_chroma_matrix_avx2(uint8_t *dy, uint8_t *cb2, uint8_t *cr2, const uint8_t *cb, const uint8_t *cr, long count,
                           const int16_t *k);

/// Luma moved by a change stored as twice itself around 128 (`dy` of `lp_chroma_matrix_avx2`, resampled):
/// y[i] = clamp((2·y[i] + dy[i] − 127) >> 1, 0, 255), 16 at a time: `count` rounded down to a multiple of 16, which
/// it returns. Bit for bit `MatrixChange.addHalfChange`.
long lp_add_half_change_avx2(uint8_t *y, const uint8_t *dy, long count);

/// What `VideoColorConverter` converts with: the Y'CbCr → R'G'B' coefficients (0…1 scale), the decode table
/// (`LinearTable`: decodeScale + 1 samples over 0…1), the tone curve's gain on
/// luminance (a `LogTable`; NULL when nothing is tone-mapped) with the source's luminance weights, the source
/// primaries → BT.709 matrix (row-major) and the encode table (a `LogTable`). A `LogTable` is indexed by a float's bits: clamped to logFirstBits…logLastBits − 1, less logFirstBits, the nearest sample's
/// index is that plus half a step, >> logShift (LayerGraphics' ColorTables.swift, which sets these). Tables are read
/// at the nearest sample. cScale: BT.709's Cb and Cr in 8-bit codes per unit of B' − Y' and R' − Y'. blockSpread: the
/// most a 2×2 block's luma codes may spread for the block to be interpolated from two runs of the chain (4:2:0, two
/// rows; negative: never) when neither end of the block lies past a kink of the chain the other does not (a gamut move;
/// a channel below encodeBlack, the light the encode makes code 0). The same curves as 32 cubic pieces each
/// (`PolynomialCurve`: c₀ of the pieces, then c₁, c₂, c₃; decode over 0…1, gain and encode over octaves from the
/// first bits, a piece every 2^shift bits; the encode's without its clamp to 0…1), for the AVX-512 kernel. A converter
/// fills one form, the other's pointers NULL: a NULL gain (tables) or gainCurve (pieces) means no tone mapping.
typedef struct {
    uint32_t logFirstBits, logLastBits;
    int32_t logShift;
    const float *decode;
    float decodeScale;
    const float *gain;
    const float *encode;
    float ys, rCr, gCb, gCr, bCb, yOffset, cOffset;
    float luma[3];
    float m[9];
    float cScale[2];
    float encodeBlack;
    int32_t blockSpread;
    const float *decodeCurve, *gainCurve, *encodeCurve;
    uint32_t gainCurveFirstBits, encodeCurveFirstBits;
    int32_t gainCurveShift, encodeCurveShift;
} lp_video_color;

/// One or two luma rows of an HDR or wide-gamut picture, and the chroma row they share, converted to 8-bit BT.709
/// Y'CbCr, eight luma pixels at a time: Y codes into `yOut0` (and `yOut1` for the second row; NULL with `luma1`
/// NULL for one row), dithered for rows `row` and `row` + 1 (columns from 0); the chroma codes of the covered
/// pixels' average encoded B' − Y' and R' − Y' (rows summed first, then column pairs when `chromaShiftX` is 1,
/// times 1/count) into `cbOut` and `crOut`, dithered for chroma row `chromaRow`. `luma0`, `luma1`, `cb` and `cr`
/// hold samples of `sampleBytes` (1 or 2) bytes. Returns `count` rounded down to a multiple of 8: the caller does
/// the rest. Reads nothing at or past `count` (nor past the chroma sample of the last pixel done). Bit for bit
/// `VideoColorConverter.rowsSwift`.
long lp_video_color_rows_avx2(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut,
                              long count, const void *luma0, const void *luma1, const void *cb, const void *cr,
                              int sampleBytes, int chromaShiftX, long row, long chromaRow);

/// `lp_video_color_rows_avx2` with the polynomial curves (decodeCurve, gainCurve, encodeCurve) in place of the
/// tables, for CPUs with AVX-512 F and VL (`lp_cpu_has_avx512`). Bit for bit `VideoColorConverter.rowsSwift` with
/// its polynomial curves.
long lp_video_color_rows_avx512(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut,
                                long count, const void *luma0, const void *luma1, const void *cb, const void *cr,
                                int sampleBytes, int chromaShiftX, long row, long chromaRow);

/// The chain alone, for the tests (its float results against the Swift twin's, bit for bit): `runs` (1 or 2) runs of
/// eight pixels, run i's luma codes in `codes[8i…8i+7]` and its chroma's R′, G′, B′ terms in `add{R,G,B}[8i…]`, through
/// `lp_video_color_rows_avx2`'s steps (or with `polynomials`, `lp_video_color_rows_avx512`'s, on a CPU that has
/// AVX-512): each pixel's Y′, B′ − Y′, R′ − Y′ and the kinks it passed.
void lp_video_color_chain(const lp_video_color *k, int polynomials, int runs, const int32_t *codes, const float *addR,
                          const float *addG, const float *addB, float *yPrime, float *dB, float *dR, int32_t *kinks);

/// A row of 10-bit samples (in 16-bit words) → 8-bit ones: dst[x] = min((src[x] + d) >> 2, 255), the sum saturating
/// at 65535, with d the 2×2 ordered dither of column x and row `row` (0, 2 on even rows; 3, 1 on odd ones), 16
/// samples at a time: `count` rounded down to a multiple of 16, which it returns (the caller does the rest). Bit for
/// bit `TenBitReduction.reduceRowSwift`.
long lp_reduce10_row_avx2(uint8_t *dst, const uint16_t *src, long count, long row);

/// A row of premultiplied BGRA pixels at `opacity` over another, in place: per channel, with s = src·opacity,
/// dst = s + dst·(1 − s.a / 255), in floats, rounded as `pack` rounds. `count` rounded down to a multiple of 8, which
/// it returns (the caller does the rest). Bit for bit `OpacityBlend.blendRowSwift`.
long lp_blend_over_opacity_avx2(uint32_t *dst, const uint32_t *src, long count, float opacity);

#endif
