// The deep interior's 4:2:0 walk with AVX2: the same taps, weights and 8.8 bilinear sums as the scalar
// walk (`PlanarYUVSampler.fillInsideScalar`), exactly, then the colour matrix in floats (a channel may differ
// from the scalar rounding by 1). Four pixels' taps on a row come from one 16-byte load and a byte shuffle where
// they fit in it (most groups, down to a quarter size, across a row boundary), else from gathers of four bytes.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define ALWAYS_INLINE __attribute__((always_inline))

/// The horizontal weights of eight 16.16 positions as 16-bit pairs (256 − fx, fx), fx the position's 8-bit fraction.
AVX2 static inline __m256i pair_weights(__m256i x) {
    __m256i fx = _mm256_and_si256(_mm256_srli_epi32(x, 8), _mm256_set1_epi32(0xff));
    return _mm256_add_epi32(_mm256_sub_epi32(_mm256_set1_epi32(256), fx), _mm256_slli_epi32(fx, 16));
}

/// (top·(256 − fy) + bottom·fy) / 256 of the horizontal lerps a·(256 − fx) + b·fx = a·256 + (b − a)·fx, per 32-bit
/// lane: 8.8 results. Each row's taps (a, b) are 16-bit pairs, so one multiply-add of pairs makes a lerp (exactly:
/// every term is under 2¹⁶).
AVX2 static inline __m256i bilinear(__m256i top, __m256i bottom, __m256i wx, __m256i fy) {
    __m256i t = _mm256_madd_epi16(top, wx), u = _mm256_madd_epi16(bottom, wx);
    return _mm256_srai_epi32(_mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(u, t), fy)), 8);
}

/// Eight positions of a walk: start + i·step.
AVX2 static inline __m256i lanes(int32_t start, int32_t step) {
    return _mm256_add_epi32(_mm256_set1_epi32(start), _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(step)));
}

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

/// The two taps (left, right) of eight positions on one row, as 16-bit pairs in 32-bit lanes.
typedef struct {
    __m256i top, bottom;
} row_taps;

/// The taps of eight positions on a pair of rows (top at `rows`), read with gathers.
AVX2 static inline row_taps gather_taps(const uint8_t *rows, long stride, __m256i x, __m256i y) {
    __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(y, 16), _mm256_set1_epi32((int32_t)stride)),
                                  _mm256_srai_epi32(x, 16));
    // Bytes 0 and 1 of each gathered word become the lane's pair.
    const __m256i pairs = _mm256_setr_epi8(0, -128, 1, -128, 4, -128, 5, -128, 8, -128, 9, -128, 12, -128, 13, -128,
                                           0, -128, 1, -128, 4, -128, 5, -128, 8, -128, 9, -128, 12, -128, 13, -128);
    row_taps t = { _mm256_shuffle_epi8(_mm256_i32gather_epi32((const int *)rows, at, 1), pairs),
                   _mm256_shuffle_epi8(_mm256_i32gather_epi32((const int *)(rows + stride), at, 1), pairs) };
    return t;
}

/// Where eight positions along a walk take their taps from 16-byte loads instead of gathers (slow on the CPUs we
/// target): per half of the group (a byte shuffle works within each 128-bit half), one window a row.
typedef struct {
    long at[2];          // each half's window on its first row, as an offset in the plane
    __m256i control;     // the shuffle: bytes i and i + 1 of the lane's half's window into its two 16-bit halves
    __m256i onFirstRow;  // lanes whose top tap is on their half's first row (all of them unless `spansTwoRows`)
    int spansTwoRows;    // some half's positions straddle two rows: its top taps come from two rows, its bottom from two
} row_windows;

/// Whether eight positions along a walk fit the windows: each half's four positions within 13 bytes of one another
/// (up to about 4 texels a pixel) and on at most two neighbouring rows. Walks are monotonic, so a half's end lanes
/// bound it, and those are broadcast across the half in vector lanes (no scalar extracts). Each window ends where
/// the gathers' reads would (3 bytes past the half's rightmost left tap), on rows the gathers read, so it reads no
/// memory they would not: the precondition on the planes' memory is unchanged.
AVX2 static inline int shared_windows(__m256i x, __m256i y, long stride, row_windows *w) {
    const __m256i one = _mm256_set1_epi32(1), twelve = _mm256_set1_epi32(12);
    __m256i column = _mm256_srai_epi32(x, 16), row = _mm256_srai_epi32(y, 16);
    __m256i first = _mm256_shuffle_epi32(column, 0x00), last = _mm256_shuffle_epi32(column, 0xff);
    __m256i high = _mm256_max_epi32(first, last), low = _mm256_min_epi32(first, last);
    __m256i rowA = _mm256_shuffle_epi32(row, 0x00), rowB = _mm256_shuffle_epi32(row, 0xff);
    __m256i top = _mm256_min_epi32(rowA, rowB);
    __m256i misfit = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_sub_epi32(high, low), twelve), _mm256_cmpgt_epi32(twelve, high));
    misfit = _mm256_or_si256(misfit, _mm256_cmpgt_epi32(_mm256_sub_epi32(_mm256_max_epi32(rowA, rowB), top), one));
    if (!_mm256_testz_si256(misfit, misfit)) return 0;
    __m256i start = _mm256_sub_epi32(high, twelve);
    __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(top, _mm256_set1_epi32((int32_t)stride)), start);
    w->at[0] = _mm256_cvtsi256_si32(offset);
    w->at[1] = _mm_cvtsi128_si32(_mm256_extracti128_si256(offset, 1));
    __m256i i = _mm256_sub_epi32(column, start);
    w->control = _mm256_add_epi32(_mm256_or_si256(i, _mm256_slli_epi32(i, 16)), _mm256_set1_epi32((int32_t)0x80018000u));
    w->onFirstRow = _mm256_cmpeq_epi32(row, top);
    w->spansTwoRows = _mm256_movemask_epi8(w->onFirstRow) != -1;
    return 1;
}

/// One row's taps through the windows, `rows` rows below their first.
AVX2 static inline __m256i window_row(const uint8_t *plane, long stride, const row_windows *w, long rows) {
    __m256i bytes = _mm256_loadu2_m128i((const __m128i *)(plane + w->at[1] + rows * stride), (const __m128i *)(plane + w->at[0] + rows * stride));
    return _mm256_shuffle_epi8(bytes, w->control);
}

/// The taps of eight positions through the windows: a lane on its half's second row takes the next row's taps.
AVX2 static inline row_taps window_taps(const uint8_t *plane, long stride, const row_windows *w) {
    __m256i first = window_row(plane, stride, w, 0), second = window_row(plane, stride, w, 1);
    if (!w->spansTwoRows) {
        row_taps t = { first, second };
        return t;
    }
    __m256i third = window_row(plane, stride, w, 2);
    row_taps t = { _mm256_blendv_epi8(second, first, w->onFirstRow), _mm256_blendv_epi8(third, second, w->onFirstRow) };
    return t;
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

    __m256 l = _mm256_mul_ps(_mm256_cvtepi32_ps(luma), k->yScale), u = _mm256_cvtepi32_ps(cb), v = _mm256_cvtepi32_ps(cr);
    __m256 b = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(u, k->cbToB)), k->b0);
    __m256 g = _mm256_add_ps(_mm256_add_ps(l, _mm256_add_ps(_mm256_mul_ps(u, k->cbToG), _mm256_mul_ps(v, k->crToG))), k->g0);
    __m256 r = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(v, k->crToR)), k->r0);
    return bgra_words(b, g, r);
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
        // Gathers do not wake the hardware prefetchers: fetch the rows a few groups ahead along the walk, and the rows
        // below them that the next pixel row reads when the walk descends up to two rows a row (the planes of a
        // decoded frame are cold by the time they are composited: 8 % fewer of the kernel's samples in the scene
        // export). A prefetch never faults, past a plane's end included.
        {
            long l0 = (long)_mm256_extract_epi32(ly, 0) >> 16, l7 = (long)_mm256_extract_epi32(ly, 7) >> 16;
            long x0l = (long)_mm256_extract_epi32(lx, 0) >> 16, x7l = (long)_mm256_extract_epi32(lx, 7) >> 16;
            long ahead = x7l + 3 * (x7l - x0l), rowAhead = l7 + 3 * (l7 - l0);
            if (ahead >= 0 && rowAhead >= 0) {
                const uint8_t *at = p->y + rowAhead * p->yStride + ahead;
                _mm_prefetch((const char *)at, _MM_HINT_T0);
                _mm_prefetch((const char *)(at + p->yStride), _MM_HINT_T0);
                _mm_prefetch((const char *)(at + 2 * p->yStride), _MM_HINT_T0);
                _mm_prefetch((const char *)(at + 3 * p->yStride), _MM_HINT_T0);
            }
            long c0 = (long)_mm256_extract_epi32(cy, 0) >> 16, c7 = (long)_mm256_extract_epi32(cy, 7) >> 16;
            long cx0 = (long)_mm256_extract_epi32(cx, 0) >> 16, cx7 = (long)_mm256_extract_epi32(cx, 7) >> 16;
            long cAhead = cx7 + 3 * (cx7 - cx0), cRow = c7 + 3 * (c7 - c0);
            if (cAhead >= 0 && cRow >= 0) {
                long o = cRow * p->cStride + cAhead;
                _mm_prefetch((const char *)(p->u + o), _MM_HINT_T0);
                _mm_prefetch((const char *)(p->u + o + p->cStride), _MM_HINT_T0);
                _mm_prefetch((const char *)(p->v + o), _MM_HINT_T0);
                _mm_prefetch((const char *)(p->v + o + p->cStride), _MM_HINT_T0);
                _mm_prefetch((const char *)(p->u + o + 2 * p->cStride), _MM_HINT_T0);
                _mm_prefetch((const char *)(p->v + o + 2 * p->cStride), _MM_HINT_T0);
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
