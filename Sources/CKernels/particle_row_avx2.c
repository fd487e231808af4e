// A row of particle pixels with AVX2: the Swift kernel's floors, weights, bilinear taps, tint and blend
// (ParticleKernel.swift), bit for bit, eight pixels at a time. Taps are gathers under a mask (a particle's image is
// small and turned, so its taps are anywhere); the arithmetic runs on 16-bit channels, as the Swift lanes do.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// a + (b − a)·f/256 per 16-bit channel, rounded: ((a·(256 − f) + b·f + 128) >> 8). Products stay under 2¹⁶.
AVX2 static inline __m256i lerp16(__m256i a, __m256i b, __m256i f) {
    const __m256i full = _mm256_set1_epi16(256), half = _mm256_set1_epi16(128);
    __m256i sum = _mm256_add_epi16(_mm256_mullo_epi16(a, _mm256_sub_epi16(full, f)), _mm256_mullo_epi16(b, f));
    return _mm256_srli_epi16(_mm256_add_epi16(sum, half), 8);
}

/// (c·t + 128) >> 8 per 16-bit channel.
AVX2 static inline __m256i scale16(__m256i c, __m256i t) {
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(c, t), _mm256_set1_epi16(128)), 8);
}

/// Four pixels' channels (16-bit) of the taps, tinted and blended into the matching four of `dst`.
AVX2 static inline __m256i pixels4(__m256i w00, __m256i w10, __m256i w01, __m256i w11, __m256i fx, __m256i fy,
                                   __m256i tint16, __m256i dst, int additive) {
    __m256i c = lerp16(lerp16(w00, w10, fx), lerp16(w01, w11, fx), fy);
    c = scale16(c, tint16);
    if (additive) return _mm256_add_epi16(dst, c);
    // Each pixel's alpha in its four channels; keep = 256 − (a + a >> 7) (255 → 0).
    __m256i a = _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(c, 0xff), 0xff);
    __m256i keep = _mm256_sub_epi16(_mm256_set1_epi16(256), _mm256_add_epi16(a, _mm256_srli_epi16(a, 7)));
    return _mm256_add_epi16(scale16(dst, keep), c);
}

AVX2 long lp_particle_row_avx2(uint32_t *dst, long count, const uint32_t *tex, long stride, int32_t ix0, int32_t iy0,
                               int32_t ix1, int32_t iy1, float u, float v, float du, float dv, uint64_t tint, int additive) {
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i xLo = _mm256_set1_epi32(ix0 - 1), xHi = _mm256_set1_epi32(ix1), yLo = _mm256_set1_epi32(iy0 - 1), yHi = _mm256_set1_epi32(iy1);
    const __m256i strideV = _mm256_set1_epi32((int32_t)stride), tint16 = _mm256_set1_epi64x((long long)tint);
    const __m256 half = _mm256_set1_ps(0.5f), full = _mm256_set1_ps(256), zeroF = _mm256_setzero_ps(), oneF = _mm256_set1_ps(1);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    long groups = count / 8;
    for (long g = 0; g < groups; g++) {
        __m256 k = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32((int32_t)(8 * g)), lanes));
        // u + du·i, then − ½ (the Swift kernel's order of operations, unfused).
        __m256 fu = _mm256_sub_ps(_mm256_add_ps(_mm256_set1_ps(u), _mm256_mul_ps(_mm256_set1_ps(du), k)), half);
        __m256 fv = _mm256_sub_ps(_mm256_add_ps(_mm256_set1_ps(v), _mm256_mul_ps(_mm256_set1_ps(dv), k)), half);
        // The Swift floor: round half to even of x − ½.
        __m256 ru = _mm256_round_ps(_mm256_sub_ps(fu, half), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256 rv = _mm256_round_ps(_mm256_sub_ps(fv, half), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256i iu = _mm256_cvtps_epi32(ru), iv = _mm256_cvtps_epi32(rv);
        __m256i iu1 = _mm256_add_epi32(iu, one), iv1 = _mm256_add_epi32(iv, one);
        __m256i inX0 = _mm256_and_si256(_mm256_cmpgt_epi32(iu, xLo), _mm256_cmpgt_epi32(xHi, iu));
        __m256i inX1 = _mm256_and_si256(_mm256_cmpgt_epi32(iu1, xLo), _mm256_cmpgt_epi32(xHi, iu1));
        __m256i inY0 = _mm256_and_si256(_mm256_cmpgt_epi32(iv, yLo), _mm256_cmpgt_epi32(yHi, iv));
        __m256i inY1 = _mm256_and_si256(_mm256_cmpgt_epi32(iv1, yLo), _mm256_cmpgt_epi32(yHi, iv1));
        __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(iv, strideV), iu);
        const int *base = (const int *)tex;
        __m256i w00 = _mm256_mask_i32gather_epi32(zero, base, index, _mm256_and_si256(inX0, inY0), 4);
        __m256i w10 = _mm256_mask_i32gather_epi32(zero, base, _mm256_add_epi32(index, one), _mm256_and_si256(inX1, inY0), 4);
        __m256i w01 = _mm256_mask_i32gather_epi32(zero, base, _mm256_add_epi32(index, strideV), _mm256_and_si256(inX0, inY1), 4);
        __m256i w11 = _mm256_mask_i32gather_epi32(zero, base, _mm256_add_epi32(index, _mm256_add_epi32(strideV, one)),
                                                  _mm256_and_si256(inX1, inY1), 4);
        __m256i any = _mm256_or_si256(_mm256_or_si256(w00, w10), _mm256_or_si256(w01, w11));
        if (_mm256_testz_si256(any, any)) continue;
        // Weights: the fraction clamped to 0…1, × 256, rounded half to even; doubled into both halves of a 32-bit lane.
        __m256 tu = _mm256_min_ps(_mm256_max_ps(_mm256_sub_ps(fu, ru), zeroF), oneF);
        __m256 tv = _mm256_min_ps(_mm256_max_ps(_mm256_sub_ps(fv, rv), zeroF), oneF);
        __m256i fx = _mm256_cvtps_epi32(_mm256_mul_ps(tu, full)), fy = _mm256_cvtps_epi32(_mm256_mul_ps(tv, full));
        fx = _mm256_or_si256(fx, _mm256_slli_epi32(fx, 16));
        fy = _mm256_or_si256(fy, _mm256_slli_epi32(fy, 16));
        uint32_t *p = dst + 8 * g;
        __m256i d = _mm256_loadu_si256((const __m256i *)p);
        // Pixels 0, 1 | 4, 5 (low) and 2, 3 | 6, 7 (high), as the byte unpacks order them; the packs restore the order.
        __m256i lo = pixels4(_mm256_unpacklo_epi8(w00, zero), _mm256_unpacklo_epi8(w10, zero), _mm256_unpacklo_epi8(w01, zero),
                             _mm256_unpacklo_epi8(w11, zero), _mm256_unpacklo_epi32(fx, fx), _mm256_unpacklo_epi32(fy, fy),
                             tint16, _mm256_unpacklo_epi8(d, zero), additive);
        __m256i hi = pixels4(_mm256_unpackhi_epi8(w00, zero), _mm256_unpackhi_epi8(w10, zero), _mm256_unpackhi_epi8(w01, zero),
                             _mm256_unpackhi_epi8(w11, zero), _mm256_unpackhi_epi32(fx, fx), _mm256_unpackhi_epi32(fy, fy),
                             tint16, _mm256_unpackhi_epi8(d, zero), additive);
        _mm256_storeu_si256((__m256i *)p, _mm256_packus_epi16(lo, hi));
    }
    return groups * 8;
}

#else
long lp_particle_row_avx2(uint32_t *dst, long count, const uint32_t *tex, long stride, int32_t ix0, int32_t iy0,
                          int32_t ix1, int32_t iy1, float u, float v, float du, float dv, uint64_t tint, int additive) {
    (void)dst; (void)count; (void)tex; (void)stride; (void)ix0; (void)iy0; (void)ix1; (void)iy1;
    (void)u; (void)v; (void)du; (void)dv; (void)tint; (void)additive;
    return 0;
}
#endif
