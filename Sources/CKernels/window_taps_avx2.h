// Bilinear taps of eight 16.16 positions along a walk over an 8-bit plane, shared by the AVX2 kernels: from 16-byte
// windows and a byte shuffle where the positions fit them, else from gathers (slow on the CPUs we target). Included
// by the kernels' files only, after <immintrin.h> and the AVX2 macro.
#ifndef LP_WINDOW_TAPS_H
#define LP_WINDOW_TAPS_H

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
    long third[2];       // the row each half reads third: 2 below its first if it straddles, else 1 (read, never used)
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
    // Each half decides alone whether it reads a third row: a half all on one row needs none, and its next-but-one
    // row may lie past the plane (a half on the last two rows beside one that straddles: ASan's over-read).
    unsigned firstRowBytes = (unsigned)_mm256_movemask_epi8(w->onFirstRow);
    w->third[0] = (firstRowBytes & 0xffffu) != 0xffffu ? 2 : 1;
    w->third[1] = (firstRowBytes >> 16) != 0xffffu ? 2 : 1;
    w->spansTwoRows = firstRowBytes != 0xffffffffu;
    return 1;
}

/// One row's taps through the windows, `low` rows below the first half's first row and `high` below the second's.
AVX2 static inline __m256i window_rows(const uint8_t *plane, long stride, const row_windows *w, long low, long high) {
    __m256i bytes = _mm256_loadu2_m128i((const __m128i *)(plane + w->at[1] + high * stride), (const __m128i *)(plane + w->at[0] + low * stride));
    return _mm256_shuffle_epi8(bytes, w->control);
}

/// One row's taps through the windows, `rows` rows below their first.
AVX2 static inline __m256i window_row(const uint8_t *plane, long stride, const row_windows *w, long rows) {
    return window_rows(plane, stride, w, rows, rows);
}

/// The taps of eight positions through the windows: a lane on its half's second row takes the next row's taps.
AVX2 static inline row_taps window_taps(const uint8_t *plane, long stride, const row_windows *w) {
    __m256i first = window_row(plane, stride, w, 0), second = window_row(plane, stride, w, 1);
    if (!w->spansTwoRows) {
        row_taps t = { first, second };
        return t;
    }
    __m256i third = window_rows(plane, stride, w, w->third[0], w->third[1]);
    row_taps t = { _mm256_blendv_epi8(second, first, w->onFirstRow), _mm256_blendv_epi8(third, second, w->onFirstRow) };
    return t;
}

#endif
