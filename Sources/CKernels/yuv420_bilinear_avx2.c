// The deep interior's 4:2:0 walk with AVX2 gathers: the same taps, weights and 8.8 bilinear sums as the scalar
// walk (`PlanarYUVSampler.fillInsideScalar`), exactly, then the colour matrix in floats (a channel may differ
// from the scalar rounding by 1). One gather reads four bytes at each of eight offsets: the two taps of a row.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// (top·(256 − fy) + bottom·fy) / 256 of the horizontal lerps (a·256 + (b − a)·fx), per 32-bit lane: 8.8 results.
AVX2 static inline __m256i bilinear(__m256i top, __m256i bottom, __m256i fx, __m256i fy) {
    const __m256i byte = _mm256_set1_epi32(0xff);
    __m256i a = _mm256_and_si256(top, byte), b = _mm256_and_si256(_mm256_srli_epi32(top, 8), byte);
    __m256i c = _mm256_and_si256(bottom, byte), d = _mm256_and_si256(_mm256_srli_epi32(bottom, 8), byte);
    __m256i t = _mm256_add_epi32(_mm256_slli_epi32(a, 8), _mm256_mullo_epi32(_mm256_sub_epi32(b, a), fx));
    __m256i u = _mm256_add_epi32(_mm256_slli_epi32(c, 8), _mm256_mullo_epi32(_mm256_sub_epi32(d, c), fx));
    return _mm256_srai_epi32(_mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(u, t), fy)), 8);
}

/// Eight positions of a walk: start + i·step.
AVX2 static inline __m256i lanes(int32_t start, int32_t step) {
    return _mm256_add_epi32(_mm256_set1_epi32(start), _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(step)));
}

/// Rounded to nearest and clamped to 0…255.
AVX2 static inline __m256i channel(__m256 x) {
    return _mm256_min_epi32(_mm256_max_epi32(_mm256_cvtps_epi32(x), _mm256_setzero_si256()), _mm256_set1_epi32(255));
}

AVX2 long lp_yuv420_bilinear_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                                  const lp_yuv420_walks *w, const lp_yuv_matrix *m) {
    const long groups = count / 8;
    const __m256i byte = _mm256_set1_epi32(0xff);
    const __m256i yStride = _mm256_set1_epi32((int32_t)p->yStride), cStride = _mm256_set1_epi32((int32_t)p->cStride);
    const int *yTop = (const int *)p->y, *yBottom = (const int *)(p->y + p->yStride);
    const int *uTop = (const int *)p->u, *uBottom = (const int *)(p->u + p->cStride);
    const int *vTop = (const int *)p->v, *vBottom = (const int *)(p->v + p->cStride);
    __m256i lx = lanes(w->lx, w->lsx), ly = lanes(w->ly, w->lsy), cx = lanes(w->cx, w->csx), cy = lanes(w->cy, w->csy);
    const __m256i lsx = _mm256_set1_epi32(8 * w->lsx), lsy = _mm256_set1_epi32(8 * w->lsy);
    const __m256i csx = _mm256_set1_epi32(8 * w->csx), csy = _mm256_set1_epi32(8 * w->csy);
    const __m256 yScale = _mm256_set1_ps(m->yScale), cbToB = _mm256_set1_ps(m->cbToB), cbToG = _mm256_set1_ps(m->cbToG);
    const __m256 crToG = _mm256_set1_ps(m->crToG), crToR = _mm256_set1_ps(m->crToR);
    const __m256 b0 = _mm256_set1_ps(m->b0), g0 = _mm256_set1_ps(m->g0), r0 = _mm256_set1_ps(m->r0);
    const __m256i opaque = _mm256_set1_epi32((int32_t)0xff000000u);
    for (long g = 0; g < groups; g++) {
        __m256i lo = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(ly, 16), yStride), _mm256_srai_epi32(lx, 16));
        __m256i luma = bilinear(_mm256_i32gather_epi32(yTop, lo, 1), _mm256_i32gather_epi32(yBottom, lo, 1),
                                _mm256_and_si256(_mm256_srli_epi32(lx, 8), byte), _mm256_and_si256(_mm256_srli_epi32(ly, 8), byte));
        __m256i co = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(cy, 16), cStride), _mm256_srai_epi32(cx, 16));
        __m256i fx = _mm256_and_si256(_mm256_srli_epi32(cx, 8), byte), fy = _mm256_and_si256(_mm256_srli_epi32(cy, 8), byte);
        __m256i cb = bilinear(_mm256_i32gather_epi32(uTop, co, 1), _mm256_i32gather_epi32(uBottom, co, 1), fx, fy);
        __m256i cr = bilinear(_mm256_i32gather_epi32(vTop, co, 1), _mm256_i32gather_epi32(vBottom, co, 1), fx, fy);
        lx = _mm256_add_epi32(lx, lsx); ly = _mm256_add_epi32(ly, lsy);
        cx = _mm256_add_epi32(cx, csx); cy = _mm256_add_epi32(cy, csy);

        __m256 l = _mm256_mul_ps(_mm256_cvtepi32_ps(luma), yScale), u = _mm256_cvtepi32_ps(cb), v = _mm256_cvtepi32_ps(cr);
        __m256 b = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(u, cbToB)), b0);
        __m256 gg = _mm256_add_ps(_mm256_add_ps(l, _mm256_add_ps(_mm256_mul_ps(u, cbToG), _mm256_mul_ps(v, crToG))), g0);
        __m256 r = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(v, crToR)), r0);
        __m256i word = _mm256_or_si256(_mm256_or_si256(channel(b), _mm256_slli_epi32(channel(gg), 8)),
                                       _mm256_or_si256(_mm256_slli_epi32(channel(r), 16), opaque));
        _mm256_storeu_si256((__m256i *)(dst + 8 * g), word);
    }
    return groups * 8;
}

#else
long lp_yuv420_bilinear_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                             const lp_yuv420_walks *w, const lp_yuv_matrix *m) {
    (void)dst; (void)count; (void)p; (void)w; (void)m;
    return 0;
}
#endif
