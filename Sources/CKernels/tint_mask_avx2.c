// A shadow's tinted mask with AVX2 gathers: the Swift kernel's taps (`ScalarPlane.bilinear8Fixed`) and integer
// blend (`blendTint`), bit for bit, eight pixels at a time.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// One channel (at bit `shift`) of tint·m + dst·keep, divided by 255 with the Swift kernel's rounding.
#define MIX(shift) ({ \
    __m256i d = _mm256_and_si256(_mm256_srli_epi32(dst8, shift), byte); \
    __m256i v = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int32_t)((tint >> shift) & 0xff)), m), \
                                                  _mm256_mullo_epi32(d, keep)), half); \
    __m256i q = _mm256_and_si256(_mm256_srli_epi32(_mm256_add_epi32(v, _mm256_srli_epi32(v, 8)), 8), nine); \
    _mm256_slli_epi32(_mm256_min_epi32(q, byte), shift); })

AVX2 long lp_tint_mask_bilinear_avx2(uint32_t *dst, long count, const uint8_t *mask, long stride,
                                     int32_t x, int32_t dx, int32_t y, int32_t dy, uint32_t tint) {
    const long groups = count / 8;
    const __m256i byte = _mm256_set1_epi32(0xff), nine = _mm256_set1_epi32(0x1ff), half = _mm256_set1_epi32(0x80);
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i wx = _mm256_add_epi32(_mm256_set1_epi32(x), _mm256_mullo_epi32(index, _mm256_set1_epi32(dx)));
    __m256i wy = _mm256_add_epi32(_mm256_set1_epi32(y), _mm256_mullo_epi32(index, _mm256_set1_epi32(dy)));
    const __m256i sx = _mm256_set1_epi32(8 * dx), sy = _mm256_set1_epi32(8 * dy);
    const __m256i rowStride = _mm256_set1_epi32((int32_t)stride);
    const __m256i tintAlpha = _mm256_set1_epi32((int32_t)(tint >> 24));
    const int *top = (const int *)mask, *bottom = (const int *)(mask + stride);
    for (long g = 0; g < groups; g++) {
        __m256i o = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(wy, 16), rowStride), _mm256_srai_epi32(wx, 16));
        __m256i fx = _mm256_and_si256(_mm256_srli_epi32(wx, 8), byte), fy = _mm256_and_si256(_mm256_srli_epi32(wy, 8), byte);
        __m256i t4 = _mm256_i32gather_epi32(top, o, 1), b4 = _mm256_i32gather_epi32(bottom, o, 1);
        wx = _mm256_add_epi32(wx, sx); wy = _mm256_add_epi32(wy, sy);
        __m256i a = _mm256_and_si256(t4, byte), b = _mm256_and_si256(_mm256_srli_epi32(t4, 8), byte);
        __m256i c = _mm256_and_si256(b4, byte), d = _mm256_and_si256(_mm256_srli_epi32(b4, 8), byte);
        __m256i t = _mm256_add_epi32(_mm256_slli_epi32(a, 8), _mm256_mullo_epi32(_mm256_sub_epi32(b, a), fx));
        __m256i u = _mm256_add_epi32(_mm256_slli_epi32(c, 8), _mm256_mullo_epi32(_mm256_sub_epi32(d, c), fx));
        __m256i alpha = _mm256_srai_epi32(_mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(u, t), fy)), 8);
        // m = min(alpha, 65280) >> 8; keep = 255 − ⌊(tint.a·m + 127) / 255⌋ (⌊x / 255⌋ = x·32897 >> 23 here).
        __m256i m = _mm256_srli_epi32(_mm256_min_epi32(_mm256_max_epi32(alpha, _mm256_setzero_si256()), _mm256_set1_epi32(65280)), 8);
        __m256i k = _mm256_add_epi32(_mm256_mullo_epi32(tintAlpha, m), _mm256_set1_epi32(127));
        __m256i keep = _mm256_sub_epi32(byte, _mm256_srli_epi32(_mm256_mullo_epi32(k, _mm256_set1_epi32(32897)), 23));
        __m256i dst8 = _mm256_loadu_si256((const __m256i *)(dst + 8 * g));
        __m256i word = _mm256_or_si256(_mm256_or_si256(MIX(0), MIX(8)), _mm256_or_si256(MIX(16), MIX(24)));
        _mm256_storeu_si256((__m256i *)(dst + 8 * g), word);
    }
    return groups * 8;
}

#else
long lp_tint_mask_bilinear_avx2(uint32_t *dst, long count, const uint8_t *mask, long stride,
                                int32_t x, int32_t dx, int32_t y, int32_t dy, uint32_t tint) {
    (void)dst; (void)count; (void)mask; (void)stride; (void)x; (void)dx; (void)y; (void)dy; (void)tint;
    return 0;
}
#endif
