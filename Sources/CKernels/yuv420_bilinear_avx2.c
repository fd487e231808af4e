// The deep interior's 4:2:0 walk with AVX2: the same taps, weights and 8.8 bilinear sums as the scalar
// walk (`PlanarYUVSampler.fillInsideScalar`), exactly, then the colour matrix in floats (a channel may differ
// from the scalar rounding by 1). Four pixels' taps on a row come from one 16-byte load and a byte shuffle where
// they fit in it (most groups, down to a quarter size, across a row boundary), else from gathers of four bytes.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define ALWAYS_INLINE __attribute__((always_inline))

#include "window_taps_avx2.h"
#include "yuv_matrix_avx2.h"

/// Eight positions of a walk: start + i·step.
AVX2 static inline __m256i lanes(int32_t start, int32_t step) {
    return _mm256_add_epi32(_mm256_set1_epi32(start), _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(step)));
}

/// Eight opaque BGRA words: the bilinear samples at eight 16.16 positions per walk (luma x, y; chroma x, y).
AVX2 ALWAYS_INLINE static inline __m256i sample8(const lp_yuv420_planes *p, const matrix_lanes *k,
                                   __m256i lx, __m256i ly, __m256i cx, __m256i cy) {
    const __m256i byte = _mm256_set1_epi32(0xff);
    row_taps y;
    row_windows w;
    if (shared_windows(lx, ly, p->yStride, &w)) {
        y = window_taps(p->y, p->yStride, &w);
    } else {
        y = gather_taps(p->y, p->yStride, lx, ly);
    }
    __m256i luma = bilinear(y.top, y.bottom, pair_weights(lx), _mm256_and_si256(_mm256_srli_epi32(ly, 8), byte));
    row_taps blue, red;
    if (shared_windows(cx, cy, p->cStride, &w)) {
        blue = window_taps(p->u, p->cStride, &w);
        red = window_taps(p->v, p->cStride, &w);
    } else {
        blue = gather_taps(p->u, p->cStride, cx, cy);
        red = gather_taps(p->v, p->cStride, cx, cy);
    }
    __m256i wx = pair_weights(cx), fy = _mm256_and_si256(_mm256_srli_epi32(cy, 8), byte);
    __m256i cb = bilinear(blue.top, blue.bottom, wx, fy);
    __m256i cr = bilinear(red.top, red.bottom, wx, fy);
    return yuv_to_bgra(k, luma, cb, cr);
}

AVX2 long lp_yuv420_bilinear_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                                  const lp_yuv420_walks *w, const lp_yuv_matrix *m) {
    const long groups = count / 8;
    const matrix_lanes k = broadcast(m);
    __m256i lx = lanes(w->lx, w->lsx), ly = lanes(w->ly, w->lsy), cx = lanes(w->cx, w->csx), cy = lanes(w->cy, w->csy);
    const __m256i lsx = _mm256_set1_epi32(8 * w->lsx), lsy = _mm256_set1_epi32(8 * w->lsy);
    const __m256i csx = _mm256_set1_epi32(8 * w->csx), csy = _mm256_set1_epi32(8 * w->csy);
    for (long g = 0; g < groups; g++) {
        _mm256_storeu_si256((__m256i *)(dst + 8 * g), sample8(p, &k, lx, ly, cx, cy));
        lx = _mm256_add_epi32(lx, lsx); ly = _mm256_add_epi32(ly, lsy);
        cx = _mm256_add_epi32(cx, csx); cy = _mm256_add_epi32(cy, csy);
    }
    return groups * 8;
}

/// One walk's 16.16 positions for eight pixels: (texel · scale + offset), clamped, rounded to nearest (even).
AVX2 static inline __m256i fixed8(__m256 texel, __m256 scale, __m256 offset, __m256 limit) {
    return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(_mm256_add_ps(_mm256_mul_ps(texel, scale), offset), _mm256_setzero_ps()), limit));
}

AVX2 void lp_yuv420_projective_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                                    const lp_row_projection *r, const lp_yuv420_fixing *f, const lp_yuv_matrix *m) {
    const matrix_lanes k = broadcast(m);
    // In floats, eight lanes an instruction (see CKernels.h for why that is exact enough).
    const __m256 x0 = _mm256_set1_ps((float)r->x0), dx = _mm256_set1_ps((float)r->dx), y0 = _mm256_set1_ps((float)r->y0);
    const __m256 dy = _mm256_set1_ps((float)r->dy), w0 = _mm256_set1_ps((float)r->w0), dw = _mm256_set1_ps((float)r->dw);
    const __m256 one = _mm256_set1_ps(1);
    const __m256 lsx = _mm256_set1_ps((float)f->lumaScaleX), lox = _mm256_set1_ps((float)f->lumaOffsetX), llx = _mm256_set1_ps((float)f->lumaLimitX);
    const __m256 lsy = _mm256_set1_ps((float)f->lumaScaleY), loy = _mm256_set1_ps((float)f->lumaOffsetY), lly = _mm256_set1_ps((float)f->lumaLimitY);
    const __m256 csx = _mm256_set1_ps((float)f->chromaScaleX), cox = _mm256_set1_ps((float)f->chromaOffsetX), clx = _mm256_set1_ps((float)f->chromaLimitX);
    const __m256 csy = _mm256_set1_ps((float)f->chromaScaleY), coy = _mm256_set1_ps((float)f->chromaOffsetY), cly = _mm256_set1_ps((float)f->chromaLimitY);
    // The last group repeats the last pixel in the lanes past the end (inside like it) and stores only the rest.
    const __m256 last = _mm256_set1_ps((float)(count - 1));
    const __m256 first8 = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    for (long i = 0; i < count; i += 8) {
        const __m256 at = _mm256_min_ps(_mm256_add_ps(_mm256_set1_ps((float)i), first8), last);
        const __m256 rw = _mm256_div_ps(one, _mm256_add_ps(w0, _mm256_mul_ps(at, dw)));
        const __m256 u = _mm256_mul_ps(_mm256_add_ps(x0, _mm256_mul_ps(at, dx)), rw);
        const __m256 v = _mm256_mul_ps(_mm256_add_ps(y0, _mm256_mul_ps(at, dy)), rw);
        __m256i lx = fixed8(u, lsx, lox, llx), ly = fixed8(v, lsy, loy, lly);
        __m256i cx = fixed8(u, csx, cox, clx), cy = fixed8(v, csy, coy, cly);
        // Gathers do not wake the hardware prefetchers: fetch the lines a few groups ahead along the walk, on its rows
        // and on the rows below them that the next pixel rows read (the planes of a decoded frame are cold by the time
        // they are composited; without prefetching the kernel takes 60 % more samples in the scene export). Ten luma
        // rows and four chroma rows: near the far edge of a card turned away the walk descends several texel rows a
        // pixel row. Measured in the x264 scene export: 6 % fewer of the kernel's samples than four and three rows;
        // prefetching instead exactly the lines read two or four pixel rows below took 3–7 % more than four and
        // three rows (perhaps a line asked for on several passes is more often there in time). A prefetch never
        // faults, past a plane's end included.
        {
            long l0 = (long)_mm256_extract_epi32(ly, 0) >> 16, l7 = (long)_mm256_extract_epi32(ly, 7) >> 16;
            long x0l = (long)_mm256_extract_epi32(lx, 0) >> 16, x7l = (long)_mm256_extract_epi32(lx, 7) >> 16;
            long ahead = x7l + 3 * (x7l - x0l), rowAhead = l7 + 3 * (l7 - l0);
            if (ahead >= 0 && rowAhead >= 0) {
                const uint8_t *at = p->y + rowAhead * p->yStride + ahead;
                for (long row = 0; row < 10; row++) _mm_prefetch((const char *)(at + row * p->yStride), _MM_HINT_T0);
            }
            long c0 = (long)_mm256_extract_epi32(cy, 0) >> 16, c7 = (long)_mm256_extract_epi32(cy, 7) >> 16;
            long cx0 = (long)_mm256_extract_epi32(cx, 0) >> 16, cx7 = (long)_mm256_extract_epi32(cx, 7) >> 16;
            long cAhead = cx7 + 3 * (cx7 - cx0), cRow = c7 + 3 * (c7 - c0);
            if (cAhead >= 0 && cRow >= 0) {
                long o = cRow * p->cStride + cAhead;
                for (long row = 0; row < 4; row++) {
                    _mm_prefetch((const char *)(p->u + o + row * p->cStride), _MM_HINT_T0);
                    _mm_prefetch((const char *)(p->v + o + row * p->cStride), _MM_HINT_T0);
                }
            }
        }
        __m256i word = sample8(p, &k, lx, ly, cx, cy);
        if (count - i >= 8) {
            _mm256_storeu_si256((__m256i *)(dst + i), word);
        } else {
            uint32_t tail[8];
            _mm256_storeu_si256((__m256i *)tail, word);
            for (long j = 0; j < count - i; j++) dst[i + j] = tail[j];
        }
    }
}

#else
long lp_yuv420_bilinear_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                             const lp_yuv420_walks *w, const lp_yuv_matrix *m) {
    (void)dst; (void)count; (void)p; (void)w; (void)m;
    return 0;
}
void lp_yuv420_projective_avx2(uint32_t *dst, long count, const lp_yuv420_planes *p,
                               const lp_row_projection *r, const lp_yuv420_fixing *f, const lp_yuv_matrix *m) {
    (void)dst; (void)count; (void)p; (void)r; (void)f; (void)m;
}
#endif
