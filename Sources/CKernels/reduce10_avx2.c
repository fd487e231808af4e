// 10-bit video samples → 8-bit ones with a 2×2 ordered dither (LayerGraphics' TenBitReduction.swift; its Swift twin,
// `reduceRowSwift`, is the reference in the tests), 16 samples a register: what lets 10-bit video take the 8-bit
// paths (the samplers' AVX2 gathers, the window's YUV texture) instead of the wide samplers.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 long lp_reduce10_row_avx2(uint8_t *dst, const uint16_t *src, long count, long row) {
    // The dither of even columns in the low word of each pair, odd columns in the high one: 0, 2 on even rows,
    // 3, 1 on odd ones (`TenBitReduction.dither`).
    const __m256i dither = _mm256_set1_epi32((row & 1) ? (3 | 1 << 16) : (0 | 2 << 16));
    const long whole = count / 16 * 16;
    for (long x = 0; x < whole; x += 16) {
        __m256i v = _mm256_adds_epu16(_mm256_loadu_si256((const __m256i *)(src + x)), dither);
        v = _mm256_srli_epi16(v, 2);  // at most 16383: a positive 16-bit lane, which the pack saturates to 255
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        _mm_storeu_si128((__m128i *)(dst + x), bytes);
    }
    return whole;
}

#else

long lp_reduce10_row_avx2(uint8_t *dst, const uint16_t *src, long count, long row) {
    (void)dst; (void)src; (void)count; (void)row;
    return 0;
}

#endif
