// One 8-bit plane resampled bilinearly in two separable steps, for video drawn straight into an encoder's 4:2:0
// planes (LayerCompositor's VideoMosaic.swift; its Swift twin, PlaneResampling.swift, is the reference in the
// tests): two source rows blended into a 16-bit line with a 7-bit weight, then each output column blended from
// two neighbours of that line, with one gather for both taps of eight columns.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 long lp_resample_vertical_avx2(int16_t *line, const uint8_t *top, const uint8_t *bottom, long count, int weight) {
    const __m256i wb = _mm256_set1_epi16((int16_t)weight), wt = _mm256_set1_epi16((int16_t)(128 - weight));
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i t = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(top + i)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(bottom + i)));
        __m256i sum = _mm256_add_epi16(_mm256_mullo_epi16(t, wt), _mm256_mullo_epi16(b, wb));
        _mm256_storeu_si256((__m256i *)(line + i), sum);
    }
    return i;
}

AVX2 static inline __m256i horizontal8(const int16_t *line, const int32_t *index, const int32_t *weights) {
    // Four bytes at line + 2·index: the left tap in the low half, the right one in the high half, as the weight pair.
    __m256i at = _mm256_loadu_si256((const __m256i *)index);
    __m256i taps;
    int32_t first = index[0], span = index[7] - first;
    if (span >= 0 && span <= 15) {
        // The eight pairs lie among the 16 that start at the first tap: those at even offsets from it are one load,
        // those at odd offsets another; a lane permute picks each column's pair from the right one. A gather does the
        // same in one instruction, but at several times the cost on many cores.
        __m256i offset = _mm256_sub_epi32(at, _mm256_set1_epi32(first));
        __m256i half = _mm256_srli_epi32(offset, 1);
        __m256i even = _mm256_loadu_si256((const __m256i *)(line + first));
        __m256i odd = _mm256_loadu_si256((const __m256i *)(line + first + 1));
        __m256i fromOdd = _mm256_slli_epi32(offset, 31);  // the parity in each lane's sign bit
        taps = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(even, half)),
                                                    _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(odd, half)),
                                                    _mm256_castsi256_ps(fromOdd)));
    } else {
        taps = _mm256_i32gather_epi32((const int *)line, at, 2);
    }
    __m256i sum = _mm256_madd_epi16(taps, _mm256_loadu_si256((const __m256i *)weights));
    return _mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(1 << 14)), 15);
}

AVX2 long lp_resample_horizontal_avx2(uint8_t *dst, const int16_t *line, const int32_t *index, const int32_t *weights,
                                      long count) {
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i low = horizontal8(line, index + i, weights + i), high = horizontal8(line, index + i + 8, weights + i + 8);
        // packs interleaves the 128-bit lanes: put the eight-column groups back in order, then narrow to bytes.
        __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(low, high), 0xD8);
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0xD8);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_castsi256_si128(bytes));
    }
    return i;
}

AVX2 static inline __m256i mix16(__m256i low, __m256i high, int16_t k0, int16_t k1) {
    // (Cb − 128, Cr − 128) pairs of 8 samples each half, times (k0, k1), + 128·2¹² and rounding, >> 12.
    __m256i k = _mm256_set1_epi32((int32_t)(uint16_t)k0 | ((int32_t)k1 << 16));
    __m256i bias = _mm256_set1_epi32((128 << 12) + (1 << 11));
    __m256i a = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(low, k), bias), 12);
    __m256i b = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(high, k), bias), 12);
    return _mm256_packs_epi32(a, b);
}

AVX2 long lp_chroma_matrix_avx2(uint8_t *dy, uint8_t *cb2, uint8_t *cr2, const uint8_t *cb, const uint8_t *cr, long count,
                                const int16_t *k) {
    const __m256i c128 = _mm256_set1_epi16(128);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i b = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cb + i))), c128);
        __m256i r = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cr + i))), c128);
        // Interleaved pairs within each 128-bit lane: columns 0–3, 8–11 (low) and 4–7, 12–15 (high); packs puts
        // them back in column order lane by lane.
        __m256i low = _mm256_unpacklo_epi16(b, r), high = _mm256_unpackhi_epi16(b, r);
        __m256i outs[3] = { mix16(low, high, k[0], k[1]), mix16(low, high, k[2], k[3]), mix16(low, high, k[4], k[5]) };
        uint8_t *dst[3] = { dy, cb2, cr2 };
        for (int p = 0; p < 3; p++) {
            __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(outs[p], outs[p]), 0xD8);
            _mm_storeu_si128((__m128i *)(dst[p] + i), _mm256_castsi256_si128(bytes));
        }
    }
    return i;
}

AVX2 long lp_add_half_change_avx2(uint8_t *y, const uint8_t *dy, long count) {
    const __m256i bias = _mm256_set1_epi16(127);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i luma = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(y + i)));
        __m256i change = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(dy + i)));
        __m256i sum = _mm256_srai_epi16(_mm256_sub_epi16(_mm256_add_epi16(_mm256_add_epi16(luma, luma), change), bias), 1);
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(sum, sum), 0xD8);
        _mm_storeu_si128((__m128i *)(y + i), _mm256_castsi256_si128(bytes));
    }
    return i;
}

#else
long lp_resample_vertical_avx2(int16_t *line, const uint8_t *top, const uint8_t *bottom, long count, int weight) { return 0; }
long lp_resample_horizontal_avx2(uint8_t *dst, const int16_t *line, const int32_t *index, const int32_t *weights,
                                 long count) { return 0; }
long lp_chroma_matrix_avx2(uint8_t *dy, uint8_t *cb2, uint8_t *cr2, const uint8_t *cb, const uint8_t *cr, long count,
                           const int16_t *k) { return 0; }
long lp_add_half_change_avx2(uint8_t *y, const uint8_t *dy, long count) { return 0; }
#endif
