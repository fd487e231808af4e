// The colour converter's kernel (LayerGraphics' VideoColorConverter.swift; its Swift twin, `rowsSwift`, is the
// reference in the tests), included by video_color_avx2.c (curves read from tables with gathers) and
// video_color_avx512.c (curves as cubic pieces picked with permutes, sixteen pixels a register), which define
// VC_TARGET and `run_chain` (the chain's steps over a chunk's runs) first. The chain — Y'CbCr → R'G'B', the decode curve, the tone curve's
// gain on luminance, the primaries matrix, the gamut move, the encode curve, BT.709 Y' with the ordered dither —
// eight luma pixels a register, two luma rows a call (4:2:0's pair sharing a chroma row: its chroma is loaded once),
// the chroma codes averaged in registers; a 4:2:0 block whose luma codes lie close together from two runs of the
// chain (its darkest and brightest pixel), the others interpolated. Each step of the chain runs over a chunk of
// pixels before the next so that table reads and divisions overlap. Every float operation is the Swift twin's, in its
// order, a multiply-add fused exactly where the twin fuses it (`addingProduct`), so the two agree bit for bit. (Fused,
// the 1080p conversion took 8 % less time than with each multiplication and addition apart.)

/// Eight samples as 32-bit lanes: 8-bit or 16-bit ones.
VC_TARGET static inline __m256i load8(const void *p, int sampleBytes) {
    if (sampleBytes == 2) return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}

/// Four samples, each twice (the chroma of eight luma pixels of a horizontally subsampled plane).
VC_TARGET static inline __m256i load4twice(const void *p, int sampleBytes) {
    __m128i four;
    if (sampleBytes == 2) {
        int64_t bits;
        memcpy(&bits, p, 8);
        four = _mm_cvtepu16_epi32(_mm_cvtsi64_si128(bits));
    } else {
        int32_t bits;
        memcpy(&bits, p, 4);
        four = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(bits));
    }
    return _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(four), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
}

/// Eight 32-bit codes truncated from floats, saturated to 0…255, as eight bytes (in lane order).
VC_TARGET static inline __m128i bytes8(__m256 v) {
    __m256i codes = _mm256_cvttps_epi32(v);
#ifdef VC_AVX512
    // One unsigned saturating narrowing (AVX-512 VL) of the codes made non-negative.
    return _mm256_cvtusepi32_epi8(_mm256_max_epi32(codes, _mm256_setzero_si256()));
#else
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(codes), _mm256_extracti128_si256(codes, 1));
    return _mm_packus_epi16(words, words);
#endif
}

/// The 4×4 ordered dither (`VideoColorConverter.dither`) of columns 8n + lane, row `row`, plus `bias`.
VC_TARGET static inline __m256 dither_plus(long row, float bias) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i z = _mm256_xor_si256(lanes, _mm256_set1_epi32((int32_t)row));
    __m256i rowBits = _mm256_set1_epi32((int32_t)((row & 1) << 2 | (row >> 1 & 1)));
    __m256i rank = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(z, _mm256_set1_epi32(1)), 3), rowBits),
                                   _mm256_and_si256(z, _mm256_set1_epi32(2)));
    __m256 d = _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(rank), _mm256_set1_ps(1.0f / 16)), _mm256_set1_ps(15.0f / 32));
    return _mm256_add_ps(_mm256_set1_ps(bias), d);
}

/// Where a call's outputs go, and the biases they share.
typedef struct {
    uint8_t *yOut[2], *cbOut, *crOut;
    __m256 yBias[2], cBias, pairScales, cbScale, crScale;
    int rows, chromaShiftX;
} outputs;

/// The outputs of a call converting `rows` luma rows (1 or 2) from picture row `row` (chroma row `chromaRow`), with
/// its biases: the dither of a group of eight columns is the same in every group (the 4×4 pattern repeats every 4
/// columns), plus the codes' offset and half a code (the conversion truncates); 1 / the luma pixels a chroma sample
/// covers (1, 2 or 4: exact) is folded into Cb's and Cr's scales.
VC_TARGET static inline outputs make_outputs(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut,
                                             uint8_t *crOut, int rows, int chromaShiftX, long row, long chromaRow) {
    outputs o;
    o.yOut[0] = yOut0; o.yOut[1] = yOut1; o.cbOut = cbOut; o.crOut = crOut;
    o.rows = rows;
    o.chromaShiftX = chromaShiftX;
    o.yBias[0] = dither_plus(row, 16.5f); o.yBias[1] = dither_plus(row + 1, 16.5f);
    o.cBias = dither_plus(chromaRow, 128.5f);
    const float inverseCount = 1.0f / (float)(rows << chromaShiftX);
    const float cbScale = k->cScale[0] * inverseCount, crScale = k->cScale[1] * inverseCount;
    o.pairScales = _mm256_setr_ps(cbScale, cbScale, cbScale, cbScale, crScale, crScale, crScale, crScale);
    o.cbScale = _mm256_set1_ps(cbScale); o.crScale = _mm256_set1_ps(crScale);
    return o;
}

/// The codes of eight columns from x: the rows' Y' (`yPrime[j]`) and the sums over their rows of B' − Y' and R' − Y'
/// (then over column pairs when subsampled), scaled to the chroma's codes.
VC_TARGET static inline void store_group(const outputs *o, long x, const __m256 *yPrime, __m256 sumB, __m256 sumR) {
    const __m256 y219 = _mm256_set1_ps(219);
    long cx = x >> o->chromaShiftX;
    for (int j = 0; j < o->rows; j++) {
        _mm_storel_epi64((__m128i *)(o->yOut[j] + x), bytes8(_mm256_fmadd_ps(y219, yPrime[j], o->yBias[j])));
    }
    if (o->chromaShiftX) {
        // Column pairs summed: Cb's four in lanes 0…3, Cr's in 4…7.
        __m256 pairs = _mm256_permutevar8x32_ps(_mm256_hadd_ps(sumB, sumR), _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
        __m128i codes = bytes8(_mm256_fmadd_ps(pairs, o->pairScales, o->cBias));
        int32_t four = _mm_cvtsi128_si32(codes);
        memcpy(o->cbOut + cx, &four, 4);
        four = _mm_extract_epi32(codes, 1);
        memcpy(o->crOut + cx, &four, 4);
    } else {
        _mm_storel_epi64((__m128i *)(o->cbOut + cx), bytes8(_mm256_fmadd_ps(sumB, o->cbScale, o->cBias)));
        _mm_storel_epi64((__m128i *)(o->crOut + cx), bytes8(_mm256_fmadd_ps(sumR, o->crScale, o->cBias)));
    }
}

/// Eight columns' pixels, each through the chain: row j's Y' and colour differences in `yPrime[j]`, `dB[j]`, `dR[j]`.
VC_TARGET static inline void store_every_pixel(const outputs *o, long x, const __m256 *yPrime, const __m256 *dB,
                                          const __m256 *dR) {
    __m256 sumB = dB[0], sumR = dR[0];
    if (o->rows == 2) {
        sumB = _mm256_add_ps(sumB, dB[1]);
        sumR = _mm256_add_ps(sumR, dR[1]);
    }
    store_group(o, x, yPrime, sumB, sumR);
}

/// The chain for the eight columns from x on their own (a group whose blocks could not be interpolated after all),
/// with their chroma's terms.
VC_TARGET static void run_every_pixel(const lp_video_color *k, const outputs *o, long x, const __m256i *lumaCodes,
                                      __m256 addR, __m256 addG, __m256 addB) {
    const __m256 r[2] = {addR, addR}, g[2] = {addG, addG}, b[2] = {addB, addB};
    __m256i kinks[2];
    __m256 yPrime[2], dB[2], dR[2];
    run_chain(k, o->rows, lumaCodes, r, g, b, kinks, yPrime, dB, dR);
    store_every_pixel(o, x, yPrime, dB, dR);
}

/// Eight columns × two rows of 4:2:0 from one run of the chain over their four blocks' darkest and brightest luma
/// codes (lanes 2b and 2b + 1: block b's; `lo` and `hi` hold each pixel's block's codes): a pixel's Y' is
/// interpolated by its code between its block's ends, a block's B' − Y' and R' − Y' by its pixels' positions summed
/// (the twin's `interpolatedBlocksSwift`, in its order).
VC_TARGET static inline void store_interpolated(const outputs *o, long x, const __m256i *lumaCodes, __m256i lo, __m256i hi,
                                          __m256 yEnds, __m256 dBEnds, __m256 dREnds) {
    // 1 / the spread (0 for none), read from the spreads' reciprocals (a block's spread is at most 7): the same
    // correctly rounded quotients as the twin's division, without a division's time.
    const __m256 reciprocals = _mm256_setr_ps(0, 1, 1.0f / 2, 1.0f / 3, 1.0f / 4, 1.0f / 5, 1.0f / 6, 1.0f / 7);
    __m256 inverse = _mm256_permutevar8x32_ps(reciprocals, _mm256_and_si256(_mm256_sub_epi32(hi, lo), _mm256_set1_epi32(7)));
    __m256 yLo = _mm256_moveldup_ps(yEnds), yRise = _mm256_sub_ps(_mm256_movehdup_ps(yEnds), yLo);
    __m256 t[2], yPrime[2];
    for (int j = 0; j < 2; j++) {
        t[j] = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(lumaCodes[j], lo)), inverse);
        yPrime[j] = _mm256_fmadd_ps(yRise, t[j], yLo);
    }
    __m256 columns = _mm256_add_ps(t[0], t[1]);
    __m256 positions = _mm256_add_ps(columns, _mm256_shuffle_ps(columns, columns, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m256 four = _mm256_set1_ps(4);
    __m256 bLo = _mm256_moveldup_ps(dBEnds), rLo = _mm256_moveldup_ps(dREnds);
    __m256 sumB = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_movehdup_ps(dBEnds), bLo), positions, _mm256_mul_ps(four, bLo));
    __m256 sumR = _mm256_fmadd_ps(_mm256_sub_ps(_mm256_movehdup_ps(dREnds), rLo), positions, _mm256_mul_ps(four, rLo));
    for (int j = 0; j < 2; j++) {
        _mm_storel_epi64((__m128i *)(o->yOut[j] + x), bytes8(_mm256_fmadd_ps(_mm256_set1_ps(219), yPrime[j], o->yBias[j])));
    }
    // Each block's sums sit in both its lanes: Cb's four into lanes 0…3, Cr's into 4…7.
    __m256 pairs = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(sumB, sumR, _MM_SHUFFLE(2, 0, 2, 0)),
                                            _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
    __m128i codes = bytes8(_mm256_fmadd_ps(pairs, o->pairScales, o->cBias));
    long cx = x >> 1;
    int32_t bytes4 = _mm_cvtsi128_si32(codes);
    memcpy(o->cbOut + cx, &bytes4, 4);
    bytes4 = _mm_extract_epi32(codes, 1);
    memcpy(o->crOut + cx, &bytes4, 4);
}


/// A chunk's runs of the chain: per run, its luma codes and its chroma's R', G', B' terms (its group's), then what
/// the chain made of them: the kinks it passed, its Y' and colour differences. Runs of a group lie side by side.
typedef struct {
    __m256i codes[MOST_RUNS], kinks[MOST_RUNS];
    __m256 addR[MOST_RUNS], addG[MOST_RUNS], addB[MOST_RUNS];
    __m256 yPrime[MOST_RUNS], dB[MOST_RUNS], dR[MOST_RUNS];
} chain_runs;

/// The chain over a chunk's first `runs` runs.
VC_TARGET static inline void run_chain_over(const lp_video_color *k, int runs, chain_runs *c) {
    run_chain(k, runs, c->codes, c->addR, c->addG, c->addB, c->kinks, c->yPrime, c->dB, c->dR);
}

/// The eight columns from x once the chain has run, their first run `i`: a group not interpolated from its runs
/// (one a row); an interpolated one from its blocks' ends (`lo`, `hi`), unless a kink of the chain lies between a
/// block's ends, where the line would cut the corner: those columns then go pixel by pixel. (`lo` and `hi` are
/// read only for an interpolated group: a group not interpolated never set them.)
VC_TARGET static inline __attribute__((always_inline)) void store_group_after_chain(const lp_video_color *k, const outputs *o, long x,
                                                     const __m256i *lumaCodes, __m256i lo, __m256i hi,
                                                     int interpolated, const chain_runs *c, int i) {
    if (!interpolated) {
        store_every_pixel(o, x, &c->yPrime[i], &c->dB[i], &c->dR[i]);
        return;
    }
    __m256i same = _mm256_cmpeq_epi32(c->kinks[i], _mm256_shuffle_epi32(c->kinks[i], _MM_SHUFFLE(2, 3, 0, 1)));
    if (_mm256_movemask_epi8(same) != -1) {
        run_every_pixel(k, o, x, lumaCodes, c->addR[i], c->addG[i], c->addB[i]);
        return;
    }
    store_interpolated(o, x, lumaCodes, lo, hi, c->yPrime[i], c->dB[i], c->dR[i]);
}

/// The kernel for pictures of `sampleBytes`, `chromaShiftX` and `rows` (the luma rows a call takes), inlined into
/// the kernel's entry once with HDR video's constants and once with any: with the constants, the loops lose their branches on
/// the format and keep more in registers (a 1080p 10-bit 4:2:0 frame took 4 % less time).
VC_TARGET static inline __attribute__((always_inline)) long convert_rows(
    const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut, long count,
    const void *luma0, const void *luma1, const void *cb, const void *cr, const int sampleBytes, const int chromaShiftX,
    const int rows, long row, long chromaRow) {
    const long whole = count / 8 * 8;
    const outputs o = make_outputs(k, yOut0, yOut1, cbOut, crOut, rows, chromaShiftX, row, chromaRow);
    const int blocks = o.rows == 2 && chromaShiftX == 1 && k->blockSpread >= 0;
    const __m256i spreadLimit = _mm256_set1_epi32(k->blockSpread);
    const void *luma[2] = {luma0, luma1};
    // Per group: its luma codes, whether its blocks are interpolated (and their ends), its first run.
    __m256i codes[GROUPS][2], lo[GROUPS], hi[GROUPS];
    int interpolated[GROUPS], first[GROUPS];
    chain_runs c;
    for (long start = 0; start < whole; start += 8 * GROUPS) {
        const int groups = (int)((whole - start < 8 * GROUPS ? whole - start : 8 * GROUPS) / 8);
        int runs = 0;
        for (int g = 0; g < groups; g++) {
            long x = start + 8 * g, cx = x >> chromaShiftX;
            const char *bp = (const char *)cb + cx * sampleBytes, *rp = (const char *)cr + cx * sampleBytes;
            __m256i cbi = chromaShiftX ? load4twice(bp, sampleBytes) : load8(bp, sampleBytes);
            __m256i cri = chromaShiftX ? load4twice(rp, sampleBytes) : load8(rp, sampleBytes);
            __m256 b = _mm256_sub_ps(_mm256_cvtepi32_ps(cbi), _mm256_set1_ps(k->cOffset));
            __m256 r = _mm256_sub_ps(_mm256_cvtepi32_ps(cri), _mm256_set1_ps(k->cOffset));
            const __m256 termR = _mm256_mul_ps(_mm256_set1_ps(k->rCr), r);
            const __m256 termG = _mm256_fmadd_ps(_mm256_set1_ps(k->gCr), r, _mm256_mul_ps(_mm256_set1_ps(k->gCb), b));
            const __m256 termB = _mm256_mul_ps(_mm256_set1_ps(k->bCb), b);
            for (int j = 0; j < o.rows; j++) codes[g][j] = load8((const char *)luma[j] + x * sampleBytes, sampleBytes);
            first[g] = runs;
            interpolated[g] = 0;
            if (blocks) {
                // Each pixel's block's darkest and brightest codes: the rows' per column, then the column pair's.
                __m256i columnLo = _mm256_min_epi32(codes[g][0], codes[g][1]), columnHi = _mm256_max_epi32(codes[g][0], codes[g][1]);
                lo[g] = _mm256_min_epi32(columnLo, _mm256_shuffle_epi32(columnLo, _MM_SHUFFLE(2, 3, 0, 1)));
                hi[g] = _mm256_max_epi32(columnHi, _mm256_shuffle_epi32(columnHi, _MM_SHUFFLE(2, 3, 0, 1)));
                if (!_mm256_movemask_epi8(_mm256_cmpgt_epi32(_mm256_sub_epi32(hi[g], lo[g]), spreadLimit))) {
                    interpolated[g] = 1;
                    c.addR[runs] = termR; c.addG[runs] = termG; c.addB[runs] = termB;
                    c.codes[runs++] = _mm256_blend_epi32(lo[g], hi[g], 0xAA);
                    continue;
                }
            }
            for (int j = 0; j < o.rows; j++) {
                c.addR[runs] = termR; c.addG[runs] = termG; c.addB[runs] = termB;
                c.codes[runs++] = codes[g][j];
            }
        }
        run_chain_over(k, runs, &c);
        for (int g = 0; g < groups; g++) {
            store_group_after_chain(k, &o, start + 8 * g, codes[g], lo[g], hi[g], interpolated[g], &c, first[g]);
        }
    }
    return whole;
}

/// `lp_video_color_chain`'s half for this kernel: its `run_chain` alone on one or two runs, for the tests.
void VC_CHAIN_NAME(const lp_video_color *k, int runs, const int32_t *codes, const float *addR, const float *addG,
                   const float *addB, float *yPrime, float *dB, float *dR, int32_t *kinks);
VC_TARGET void VC_CHAIN_NAME(const lp_video_color *k, int runs, const int32_t *codes, const float *addR,
                             const float *addG, const float *addB, float *yPrime, float *dB, float *dR, int32_t *kinks) {
    __m256i c[2], kinked[2];
    __m256 r[2], g[2], b[2], y[2], db[2], dr[2];
    for (int i = 0; i < runs; i++) {
        c[i] = _mm256_loadu_si256((const __m256i *)(codes + 8 * i));
        r[i] = _mm256_loadu_ps(addR + 8 * i); g[i] = _mm256_loadu_ps(addG + 8 * i); b[i] = _mm256_loadu_ps(addB + 8 * i);
    }
    run_chain(k, runs, c, r, g, b, kinked, y, db, dr);
    for (int i = 0; i < runs; i++) {
        _mm256_storeu_ps(yPrime + 8 * i, y[i]); _mm256_storeu_ps(dB + 8 * i, db[i]); _mm256_storeu_ps(dR + 8 * i, dr[i]);
        _mm256_storeu_si256((__m256i *)(kinks + 8 * i), kinked[i]);
    }
}
