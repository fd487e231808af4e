// HDR and wide-gamut video → 8-bit SDR BT.709 with AVX2 (video_color_body.h has the chain): the curves are tables
// read with gathers, one a curve, at the nearest sample. (Computing the encode instead — a per-octave scale from
// registers times a polynomial — measured no faster than its three gathers with AVX2's eight-entry permutes; with
// AVX-512's 32-entry ones it is: video_color_avx512.c.)
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define VC_TARGET __attribute__((target("avx2,fma")))
#define VC_CHAIN_NAME lp_video_color_chain_avx2

/// `LinearTable`: f(x) for x clamped to 0…1, the sample nearest x·scale.
VC_TARGET static inline __m256 linear_table(const float *values, __m256 scale, __m256 x) {
    __m256 p = _mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1)), scale);
    return _mm256_i32gather_ps(values, _mm256_cvttps_epi32(_mm256_add_ps(p, _mm256_set1_ps(0.5f))), 4);
}

/// `LogTable`: f(x) for x ≥ 0, the sample nearest x's bits (exponent and top mantissa bits).
VC_TARGET static inline __m256 log_table(const float *values, const lp_video_color *k, __m256 x) {
    const __m256i first = _mm256_set1_epi32((int32_t)k->logFirstBits);
    __m256i bits = _mm256_min_epu32(_mm256_max_epu32(_mm256_castps_si256(x), first),
                                    _mm256_set1_epi32((int32_t)(k->logLastBits - 1)));
    __m256i offset = _mm256_add_epi32(_mm256_sub_epi32(bits, first), _mm256_set1_epi32(1 << (k->logShift - 1)));
    return _mm256_i32gather_ps(values, _mm256_srl_epi32(offset, _mm_cvtsi32_si128(k->logShift)), 4);
}

VC_TARGET static inline __m256 decode_curve(const lp_video_color *k, __m256 x) {
    return linear_table(k->decode, _mm256_set1_ps(k->decodeScale), x);
}
VC_TARGET static inline __m256 gain_curve(const lp_video_color *k, __m256 x) { return log_table(k->gain, k, x); }
VC_TARGET static inline __m256 encode_curve(const lp_video_color *k, __m256 x) { return log_table(k->encode, k, x); }

#include "video_color_steps8.h"
#include "video_color_body.h"

VC_TARGET long lp_video_color_rows_avx2(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut,
                                        uint8_t *crOut, long count, const void *luma0, const void *luma1, const void *cb,
                                        const void *cr, int sampleBytes, int chromaShiftX, long row, long chromaRow) {
    // 10-bit 4:2:0, two rows a call: HDR video.
    if (luma1 && sampleBytes == 2 && chromaShiftX == 1) {
        return convert_rows(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, 2, 1, 2, row, chromaRow);
    }
    return convert_rows(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, sampleBytes, chromaShiftX,
                        luma1 ? 2 : 1, row, chromaRow);
}

#else

void lp_video_color_chain_avx2(const lp_video_color *k, int runs, const int32_t *codes, const float *addR,
                               const float *addG, const float *addB, float *yPrime, float *dB, float *dR,
                               int32_t *kinks) {
    (void)k; (void)runs; (void)codes; (void)addR; (void)addG; (void)addB; (void)yPrime; (void)dB; (void)dR; (void)kinks;
}

long lp_video_color_rows_avx2(const lp_video_color *k, uint8_t *yOut0, uint8_t *yOut1, uint8_t *cbOut, uint8_t *crOut,
                              long count, const void *luma0, const void *luma1, const void *cb, const void *cr,
                              int sampleBytes, int chromaShiftX, long row, long chromaRow) {
    (void)k; (void)yOut0; (void)yOut1; (void)cbOut; (void)crOut; (void)count; (void)luma0; (void)luma1; (void)cb;
    (void)cr; (void)sampleBytes; (void)chromaShiftX; (void)row; (void)chromaRow;
    return 0;
}

#endif

void lp_video_color_chain_avx512(const lp_video_color *k, int runs, const int32_t *codes, const float *addR,
                                 const float *addG, const float *addB, float *yPrime, float *dB, float *dR,
                                 int32_t *kinks);

void lp_video_color_chain(const lp_video_color *k, int polynomials, int runs, const int32_t *codes, const float *addR,
                          const float *addG, const float *addB, float *yPrime, float *dB, float *dR, int32_t *kinks) {
    if (polynomials) {
        lp_video_color_chain_avx512(k, runs, codes, addR, addG, addB, yPrime, dB, dR, kinks);
    } else {
        lp_video_color_chain_avx2(k, runs, codes, addR, addG, addB, yPrime, dB, dR, kinks);
    }
}
