// A premultiplied picture at an opacity over another, with AVX2: `OpacityBlend.blendRowSwift`'s float arithmetic,
// bit for bit, eight pixels at a time (a group's composite, a faded picture's body: issue 30's crossfade at 1080p60).
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// Channel `shift` / 8 of eight BGRA words as floats in 0…255.
AVX2 static inline __m256 channel(__m256i words, int shift) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(words, shift), _mm256_set1_epi32(0xff)));
}

/// `pack`'s rounding of one channel: min(max(v, 0), 255) + 0.5, truncated, moved to its byte.
AVX2 static inline __m256i quantise(__m256 v, int shift) {
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    return _mm256_slli_epi32(_mm256_cvttps_epi32(_mm256_add_ps(v, _mm256_set1_ps(0.5f))), shift);
}

AVX2 long lp_blend_over_opacity_avx2(uint32_t *dst, const uint32_t *src, long count, float opacity) {
    const long whole = count / 8 * 8;
    const __m256 k = _mm256_set1_ps(opacity), one = _mm256_set1_ps(1.0f), inverse255 = _mm256_set1_ps(1.0f / 255.0f);
    for (long x = 0; x < whole; x += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + x)), d = _mm256_loadu_si256((const __m256i *)(dst + x));
        // s·k + d·(1 − (s·k).a / 255), channel by channel, in the Swift twin's order (no fused multiply-add).
        const __m256 sa = _mm256_mul_ps(channel(s, 24), k);
        const __m256 keep = _mm256_sub_ps(one, _mm256_mul_ps(sa, inverse255));
        __m256i out = quantise(_mm256_add_ps(sa, _mm256_mul_ps(channel(d, 24), keep)), 24);
        for (int shift = 0; shift < 24; shift += 8) {
            const __m256 sc = _mm256_mul_ps(channel(s, shift), k);
            out = _mm256_or_si256(out, quantise(_mm256_add_ps(sc, _mm256_mul_ps(channel(d, shift), keep)), shift));
        }
        _mm256_storeu_si256((__m256i *)(dst + x), out);
    }
    return whole;
}

#else

long lp_blend_over_opacity_avx2(uint32_t *dst, const uint32_t *src, long count, float opacity) {
    (void)dst; (void)src; (void)count; (void)opacity;
    return 0;
}

#endif
