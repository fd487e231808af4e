// A premultiplied picture at an opacity over another, with AVX2: `OpacityBlend.blendRowSwift`'s float arithmetic,
// bit for bit, eight pixels at a time (a group's composite, a faded picture's body: issue 30's crossfade at 1080p60).
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

#include "blend_over_avx2.h"

AVX2 long lp_blend_over_opacity_avx2(uint32_t *dst, const uint32_t *src, long count, float opacity) {
    const long whole = count / 8 * 8;
    const __m256 k = _mm256_set1_ps(opacity);
    for (long x = 0; x < whole; x += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + x)), d = _mm256_loadu_si256((const __m256i *)(dst + x));
        _mm256_storeu_si256((__m256i *)(dst + x), blend_over8(s, d, k));
    }
    return whole;
}

#else

long lp_blend_over_opacity_avx2(uint32_t *dst, const uint32_t *src, long count, float opacity) {
    (void)dst; (void)src; (void)count; (void)opacity;
    return 0;
}

#endif
