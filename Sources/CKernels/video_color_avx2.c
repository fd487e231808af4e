// HDR and wide-gamut video → SDR BT.709 (LayerGraphics' VideoColorConverter.swift; its Swift twin, `lumaRowSwift`,
// is the reference in the tests): the converter's per-pixel chain — Y'CbCr → R'G'B', the decode table, the tone
// curve's gain on luminance, the primaries matrix, the gamut move, the encode table, BT.709 Y' with the ordered
// dither — eight luma pixels a register. The tables are read with gathers (one a table read, at the nearest sample);
// every float operation is the Swift twin's, in its order, without fused multiply-adds, so the two agree bit for bit.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

/// `LinearTable`: f(x) for x clamped to 0…1, the sample nearest x·scale.
AVX2 static inline __m256 linear_table(const float *values, __m256 scale, __m256 x) {
    __m256 p = _mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1)), scale);
    return _mm256_i32gather_ps(values, _mm256_cvttps_epi32(_mm256_add_ps(p, _mm256_set1_ps(0.5f))), 4);
}

/// `LogTable`: f(x) for x ≥ 0, the sample nearest x's bits (exponent and top mantissa bits).
AVX2 static inline __m256 log_table(const float *values, const lp_video_color *k, __m256 x) {
    const __m256i first = _mm256_set1_epi32((int32_t)k->logFirstBits);
    __m256i bits = _mm256_min_epu32(_mm256_max_epu32(_mm256_castps_si256(x), first),
                                    _mm256_set1_epi32((int32_t)(k->logLastBits - 1)));
    __m256i offset = _mm256_add_epi32(_mm256_sub_epi32(bits, first), _mm256_set1_epi32(1 << (k->logShift - 1)));
    return _mm256_i32gather_ps(values, _mm256_srl_epi32(offset, _mm_cvtsi32_si128(k->logShift)), 4);
}

/// a·x + b·y + c·z, added left to right (as the twin).
AVX2 static inline __m256 dot3(__m256 x, __m256 y, __m256 z, float a, float b, float c) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), x), _mm256_mul_ps(_mm256_set1_ps(b), y)),
                         _mm256_mul_ps(_mm256_set1_ps(c), z));
}

/// Eight samples as 32-bit lanes: 8-bit or 16-bit ones.
AVX2 static inline __m256i load8(const void *p, int sampleBytes) {
    if (sampleBytes == 2) return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}

/// Four samples, each twice (the chroma of eight luma pixels of a horizontally subsampled plane).
AVX2 static inline __m256i load4twice(const void *p, int sampleBytes) {
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

AVX2 long lp_video_color_row_avx2(uint16_t *yOut, float *cbDiff, float *crDiff, long count, const void *luma,
                                  const void *cb, const void *cr, int sampleBytes, int chromaShiftX, long row,
                                  const lp_video_color *k) {
    const long whole = count / 8 * 8;
    const __m256 scale = _mm256_set1_ps(k->decodeScale);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    // The dither's row bits, and its column bits from x ⊕ row (4×4 Bayer, as `VideoColorConverter.dither`).
    const __m256i rowBits = _mm256_set1_epi32((int32_t)((row & 1) << 2 | (row >> 1 & 1)));
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (long x = 0; x < whole; x += 8) {
        const char *lp = (const char *)luma + x * sampleBytes;
        long cx = x >> chromaShiftX;
        const char *bp = (const char *)cb + cx * sampleBytes, *rp = (const char *)cr + cx * sampleBytes;
        __m256i cbi = chromaShiftX ? load4twice(bp, sampleBytes) : load8(bp, sampleBytes);
        __m256i cri = chromaShiftX ? load4twice(rp, sampleBytes) : load8(rp, sampleBytes);
        __m256 l = _mm256_mul_ps(_mm256_set1_ps(k->ys), _mm256_sub_ps(_mm256_cvtepi32_ps(load8(lp, sampleBytes)), _mm256_set1_ps(k->yOffset)));
        __m256 b = _mm256_sub_ps(_mm256_cvtepi32_ps(cbi), _mm256_set1_ps(k->cOffset));
        __m256 r = _mm256_sub_ps(_mm256_cvtepi32_ps(cri), _mm256_set1_ps(k->cOffset));
        __m256 addR = _mm256_mul_ps(_mm256_set1_ps(k->rCr), r);
        __m256 addG = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(k->gCb), b), _mm256_mul_ps(_mm256_set1_ps(k->gCr), r));
        __m256 addB = _mm256_mul_ps(_mm256_set1_ps(k->bCb), b);
        // R'G'B' → linear light.
        __m256 cR = linear_table(k->decode, scale, _mm256_add_ps(l, addR));
        __m256 cG = linear_table(k->decode, scale, _mm256_add_ps(l, addG));
        __m256 cB = linear_table(k->decode, scale, _mm256_add_ps(l, addB));
        if (k->gain) {
            __m256 g = log_table(k->gain, k, dot3(cR, cG, cB, k->luma[0], k->luma[1], k->luma[2]));
            cR = _mm256_mul_ps(cR, g); cG = _mm256_mul_ps(cG, g); cB = _mm256_mul_ps(cB, g);
        }
        __m256 mR = dot3(cR, cG, cB, k->m[0], k->m[1], k->m[2]);
        __m256 mG = dot3(cR, cG, cB, k->m[3], k->m[4], k->m[5]);
        __m256 mB = dot3(cR, cG, cB, k->m[6], k->m[7], k->m[8]);
        // Into the gamut: toward the luminance where a channel is below 0, scaled down where one is above 1.
        __m256 y = _mm256_max_ps(dot3(mR, mG, mB, 0.2126f, 0.7152f, 0.0722f), zero);
        __m256 lo = _mm256_min_ps(_mm256_min_ps(mR, mG), mB);
        __m256 below = _mm256_cmp_ps(lo, zero, _CMP_LT_OQ);
        if (_mm256_movemask_ps(below)) {
            __m256 t = _mm256_blendv_ps(zero, _mm256_div_ps(y, _mm256_sub_ps(y, lo)), _mm256_cmp_ps(y, lo, _CMP_GT_OQ));
            mR = _mm256_blendv_ps(mR, _mm256_add_ps(y, _mm256_mul_ps(t, _mm256_sub_ps(mR, y))), below);
            mG = _mm256_blendv_ps(mG, _mm256_add_ps(y, _mm256_mul_ps(t, _mm256_sub_ps(mG, y))), below);
            mB = _mm256_blendv_ps(mB, _mm256_add_ps(y, _mm256_mul_ps(t, _mm256_sub_ps(mB, y))), below);
        }
        __m256 hi = _mm256_max_ps(_mm256_max_ps(mR, mG), mB);
        __m256 above = _mm256_cmp_ps(hi, one, _CMP_GT_OQ);
        if (_mm256_movemask_ps(above)) {
            mR = _mm256_blendv_ps(mR, _mm256_div_ps(mR, hi), above);
            mG = _mm256_blendv_ps(mG, _mm256_div_ps(mG, hi), above);
            mB = _mm256_blendv_ps(mB, _mm256_div_ps(mB, hi), above);
        }
        mR = _mm256_min_ps(_mm256_max_ps(mR, zero), one);
        mG = _mm256_min_ps(_mm256_max_ps(mG, zero), one);
        mB = _mm256_min_ps(_mm256_max_ps(mB, zero), one);
        // Linear → the SDR display's codes; BT.709 Y' with the dither, and the colour differences for the chroma.
        __m256 eR = log_table(k->encode, k, mR), eG = log_table(k->encode, k, mG), eB = log_table(k->encode, k, mB);
        __m256 yPrime = dot3(eR, eG, eB, 0.2126f, 0.7152f, 0.0722f);
        __m256i z = _mm256_xor_si256(_mm256_add_epi32(_mm256_set1_epi32((int32_t)x), lanes), _mm256_set1_epi32((int32_t)row));
        __m256i rank = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(z, _mm256_set1_epi32(1)), 3), rowBits),
                                       _mm256_and_si256(z, _mm256_set1_epi32(2)));
        __m256 d = _mm256_sub_ps(_mm256_div_ps(_mm256_cvtepi32_ps(rank), _mm256_set1_ps(16)), _mm256_set1_ps(15.0f / 32));
        __m256 v = _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(64), _mm256_mul_ps(_mm256_set1_ps(876), yPrime)), d);
        v = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(v, _mm256_set1_ps(0.5f)), zero), _mm256_set1_ps(1023));
        __m256i codes = _mm256_cvttps_epi32(v);
        __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(codes, codes), 0xd8);
        _mm_storeu_si128((__m128i *)(yOut + x), _mm256_castsi256_si128(words));
        _mm256_storeu_ps(cbDiff + x, _mm256_sub_ps(eB, yPrime));
        _mm256_storeu_ps(crDiff + x, _mm256_sub_ps(eR, yPrime));
    }
    return whole;
}

#else

long lp_video_color_row_avx2(uint16_t *yOut, float *cbDiff, float *crDiff, long count, const void *luma,
                             const void *cb, const void *cr, int sampleBytes, int chromaShiftX, long row,
                             const lp_video_color *k) {
    (void)yOut; (void)cbDiff; (void)crDiff; (void)count; (void)luma; (void)cb; (void)cr; (void)sampleBytes;
    (void)chromaShiftX; (void)row; (void)k;
    return 0;
}

#endif
