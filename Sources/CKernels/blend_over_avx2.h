// Eight premultiplied BGRA words at an opacity over eight others, with AVX2: `OpacityBlend.blendRowSwift`'s float
// arithmetic, bit for bit. Shared by the row blend and the kernels that blend what they convert without storing it
// first. Included by the kernels' files only, after <immintrin.h> and the AVX2 macro.
#ifndef LP_BLEND_OVER_AVX2_H
#define LP_BLEND_OVER_AVX2_H

/// Channel `shift` / 8 of eight BGRA words as floats in 0…255.
AVX2 static inline __m256 channel(__m256i words, int shift) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(words, shift), _mm256_set1_epi32(0xff)));
}

/// `pack`'s rounding of one channel: min(max(v, 0), 255) + 0.5, truncated, moved to its byte.
AVX2 static inline __m256i quantise(__m256 v, int shift) {
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    return _mm256_slli_epi32(_mm256_cvttps_epi32(_mm256_add_ps(v, _mm256_set1_ps(0.5f))), shift);
}

/// s·k + d·(1 − (s·k).a / 255), channel by channel, in the Swift twin's order (no fused multiply-add).
AVX2 static inline __m256i blend_over8(__m256i s, __m256i d, __m256 k) {
    const __m256 one = _mm256_set1_ps(1.0f), inverse255 = _mm256_set1_ps(1.0f / 255.0f);
    const __m256 sa = _mm256_mul_ps(channel(s, 24), k);
    const __m256 keep = _mm256_sub_ps(one, _mm256_mul_ps(sa, inverse255));
    __m256i out = quantise(_mm256_add_ps(sa, _mm256_mul_ps(channel(d, 24), keep)), 24);
    for (int shift = 0; shift < 24; shift += 8) {
        const __m256 sc = _mm256_mul_ps(channel(s, shift), k);
        out = _mm256_or_si256(out, quantise(_mm256_add_ps(sc, _mm256_mul_ps(channel(d, shift), keep)), shift));
    }
    return out;
}

#endif
