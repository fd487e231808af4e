// A row of a 4:2:0 picture placed texel for pixel (issue 30: each item of a 1080p playlist fade), with AVX2. Where
// the projective walk (`lp_yuv420_projective_avx2`) would divide, fix, test windows and shuffle bilinear taps for
// every pixel, here luma is one byte a pixel (its weights are 0) and chroma steps half a sample a pixel, so one
// shuffle control and one set of weights serve every group of eight: the same taps, weights, 8.8 sums and colour
// matrix, so the same pixels. A faded picture is blended over the row in the same pass.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

#include "window_taps_avx2.h"
#include "yuv_matrix_avx2.h"
#include "blend_over_avx2.h"

/// One chroma row's taps for eight pixels from its eight bytes at `at`: both halves of the group shuffle the same
/// bytes (the second half's control is two samples further on).
AVX2 static inline __m256i chroma_taps(const uint8_t *at, __m256i control) {
    return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadl_epi64((const __m128i *)at)), control);
}

AVX2 long lp_yuv420_texel_row_avx2(uint32_t *dst, long count, const lp_yuv420_texel_row *row, const lp_yuv_matrix *m,
                                   float opacity, int blend) {
    const matrix_lanes k = broadcast(m);
    // The eight pixels' chroma positions from the group's first sample: (fraction + i/2) in 16.16.
    const __m256i position = _mm256_add_epi32(_mm256_set1_epi32(row->chromaFraction),
                                              _mm256_setr_epi32(0, 32768, 65536, 98304, 131072, 163840, 196608, 229376));
    const __m256i wx = pair_weights(position), fy = _mm256_set1_epi32(row->chromaWeightY);
    // Bytes (left tap, 0, right tap, 0) of each lane: the 16-bit pairs `bilinear` takes.
    const __m256i tap = _mm256_srai_epi32(position, 16);
    const __m256i control = _mm256_or_si256(_mm256_or_si256(tap, _mm256_slli_epi32(_mm256_add_epi32(tap, _mm256_set1_epi32(1)), 16)),
                                            _mm256_set1_epi32((int32_t)0x80008000u));
    const __m256 alpha = _mm256_set1_ps(opacity);
    const long groups = count / 8;
    for (long g = 0; g < groups; g++) {
        // Luma taps (byte, next byte) with weights 0 and rows with weight 0: the byte, × 256.
        const __m256i luma = _mm256_slli_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row->luma + 8 * g))), 8);
        const long c = 4 * g;
        const __m256i cb = bilinear(chroma_taps(row->cbTop + c, control), chroma_taps(row->cbBottom + c, control), wx, fy);
        const __m256i cr = bilinear(chroma_taps(row->crTop + c, control), chroma_taps(row->crBottom + c, control), wx, fy);
        __m256i words = yuv_to_bgra(&k, luma, cb, cr);
        if (blend) words = blend_over8(words, _mm256_loadu_si256((const __m256i *)(dst + 8 * g)), alpha);
        _mm256_storeu_si256((__m256i *)(dst + 8 * g), words);
    }
    return groups * 8;
}

#else

long lp_yuv420_texel_row_avx2(uint32_t *dst, long count, const lp_yuv420_texel_row *row, const lp_yuv_matrix *m,
                              float opacity, int blend) {
    (void)dst; (void)count; (void)row; (void)m; (void)opacity; (void)blend;
    return 0;
}

#endif
