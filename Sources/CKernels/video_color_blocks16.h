// The colour converter's 4:2:0 two-row body sixteen columns at a time, for video_color_avx512.c after
// video_color_body.h. The eight-column body spent about 40 % of a 1080p HDR frame's time outside the chain (loads,
// block checks, interpolation, stores), in eight-lane registers, while the chain ran sixteen lanes; here two
// eight-column groups side by side share each load, check and store. Which groups are interpolated, and every float
// operation, stay those of the eight-column body (and of the twin): a group is still interpolated or not on its own,
// and an interpolated pair of groups runs the same lane-wise operations at twice the width.

/// Sixteen samples as 32-bit lanes: 8-bit or 16-bit ones.
VC_TARGET static inline __m512i load16(const void *p, int sampleBytes) {
    if (sampleBytes == 2) return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p));
}

/// Eight samples, each twice (the chroma of sixteen luma columns).
VC_TARGET static inline __m512i load8twice(const void *p, int sampleBytes) {
    __m256i eight = sampleBytes == 2 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p))
                                     : _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
    const __m512i twice = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    return _mm512_permutexvar_epi32(twice, _mm512_castsi256_si512(eight));
}

/// An eight-lane register in both halves of a sixteen-lane one.
VC_TARGET static inline __m512 both_halves(__m256 v) { return join(v, v); }

/// Half h (0: lanes 0…7, 1: 8…15) of a sixteen-lane register, as eight lanes.
VC_TARGET static inline __m256 half_ps(__m512 v, int h) {
    return h ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)) : _mm512_castps512_ps256(v);
}
VC_TARGET static inline __m256i half_si(__m512i v, int h) {
    return h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
}

/// Sixteen 32-bit codes truncated from floats, saturated to 0…255, as sixteen bytes (`bytes8` at twice the width).
VC_TARGET static inline __m128i bytes16(__m512 v) {
    return _mm512_cvtusepi32_epi8(_mm512_max_epi32(_mm512_cvttps_epi32(v), _mm512_setzero_si512()));
}

/// What `store_interpolated` needs at sixteen lanes: the rows' dither and Cb's and Cr's scales and dither, eight
/// chroma samples' worth (Cb's in lanes 0…7, Cr's in 8…15).
typedef struct {
    __m512 yBias[2], cBias, pairScales;
} outputs16;

/// `store_interpolated` for sixteen columns from x (two groups, their runs' ends side by side in `yEnds`, `dBEnds`,
/// `dREnds`): the same operations lane by lane.
VC_TARGET static inline void store_interpolated16(const outputs *o, const outputs16 *o16, long x, const __m512i *lumaCodes,
                                                  __m512i lo, __m512i hi, __m512 yEnds, __m512 dBEnds, __m512 dREnds) {
    const __m512 reciprocals = _mm512_setr_ps(0, 1, 1.0f / 2, 1.0f / 3, 1.0f / 4, 1.0f / 5, 1.0f / 6, 1.0f / 7,
                                              0, 0, 0, 0, 0, 0, 0, 0);
    __m512 inverse = _mm512_permutexvar_ps(_mm512_and_si512(_mm512_sub_epi32(hi, lo), _mm512_set1_epi32(7)), reciprocals);
    __m512 yLo = _mm512_moveldup_ps(yEnds), yRise = _mm512_sub_ps(_mm512_movehdup_ps(yEnds), yLo);
    __m512 t[2];
    for (int j = 0; j < 2; j++) {
        t[j] = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(lumaCodes[j], lo)), inverse);
        __m512 yPrime = _mm512_fmadd_ps(yRise, t[j], yLo);
        _mm_storeu_si128((__m128i *)(o->yOut[j] + x), bytes16(_mm512_fmadd_ps(_mm512_set1_ps(219), yPrime, o16->yBias[j])));
    }
    __m512 columns = _mm512_add_ps(t[0], t[1]);
    __m512 positions = _mm512_add_ps(columns, _mm512_shuffle_ps(columns, columns, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m512 four = _mm512_set1_ps(4);
    __m512 bLo = _mm512_moveldup_ps(dBEnds), rLo = _mm512_moveldup_ps(dREnds);
    __m512 sumB = _mm512_fmadd_ps(_mm512_sub_ps(_mm512_movehdup_ps(dBEnds), bLo), positions, _mm512_mul_ps(four, bLo));
    __m512 sumR = _mm512_fmadd_ps(_mm512_sub_ps(_mm512_movehdup_ps(dREnds), rLo), positions, _mm512_mul_ps(four, rLo));
    // Each block's sums sit in both its lanes: Cb's eight into lanes 0…7, Cr's into 8…15.
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    __m128i codes = bytes16(_mm512_fmadd_ps(_mm512_permutex2var_ps(sumB, evens, sumR), o16->pairScales, o16->cBias));
    long cx = x >> 1;
    _mm_storel_epi64((__m128i *)(o->cbOut + cx), codes);
    _mm_storel_epi64((__m128i *)(o->crOut + cx), _mm_unpackhi_epi64(codes, codes));
}

/// The columns 0…(count rounded down to 16) of two luma rows of 4:2:0 with blocks interpolated (`blockSpread` ≥ 0),
/// as `convert_rows` converts them: returns how many.
VC_TARGET static inline __attribute__((always_inline)) long convert_blocks16(
    const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut, long count,
    const void *luma0, const void *luma1, const void *cb, const void *cr, const int sampleBytes, long row, long chromaRow) {
    enum { PAIRS = GROUPS / 2 };
    const long whole = count / 16 * 16;
    const outputs o = make_outputs(k, yOut0, yOut1, cbOut, crOut, 2, 1, row, chromaRow);
    // The dither repeats every four columns, so sixteen lanes are the eight twice; Cb's scale in lanes 0…7, Cr's
    // in 8…15.
    outputs16 o16;
    o16.yBias[0] = both_halves(o.yBias[0]); o16.yBias[1] = both_halves(o.yBias[1]);
    o16.cBias = both_halves(o.cBias);
    o16.pairScales = _mm512_shuffle_f32x4(_mm512_castps256_ps512(o.pairScales), _mm512_castps256_ps512(o.pairScales),
                                          _MM_SHUFFLE(1, 1, 0, 0));
    const __m512i spreadLimit = _mm512_set1_epi32(k->blockSpread);
    const __m512 cOffset = _mm512_set1_ps(k->cOffset);
    // Per pair of groups: their luma codes, their blocks' ends, which of the two are interpolated (bit 0: the
    // first), each one's first run.
    __m512i codes[PAIRS][2], lo[PAIRS], hi[PAIRS];
    int interpolated[PAIRS], first[PAIRS][2];
    chain_runs c;
    for (long start = 0; start < whole; start += 16 * PAIRS) {
        const int pairs = (int)((whole - start < 16 * PAIRS ? whole - start : 16 * PAIRS) / 16);
        int runs = 0;
        for (int p = 0; p < pairs; p++) {
            long x = start + 16 * p, cx = x >> 1;
            __m512 b = _mm512_sub_ps(_mm512_cvtepi32_ps(load8twice((const char *)cb + cx * sampleBytes, sampleBytes)), cOffset);
            __m512 r = _mm512_sub_ps(_mm512_cvtepi32_ps(load8twice((const char *)cr + cx * sampleBytes, sampleBytes)), cOffset);
            const __m512 termR = _mm512_mul_ps(_mm512_set1_ps(k->rCr), r);
            const __m512 termG = _mm512_fmadd_ps(_mm512_set1_ps(k->gCr), r, _mm512_mul_ps(_mm512_set1_ps(k->gCb), b));
            const __m512 termB = _mm512_mul_ps(_mm512_set1_ps(k->bCb), b);
            codes[p][0] = load16((const char *)luma0 + x * sampleBytes, sampleBytes);
            codes[p][1] = load16((const char *)luma1 + x * sampleBytes, sampleBytes);
            __m512i columnLo = _mm512_min_epi32(codes[p][0], codes[p][1]), columnHi = _mm512_max_epi32(codes[p][0], codes[p][1]);
            lo[p] = _mm512_min_epi32(columnLo, _mm512_shuffle_epi32(columnLo, _MM_PERM_CDAB));
            hi[p] = _mm512_max_epi32(columnHi, _mm512_shuffle_epi32(columnHi, _MM_PERM_CDAB));
            __mmask16 wide = _mm512_cmpgt_epi32_mask(_mm512_sub_epi32(hi[p], lo[p]), spreadLimit);
            interpolated[p] = ((wide & 0xFF) == 0) | ((wide >> 8) == 0) << 1;
            const __m512i ends = _mm512_mask_blend_epi32(0xAAAA, lo[p], hi[p]);
            if (interpolated[p] == 3) {
                // Both groups: their two runs side by side, stored as one register each.
                first[p][0] = runs; first[p][1] = runs + 1;
                _mm512_storeu_ps(&c.addR[runs], termR); _mm512_storeu_ps(&c.addG[runs], termG);
                _mm512_storeu_ps(&c.addB[runs], termB);
                _mm512_storeu_si512(&c.codes[runs], ends);
                runs += 2;
                continue;
            }
            for (int h = 0; h < 2; h++) {
                first[p][h] = runs;
                const __m256 hR = half_ps(termR, h), hG = half_ps(termG, h), hB = half_ps(termB, h);
                const int rowsOfRuns = interpolated[p] >> h & 1 ? 1 : 2;
                for (int j = 0; j < rowsOfRuns; j++) {
                    c.addR[runs] = hR; c.addG[runs] = hG; c.addB[runs] = hB;
                    c.codes[runs++] = half_si(rowsOfRuns == 1 ? ends : codes[p][j], h);
                }
            }
        }
        run_chain_over(k, runs, &c);
        for (int p = 0; p < pairs; p++) {
            long x = start + 16 * p;
            if (interpolated[p] == 3) {
                // A kink between a block's ends: that group goes pixel by pixel (below).
                const int i = first[p][0];
                __m512i kinked = _mm512_loadu_si512(&c.kinks[i]);
                if (_mm512_cmpeq_epi32_mask(kinked, _mm512_shuffle_epi32(kinked, _MM_PERM_CDAB)) == 0xFFFF) {
                    store_interpolated16(&o, &o16, x, codes[p], lo[p], hi[p], _mm512_loadu_ps(&c.yPrime[i]),
                                         _mm512_loadu_ps(&c.dB[i]), _mm512_loadu_ps(&c.dR[i]));
                    continue;
                }
            }
            // Otherwise each group as the eight-column body finishes it.
            for (int h = 0; h < 2; h++) {
                const __m256i groupCodes[2] = {half_si(codes[p][0], h), half_si(codes[p][1], h)};
                store_group_after_chain(k, &o, x + 8 * h, groupCodes, half_si(lo[p], h), half_si(hi[p], h),
                                        interpolated[p] >> h & 1, &c, first[p][h]);
            }
        }
    }
    return whole;
}
