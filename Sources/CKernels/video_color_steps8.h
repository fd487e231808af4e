// The colour converter's chain in eight-lane steps (AVX2), for video_color_avx2.c, which defines VC_TARGET,
// decode_curve, gain_curve and encode_curve first.

#include "video_color_chunk.h"

/// a·x + b·y + c·z: a·x, then b·y and c·z added by fused multiply-adds (as the twin's `dot`).
VC_TARGET static inline __m256 dot3(__m256 x, __m256 y, __m256 z, float a, float b, float c) {
    return _mm256_fmadd_ps(_mm256_set1_ps(c), z, _mm256_fmadd_ps(_mm256_set1_ps(b), y, _mm256_mul_ps(_mm256_set1_ps(a), x)));
}

/// The chain for eight pixels, in four steps, each one over a whole chunk of pixels before the next (see CHUNK):
/// `light` holds their three channels from step to step.

/// 1. Their luma codes and the chroma's R', G', B' terms → linear light, in units of SDR white (HLG: scene light).
VC_TARGET static inline void decode8(const lp_video_color *k, __m256i lumaCodes, __m256 addR, __m256 addG, __m256 addB,
                                __m256 *light) {
    __m256 l = _mm256_mul_ps(_mm256_set1_ps(k->ys), _mm256_sub_ps(_mm256_cvtepi32_ps(lumaCodes), _mm256_set1_ps(k->yOffset)));
    light[0] = decode_curve(k, _mm256_add_ps(l, addR));
    light[1] = decode_curve(k, _mm256_add_ps(l, addG));
    light[2] = decode_curve(k, _mm256_add_ps(l, addB));
}

/// 2. (HDR only) the tone curve's gain, read at their luminance, on all three channels.
VC_TARGET static inline void gain8(const lp_video_color *k, __m256 *light) {
    __m256 cR = light[0], cG = light[1], cB = light[2];
    __m256 g = gain_curve(k, dot3(cR, cG, cB, k->luma[0], k->luma[1], k->luma[2]));
    light[0] = _mm256_mul_ps(cR, g); light[1] = _mm256_mul_ps(cG, g); light[2] = _mm256_mul_ps(cB, g);
}

/// 3. Source primaries → BT.709, and into its gamut: toward the luminance where a channel is below 0, scaled down
/// where one is above 1; then 0…1. Returns the kinks each pixel passed (the twin's `pixel`): 1 moved toward its
/// luminance, 2 scaled down, 4, 8, 16 red, green, blue below the encode's black.
VC_TARGET static inline __m256i gamut8(const lp_video_color *k, __m256 *light) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    const __m256 cR = light[0], cG = light[1], cB = light[2];
    __m256 mR = dot3(cR, cG, cB, k->m[0], k->m[1], k->m[2]);
    __m256 mG = dot3(cR, cG, cB, k->m[3], k->m[4], k->m[5]);
    __m256 mB = dot3(cR, cG, cB, k->m[6], k->m[7], k->m[8]);
    __m256 y = _mm256_max_ps(dot3(mR, mG, mB, 0.2126f, 0.7152f, 0.0722f), zero);
    __m256 lo = _mm256_min_ps(_mm256_min_ps(mR, mG), mB);
    __m256 below = _mm256_cmp_ps(lo, zero, _CMP_LT_OQ);
    __m256i kinks = _mm256_and_si256(_mm256_castps_si256(below), _mm256_set1_epi32(1));
    if (_mm256_movemask_ps(below)) {
        __m256 t = _mm256_blendv_ps(zero, _mm256_div_ps(y, _mm256_sub_ps(y, lo)), _mm256_cmp_ps(y, lo, _CMP_GT_OQ));
        mR = _mm256_blendv_ps(mR, _mm256_fmadd_ps(t, _mm256_sub_ps(mR, y), y), below);
        mG = _mm256_blendv_ps(mG, _mm256_fmadd_ps(t, _mm256_sub_ps(mG, y), y), below);
        mB = _mm256_blendv_ps(mB, _mm256_fmadd_ps(t, _mm256_sub_ps(mB, y), y), below);
    }
    __m256 hi = _mm256_max_ps(_mm256_max_ps(mR, mG), mB);
    __m256 above = _mm256_cmp_ps(hi, one, _CMP_GT_OQ);
    kinks = _mm256_or_si256(kinks, _mm256_and_si256(_mm256_castps_si256(above), _mm256_set1_epi32(2)));
    if (_mm256_movemask_ps(above)) {
        __m256 scale = _mm256_div_ps(one, hi);
        mR = _mm256_blendv_ps(mR, _mm256_mul_ps(mR, scale), above);
        mG = _mm256_blendv_ps(mG, _mm256_mul_ps(mG, scale), above);
        mB = _mm256_blendv_ps(mB, _mm256_mul_ps(mB, scale), above);
    }
    light[0] = _mm256_min_ps(_mm256_max_ps(mR, zero), one);
    light[1] = _mm256_min_ps(_mm256_max_ps(mG, zero), one);
    light[2] = _mm256_min_ps(_mm256_max_ps(mB, zero), one);
    const __m256 black = _mm256_set1_ps(k->encodeBlack);
    for (int c = 0; c < 3; c++) {
        __m256i under = _mm256_castps_si256(_mm256_cmp_ps(light[c], black, _CMP_LT_OQ));
        kinks = _mm256_or_si256(kinks, _mm256_and_si256(under, _mm256_set1_epi32(4 << c)));
    }
    return kinks;
}

/// 4. Linear → the SDR display's codes: BT.709 Y' (returned) and the colour differences B' − Y', R' − Y'.
VC_TARGET static inline __m256 encode8(const lp_video_color *k, const __m256 *light, __m256 *dB, __m256 *dR) {
    __m256 eR = encode_curve(k, light[0]), eG = encode_curve(k, light[1]), eB = encode_curve(k, light[2]);
    __m256 yPrime = dot3(eR, eG, eB, 0.2126f, 0.7152f, 0.0722f);
    *dB = _mm256_sub_ps(eB, yPrime);
    *dR = _mm256_sub_ps(eR, yPrime);
    return yPrime;
}

/// The chain over `runs` runs of eight pixels (run i: luma codes `codes[i]`, the chroma's terms `addR[i]`, `addG[i]`,
/// `addB[i]`), each step over all of them before the next: the kinks each pixel passed, its Y' and colour differences.
VC_TARGET static void run_chain(const lp_video_color *k, int runs, const __m256i *codes, const __m256 *addR,
                                const __m256 *addG, const __m256 *addB, __m256i *kinks, __m256 *yPrime, __m256 *dB,
                                __m256 *dR) {
    __m256 light[MOST_RUNS][3];
    for (int i = 0; i < runs; i++) decode8(k, codes[i], addR[i], addG[i], addB[i], light[i]);
    if (k->gain) {
        for (int i = 0; i < runs; i++) gain8(k, light[i]);
    }
    for (int i = 0; i < runs; i++) kinks[i] = gamut8(k, light[i]);
    for (int i = 0; i < runs; i++) yPrime[i] = encode8(k, light[i], &dB[i], &dR[i]);
}

