// HDR and wide-gamut video → 8-bit SDR BT.709 where the CPU has AVX-512 (F and VL; video_color_body.h has the chain
// around the steps): the chain's steps run sixteen pixels a register, and the curves are 32 cubic pieces
// (`PolynomialCurve`), a piece's four coefficients picked for sixteen pixels by one two-register permute each, where
// the AVX2 kernel's tables need a gather a curve for eight. (The permutes at eight pixels a register measured no
// faster than the gathers: per pixel a curve cost 0.39 ns against 0.42; at sixteen, 0.21.) 4:2:0 two rows a call,
// HDR video's case, goes sixteen columns at a time (video_color_blocks16.h). Bit for bit
// `VideoColorConverter.rowsSwift` with its polynomial curves.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define VC_TARGET __attribute__((target("avx2,fma,avx512f,avx512vl")))
#define VC_AVX512 1
#define VC_CHAIN_NAME lp_video_color_chain_avx512

#include "video_color_chunk.h"

/// Two eight-lane registers as one of sixteen lanes (`lo` in lanes 0…7), and the low half back (an odd last run).
VC_TARGET static inline __m512 join(__m256 lo, __m256 hi) {
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}
VC_TARGET static inline __m256 low_half(__m512 v) { return _mm512_castps512_ps256(v); }

/// A curve's 32 pieces in registers: coefficient k of pieces 0…15 in `lo[k]`, of 16…31 in `hi[k]` (a curve over
/// octaves: rotated, see `octave_curve_in_registers`); for a curve over octaves, also its range of bits, the mask of
/// the bits that make t, 1.0's bits, the scale from 1 + those bits to t, and the shift that makes the piece.
/// Loaded once before a step's loop: read from `lp_video_color` in the loop, the compiler reloaded the eight tables
/// for every sixteen pixels, since the stores to the step's outputs might have changed them.
typedef struct {
    __m512 lo[4], hi[4];
    __m512i first, last, mask, one;
    __m512 scale;
    __m128i shift;
} curve_registers;

/// A curve over 0…1 (`unit_curve`): its pieces alone (the octave fields are left unset).
VC_TARGET static inline curve_registers unit_curve_in_registers(const float *c) {
    curve_registers r;
    for (int k = 0; k < 4; k++) {
        r.lo[k] = _mm512_loadu_ps(c + 32 * k);
        r.hi[k] = _mm512_loadu_ps(c + 32 * k + 16);
    }
    return r;
}

/// A curve over octaves (`octave_curve`): its pieces and how its bits make a piece and t. The pieces are rotated so
/// that a value's own bits >> shift pick its piece by their low five bits (all a permute reads): piece i sits at
/// (i + first piece) mod 32, where the first piece is firstBits >> shift. (The value's bits less firstBits, as the
/// twin computes them, then needs no subtraction: firstBits' low `shift` bits are 0.)
VC_TARGET static inline curve_registers octave_curve_in_registers(const float *c, uint32_t firstBits, int shift) {
    curve_registers r = unit_curve_in_registers(c);
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i rotation = _mm512_set1_epi32((int32_t)(firstBits >> shift));
    const __m512i lowIndex = _mm512_sub_epi32(lanes, rotation), highIndex = _mm512_add_epi32(lowIndex, _mm512_set1_epi32(16));
    for (int k = 0; k < 4; k++) {
        __m512 lo = _mm512_permutex2var_ps(r.lo[k], lowIndex, r.hi[k]), hi = _mm512_permutex2var_ps(r.lo[k], highIndex, r.hi[k]);
        r.lo[k] = lo; r.hi[k] = hi;
    }
    r.first = _mm512_set1_epi32((int32_t)firstBits);
    r.last = _mm512_set1_epi32((int32_t)(firstBits + (32u << shift) - 1));
    r.mask = _mm512_set1_epi32((1 << shift) - 1);
    r.one = _mm512_set1_epi32(0x3F800000);
    r.scale = _mm512_set1_ps((float)(1 << (23 - shift)));
    r.shift = _mm_cvtsi32_si128(shift);
    return r;
}

/// The cubic of piece `piece` (0…31) at t: ((c₃·t + c₂)·t + c₁)·t + c₀, each step one fused multiply-add.
VC_TARGET static inline __m512 cubic(const curve_registers *c, __m512i piece, __m512 t) {
#define COEFFICIENT(k) _mm512_permutex2var_ps(c->lo[k], piece, c->hi[k])
    __m512 v = _mm512_fmadd_ps(COEFFICIENT(3), t, COEFFICIENT(2));
    v = _mm512_fmadd_ps(v, t, COEFFICIENT(1));
    return _mm512_fmadd_ps(v, t, COEFFICIENT(0));
#undef COEFFICIENT
}

/// A curve over 0…1 in 32 even pieces (`PolynomialCurve.Domain.unit`), x clamped to 0…1.
VC_TARGET static inline __m512 unit_curve(const curve_registers *c, __m512 x) {
    __m512 p = _mm512_mul_ps(_mm512_min_ps(_mm512_max_ps(x, _mm512_setzero_ps()), _mm512_set1_ps(1)), _mm512_set1_ps(32));
    __m512i piece = _mm512_min_epi32(_mm512_cvttps_epi32(p), _mm512_set1_epi32(31));
    return cubic(c, piece, _mm512_sub_ps(p, _mm512_cvtepi32_ps(piece)));
}

/// A curve over octaves at bits within its range: t is the bits below the piece's as a fraction, made exact by
/// putting them in 1.0's mantissa (one ternary logic op) and taking 1 away, times 2 where a piece is half an octave
/// (the twin's integer-to-float conversion and scale give the same value: both are exact).
VC_TARGET static inline __m512 octave_curve_at(const curve_registers *c, __m512i bits) {
    __m512 oneAndT = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(bits, c->mask, c->one, 0xEA));  // (bits & mask) | one
    __m512 t = _mm512_fmsub_ps(oneAndT, c->scale, c->scale);
    return cubic(c, _mm512_srl_epi32(bits, c->shift), t);
}

/// A curve over octaves (`PolynomialCurve.Domain.octaves`), indexed by x's bits (x ≥ 0), clamped to the range.
VC_TARGET static inline __m512 octave_curve(const curve_registers *c, __m512 x) {
    return octave_curve_at(c, _mm512_min_epu32(_mm512_max_epu32(_mm512_castps_si512(x), c->first), c->last));
}

/// The same curve of x clamped to 0…1 first, in one signed clamp of x's bits: a negative x (−0 too) has negative bits
/// and reads the first value, as 0 does; one above 1 has bits above 1's and reads the last, as 1 does (the range ends
/// at or below 1's bits). So the twin's clamp to 0…1 and its curve's clamp to the range give the same bits.
VC_TARGET static inline __m512 octave_curve_of_clamped(const curve_registers *c, __m512 x) {
    return octave_curve_at(c, _mm512_min_epi32(_mm512_max_epi32(_mm512_castps_si512(x), c->first), c->last));
}

/// a·x + b·y + c·z: a·x, then b·y and c·z added by fused multiply-adds (as the twin's `dot`).
VC_TARGET static inline __m512 dot3(__m512 x, __m512 y, __m512 z, float a, float b, float c) {
    return _mm512_fmadd_ps(_mm512_set1_ps(c), z, _mm512_fmadd_ps(_mm512_set1_ps(b), y, _mm512_mul_ps(_mm512_set1_ps(a), x)));
}

/// The chain's steps for sixteen pixels, as video_color_steps8.h's for eight (the same operations lane by lane).
/// 1. Luma codes and the chroma's R', G', B' terms → linear light, in units of SDR white (HLG: scene light).
VC_TARGET static inline void decode16(const lp_video_color *k, const curve_registers *curve, __m512i lumaCodes,
                                      const __m512 *add, __m512 *light) {
    __m512 l = _mm512_mul_ps(_mm512_set1_ps(k->ys), _mm512_sub_ps(_mm512_cvtepi32_ps(lumaCodes), _mm512_set1_ps(k->yOffset)));
    for (int c = 0; c < 3; c++) light[c] = unit_curve(curve, _mm512_add_ps(l, add[c]));
}

/// 2. (HDR only) the tone curve's gain, read at their luminance, on all three channels.
VC_TARGET static inline void gain16(const lp_video_color *k, const curve_registers *curve, __m512 *light) {
    __m512 g = octave_curve(curve, dot3(light[0], light[1], light[2], k->luma[0], k->luma[1], k->luma[2]));
    for (int c = 0; c < 3; c++) light[c] = _mm512_mul_ps(light[c], g);
}

/// 3. Source primaries → BT.709 and into its gamut; the kinks passed (1, 2; 4, 8, 16: a channel below black).
VC_TARGET static inline __m512i gamut16(const lp_video_color *k, __m512 *light) {
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1);
    const __m512 cR = light[0], cG = light[1], cB = light[2];
    __m512 mR = dot3(cR, cG, cB, k->m[0], k->m[1], k->m[2]);
    __m512 mG = dot3(cR, cG, cB, k->m[3], k->m[4], k->m[5]);
    __m512 mB = dot3(cR, cG, cB, k->m[6], k->m[7], k->m[8]);
    __m512 y = _mm512_max_ps(dot3(mR, mG, mB, 0.2126f, 0.7152f, 0.0722f), zero);
    __m512 lo = _mm512_min_ps(_mm512_min_ps(mR, mG), mB);
    __mmask16 below = _mm512_cmp_ps_mask(lo, zero, _CMP_LT_OQ);
    __m512i kinks = _mm512_maskz_mov_epi32(below, _mm512_set1_epi32(1));
    if (below) {
        __m512 t = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(y, lo, _CMP_GT_OQ), y, _mm512_sub_ps(y, lo));
        mR = _mm512_mask_mov_ps(mR, below, _mm512_fmadd_ps(t, _mm512_sub_ps(mR, y), y));
        mG = _mm512_mask_mov_ps(mG, below, _mm512_fmadd_ps(t, _mm512_sub_ps(mG, y), y));
        mB = _mm512_mask_mov_ps(mB, below, _mm512_fmadd_ps(t, _mm512_sub_ps(mB, y), y));
    }
    __m512 hi = _mm512_max_ps(_mm512_max_ps(mR, mG), mB);
    __mmask16 above = _mm512_cmp_ps_mask(hi, one, _CMP_GT_OQ);
    kinks = _mm512_mask_mov_epi32(kinks, above, _mm512_or_si512(kinks, _mm512_set1_epi32(2)));
    if (above) {
        __m512 scale = _mm512_maskz_div_ps(above, one, hi);
        mR = _mm512_mask_mul_ps(mR, above, mR, scale);
        mG = _mm512_mask_mul_ps(mG, above, mG, scale);
        mB = _mm512_mask_mul_ps(mB, above, mB, scale);
    }
    // The twin clamps to 0…1 here; the encode's curve does it with its own clamp (`octave_curve_of_clamped`), and a
    // channel is below the black (which lies in 0…1) clamped or not.
    light[0] = mR; light[1] = mG; light[2] = mB;
    const __m512 black = _mm512_set1_ps(k->encodeBlack);
    for (int c = 0; c < 3; c++) {
        __mmask16 under = _mm512_cmp_ps_mask(light[c], black, _CMP_LT_OQ);
        kinks = _mm512_mask_mov_epi32(kinks, under, _mm512_or_si512(kinks, _mm512_set1_epi32(4 << c)));
    }
    return kinks;
}

/// 4. Linear → the SDR display's codes (the encode's curve clamped to 0…1): BT.709 Y' and B' − Y', R' − Y'.
VC_TARGET static inline __m512 encode16(const curve_registers *curve, const __m512 *light, __m512 *dB, __m512 *dR) {
    __m512 e[3];
    for (int c = 0; c < 3; c++) {
        __m512 v = octave_curve_of_clamped(curve, light[c]);
        e[c] = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1));
    }
    __m512 yPrime = dot3(e[0], e[1], e[2], 0.2126f, 0.7152f, 0.0722f);
    *dB = _mm512_sub_ps(e[2], yPrime);
    *dR = _mm512_sub_ps(e[0], yPrime);
    return yPrime;
}

/// The chain over `runs` runs of eight pixels (video_color_steps8.h's `run_chain`), two runs a register (the last
/// alone in a register's low half when their count is odd), each step over all of them before the next. A pair of
/// runs lies side by side in each array, so it is loaded and stored as one register.
VC_TARGET static void run_chain(const lp_video_color *k, int runs, const __m256i *codes, const __m256 *addR,
                                const __m256 *addG, const __m256 *addB, __m256i *kinks, __m256 *yPrime, __m256 *dB,
                                __m256 *dR) {
    __m512 light[MOST_RUNS / 2][3];
    const int pairs = (runs + 1) / 2;
    const curve_registers decodeCurve = unit_curve_in_registers(k->decodeCurve);
    const __m256 *add[3] = {addR, addG, addB};
    for (int p = 0; p < pairs; p++) {
        const int i = 2 * p;
        __m512 a[3];
        __m512i lumaCodes;
        if (i + 1 < runs) {
            for (int c = 0; c < 3; c++) a[c] = _mm512_loadu_ps(&add[c][i]);
            lumaCodes = _mm512_loadu_si512(&codes[i]);
        } else {
            for (int c = 0; c < 3; c++) a[c] = join(add[c][i], add[c][i]);
            lumaCodes = _mm512_castps_si512(join(_mm256_castsi256_ps(codes[i]), _mm256_castsi256_ps(codes[i])));
        }
        decode16(k, &decodeCurve, lumaCodes, a, light[p]);
    }
    if (k->gainCurve) {
        const curve_registers gainCurve = octave_curve_in_registers(k->gainCurve, k->gainCurveFirstBits, k->gainCurveShift);
        for (int p = 0; p < pairs; p++) gain16(k, &gainCurve, light[p]);
    }
    __m512i kinked[MOST_RUNS / 2];
    for (int p = 0; p < pairs; p++) kinked[p] = gamut16(k, light[p]);
    const curve_registers encodeCurve = octave_curve_in_registers(k->encodeCurve, k->encodeCurveFirstBits, k->encodeCurveShift);
    for (int p = 0; p < pairs; p++) {
        __m512 b, r, y = encode16(&encodeCurve, light[p], &b, &r);
        const int i = 2 * p;
        if (i + 1 < runs) {
            _mm512_storeu_si512(&kinks[i], kinked[p]);
            _mm512_storeu_ps(&yPrime[i], y); _mm512_storeu_ps(&dB[i], b); _mm512_storeu_ps(&dR[i], r);
        } else {
            kinks[i] = _mm512_castsi512_si256(kinked[p]);
            yPrime[i] = low_half(y); dB[i] = low_half(b); dR[i] = low_half(r);
        }
    }
}

#include "video_color_body.h"
#include "video_color_blocks16.h"

VC_TARGET long lp_video_color_rows_avx512(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut,
                                          uint8_t *crOut, long count, const void *luma0, const void *luma1,
                                          const void *cb, const void *cr, int sampleBytes, int chromaShiftX, long row,
                                          long chromaRow) {
    if (luma1 && chromaShiftX == 1 && k->blockSpread >= 0) {
        // 4:2:0 two rows a call (HDR video is 10-bit): sixteen columns at a time, then a last eight on their own.
        // (The dither repeats every four columns, so the rest starts its own count at 0.)
        long done = sampleBytes == 2
            ? convert_blocks16(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, 2, row, chromaRow)
            : convert_blocks16(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, 1, row, chromaRow);
        long cd = done >> 1;
        return done + convert_rows(k, yOut0 + done, yOut1 + done, cbOut + cd, crOut + cd, count - done,
                                   (const char *)luma0 + done * sampleBytes, (const char *)luma1 + done * sampleBytes,
                                   (const char *)cb + cd * sampleBytes, (const char *)cr + cd * sampleBytes,
                                   sampleBytes, 1, 2, row, chromaRow);
    }
    return convert_rows(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, sampleBytes, chromaShiftX,
                        luma1 ? 2 : 1, row, chromaRow);
}

#else

void lp_video_color_chain_avx512(const lp_video_color *k, int runs, const int32_t *codes, const float *addR,
                                 const float *addG, const float *addB, float *yPrime, float *dB, float *dR,
                                 int32_t *kinks) {
    (void)k; (void)runs; (void)codes; (void)addR; (void)addG; (void)addB; (void)yPrime; (void)dB; (void)dR; (void)kinks;
}

long lp_video_color_rows_avx512(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut,
                                long count, const void *luma0, const void *luma1, const void *cb, const void *cr,
                                int sampleBytes, int chromaShiftX, long row, long chromaRow) {
    (void)k; (void)yOut0; (void)yOut1; (void)cbOut; (void)crOut; (void)count; (void)luma0; (void)luma1; (void)cb;
    (void)cr; (void)sampleBytes; (void)chromaShiftX; (void)row; (void)chromaRow;
    return 0;
}

#endif
