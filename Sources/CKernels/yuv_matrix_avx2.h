// The 8.8 Y'CbCr → opaque BGRA step shared by the AVX2 4:2:0 kernels (the walks and the texel-for-pixel rows), so
// that both round every pixel the same way. Included by the kernels' files only, after <immintrin.h> and the AVX2
// macro.
#ifndef LP_YUV_MATRIX_AVX2_H
#define LP_YUV_MATRIX_AVX2_H

/// Eight opaque BGRA words from the channels' floats: each rounded to nearest and clamped to 0…255 (the packs
/// saturate: to 16 bits signed, then to 8 bits unsigned), then the bytes of each pixel gathered into its word.
AVX2 static inline __m256i bgra_words(__m256 b, __m256 g, __m256 r) {
    __m256i bg = _mm256_packs_epi32(_mm256_cvtps_epi32(b), _mm256_cvtps_epi32(g));
    __m256i ra = _mm256_packs_epi32(_mm256_cvtps_epi32(r), _mm256_set1_epi32(255));
    __m256i planar = _mm256_packus_epi16(bg, ra);    // per half: b0…b3 g0…g3 r0…r3 a0…a3
    const __m256i interleave = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm256_shuffle_epi8(planar, interleave);
}

/// The colour matrix, as broadcast lanes.
typedef struct {
    __m256 yScale, cbToB, cbToG, crToG, crToR, b0, g0, r0;
} matrix_lanes;

AVX2 static inline matrix_lanes broadcast(const lp_yuv_matrix *m) {
    matrix_lanes k = { _mm256_set1_ps(m->yScale), _mm256_set1_ps(m->cbToB), _mm256_set1_ps(m->cbToG), _mm256_set1_ps(m->crToG),
                       _mm256_set1_ps(m->crToR), _mm256_set1_ps(m->b0), _mm256_set1_ps(m->g0), _mm256_set1_ps(m->r0) };
    return k;
}

/// Eight opaque BGRA words from 8.8 Y, Cb, Cr in 32-bit lanes.
AVX2 static inline __m256i yuv_to_bgra(const matrix_lanes *k, __m256i luma, __m256i cb, __m256i cr) {
    __m256 l = _mm256_mul_ps(_mm256_cvtepi32_ps(luma), k->yScale), u = _mm256_cvtepi32_ps(cb), v = _mm256_cvtepi32_ps(cr);
    __m256 b = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(u, k->cbToB)), k->b0);
    __m256 g = _mm256_add_ps(_mm256_add_ps(l, _mm256_add_ps(_mm256_mul_ps(u, k->cbToG), _mm256_mul_ps(v, k->crToG))), k->g0);
    __m256 r = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(v, k->crToR)), k->r0);
    return bgra_words(b, g, r);
}

#endif
