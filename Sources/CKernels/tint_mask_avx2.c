// A shadow's tinted mask with AVX2: the Swift kernel's taps (`ScalarPlane.bilinear8Fixed`) and integer blend
// (`blendTint`), bit for bit, eight pixels at a time. The taps come from 16-byte windows (a shadow's mask is
// magnified, so eight pixels fit one easily), else from gathers; the blend runs on 16-bit channel pairs.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

#include "window_taps_avx2.h"

/// Eight pixels of tint·m + dst·keep per channel, divided by 255 with the Swift kernel's rounding:
/// q = (v + (v >> 8)) >> 8, v = tint·m + dst·keep + 128. Each channel's (dst, tint) pair is multiplied by its pixel's
/// (keep, m) in one multiply-add; v stays under 2¹⁶ (tint ≤ tint.a, so tint·m + 255·keep ≤ 255² + 127), so the
/// shifts are those of the 32-bit Swift lanes, and the packs' saturation never acts.
AVX2 static inline __m256i blend_tint8(__m256i dst8, __m256i tint16, __m256i m, __m256i keep) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32(0x80);
    __m256i weights = _mm256_or_si256(keep, _mm256_slli_epi32(m, 16));           // per pixel: (keep, m)
    __m256i low = _mm256_unpacklo_epi8(dst8, zero), high = _mm256_unpackhi_epi8(dst8, zero);   // pixels 0, 1 | 4, 5 and 2, 3 | 6, 7
    __m256i v0 = _mm256_madd_epi16(_mm256_unpacklo_epi16(low, tint16), _mm256_shuffle_epi32(weights, 0x00));
    __m256i v1 = _mm256_madd_epi16(_mm256_unpackhi_epi16(low, tint16), _mm256_shuffle_epi32(weights, 0x55));
    __m256i v2 = _mm256_madd_epi16(_mm256_unpacklo_epi16(high, tint16), _mm256_shuffle_epi32(weights, 0xaa));
    __m256i v3 = _mm256_madd_epi16(_mm256_unpackhi_epi16(high, tint16), _mm256_shuffle_epi32(weights, 0xff));
#define DIVIDE(v) ({ __m256i w = _mm256_add_epi32(v, half); _mm256_srli_epi32(_mm256_add_epi32(w, _mm256_srli_epi32(w, 8)), 8); })
    __m256i q01 = _mm256_packus_epi32(DIVIDE(v0), DIVIDE(v1)), q23 = _mm256_packus_epi32(DIVIDE(v2), DIVIDE(v3));
#undef DIVIDE
    return _mm256_packus_epi16(q01, q23);
}

/// One group of eight pixels at walk positions (wx, wy): taps, bilinear, blend over `dst8`.
AVX2 static inline __m256i tint_group(__m256i dst8, const uint8_t *mask, long stride, __m256i wx, __m256i wy,
                                      __m256i tint16, __m256i tintAlpha) {
    const __m256i byte = _mm256_set1_epi32(0xff);
    row_taps taps;
    row_windows w;
    if (shared_windows(wx, wy, stride, &w)) {
        taps = window_taps(mask, stride, &w);
    } else {
        taps = gather_taps(mask, stride, wx, wy);
    }
    __m256i alpha = bilinear(taps.top, taps.bottom, pair_weights(wx), _mm256_and_si256(_mm256_srli_epi32(wy, 8), byte));
    // m = min(alpha, 65280) >> 8; keep = 255 − ⌊(tint.a·m + 127) / 255⌋ (⌊x / 255⌋ = x·32897 >> 23 here).
    __m256i m = _mm256_srli_epi32(_mm256_min_epi32(_mm256_max_epi32(alpha, _mm256_setzero_si256()), _mm256_set1_epi32(65280)), 8);
    __m256i k = _mm256_add_epi32(_mm256_mullo_epi32(tintAlpha, m), _mm256_set1_epi32(127));
    __m256i keep = _mm256_sub_epi32(byte, _mm256_srli_epi32(_mm256_mullo_epi32(k, _mm256_set1_epi32(32897)), 23));
    return blend_tint8(dst8, tint16, m, keep);
}

AVX2 long lp_tint_mask_bilinear_avx2(uint32_t *dst, long count, const uint8_t *mask, long stride,
                                     int32_t x, int32_t dx, int32_t y, int32_t dy, uint32_t tint) {
    const long groups = count / 8, tail = count % 8;
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i wx = _mm256_add_epi32(_mm256_set1_epi32(x), _mm256_mullo_epi32(index, _mm256_set1_epi32(dx)));
    __m256i wy = _mm256_add_epi32(_mm256_set1_epi32(y), _mm256_mullo_epi32(index, _mm256_set1_epi32(dy)));
    const __m256i sx = _mm256_set1_epi32(8 * dx), sy = _mm256_set1_epi32(8 * dy);
    const __m256i tintAlpha = _mm256_set1_epi32((int32_t)(tint >> 24));
    // The tint's channels as 16-bit words, pairing with each destination pixel's (unpacked: two pixels a half).
    const __m256i tint16 = _mm256_unpacklo_epi8(_mm256_set1_epi32((int32_t)tint), _mm256_setzero_si256());
    for (long g = 0; g < groups; g++) {
        __m256i dst8 = _mm256_loadu_si256((const __m256i *)(dst + 8 * g));
        _mm256_storeu_si256((__m256i *)(dst + 8 * g), tint_group(dst8, mask, stride, wx, wy, tint16, tintAlpha));
        wx = _mm256_add_epi32(wx, sx); wy = _mm256_add_epi32(wy, sy);
    }
    if (tail > 0) {
        // The last few pixels as a group whose unused lanes repeat the last pixel's position (inside the mask, as
        // the walk is), loaded and stored through a lane mask: nothing past `count` is read or written.
        __m256i last = _mm256_set1_epi32((int32_t)(tail - 1));
        __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)tail), index);
        wx = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(wx, last), wx, lanes);
        wy = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(wy, last), wy, lanes);
        uint32_t *p = dst + 8 * groups;
        __m256i dst8 = _mm256_maskload_epi32((const int *)p, lanes);
        _mm256_maskstore_epi32((int *)p, lanes, tint_group(dst8, mask, stride, wx, wy, tint16, tintAlpha));
    }
    return count;
}

#else
long lp_tint_mask_bilinear_avx2(uint32_t *dst, long count, const uint8_t *mask, long stride,
                                int32_t x, int32_t dx, int32_t y, int32_t dy, uint32_t tint) {
    (void)dst; (void)count; (void)mask; (void)stride; (void)x; (void)dx; (void)y; (void)dy; (void)tint;
    return 0;
}
#endif
