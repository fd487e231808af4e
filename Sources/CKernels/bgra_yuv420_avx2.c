// The movie writer's BGRA → Y'CbCr 4:2:0 interior steps with AVX2: the integer maths of the Swift kernel
// (LayerGraphics' `YUV420Kernel.luma` and `chroma`), operation for operation, on eight pixels a register instead
// of four. The weights come from Swift, so they are defined in one place.
#include "CKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// A pair of 16-bit weights in every 32-bit lane, as `pmaddwd` takes them.
AVX2 static inline __m256i weight_pairs(int16_t low, int16_t high) {
    return _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)low | (uint32_t)(uint16_t)high << 16));
}

/// The (B, R) of eight pixels as 16-bit lanes.
AVX2 static inline __m256i blue_red(__m256i p) { return _mm256_and_si256(p, _mm256_set1_epi32(0x00ff00ff)); }

/// The (G, A) of eight pixels as 16-bit lanes.
AVX2 static inline __m256i green_alpha(__m256i p) { return _mm256_srli_epi16(p, 8); }

/// The low byte of each 32-bit lane of `a` then of `b` (kept in order): Swift's `truncatingIfNeeded`, not a
/// saturation, whatever the lanes hold.
AVX2 static inline __m128i low_bytes(__m256i a, __m256i b) {
    const __m256i byte = _mm256_set1_epi32(0xff);
    __m256i words = _mm256_packus_epi32(_mm256_and_si256(a, byte), _mm256_and_si256(b, byte)); // a0-3 b0-3 | a4-7 b4-7
    words = _mm256_permute4x64_epi64(words, 0xd8);                                                // a0-7 | b0-7
    return _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
}

/// Y codes of eight pixels as 32-bit lanes.
AVX2 static inline __m256i luma8(__m256i p, __m256i br, __m256i ga, __m256i offset) {
    __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(blue_red(p), br), _mm256_madd_epi16(green_alpha(p), ga));
    return _mm256_srai_epi32(_mm256_add_epi32(sum, offset), 15);
}

/// How far ahead of its step the luma pass asks for pixels. A frame is far larger than the core's own caches, and
/// with the hardware's prefetcher alone the passes waited for it: 4 KB ahead made 1920 × 1080 about 17 % faster
/// (8 KB as good, 2 KB a little less, 1 KB half that). The chroma pass then finds the row pair in the cache. A prefetch
/// never faults, past the picture's end either.
#define PREFETCH_AHEAD 4096

AVX2 long lp_bgra_luma_avx2(uint8_t *dst, const uint32_t *src, long count, lp_bgra_yuv420_weights w) {
    const __m256i br = weight_pairs(w.yB, w.yR), ga = weight_pairs(w.yG, w.yA), offset = _mm256_set1_epi32(w.yOffset);
    const long whole = count / 16 * 16;
    for (long x = 0; x < whole; x += 16) {
        _mm_prefetch((const char *)(src + x) + PREFETCH_AHEAD, _MM_HINT_T0);
        __m256i low = luma8(_mm256_loadu_si256((const __m256i *)(src + x)), br, ga, offset);
        __m256i high = luma8(_mm256_loadu_si256((const __m256i *)(src + x + 8)), br, ga, offset);
        _mm_storeu_si128((__m128i *)(dst + x), low_bytes(low, high));
    }
    return whole;
}

/// Per pixel x of eight, the sums of pixels x − 1 and x of both rows, per channel in 16-bit lanes (at most 4 × 255):
/// Swift's `ChromaTaps.sum`, (B, R) in `br` and (G, A) in `ga`.
typedef struct {
    __m256i br, ga;
} tap_sums;

AVX2 static inline tap_sums sums8(const uint32_t *top, const uint32_t *bottom) {
    __m256i t = _mm256_loadu_si256((const __m256i *)top), b = _mm256_loadu_si256((const __m256i *)bottom);
    __m256i tl = _mm256_loadu_si256((const __m256i *)(top - 1)), bl = _mm256_loadu_si256((const __m256i *)(bottom - 1));
    tap_sums s = {
        _mm256_add_epi16(_mm256_add_epi16(_mm256_add_epi16(blue_red(t), blue_red(b)), blue_red(tl)), blue_red(bl)),
        _mm256_add_epi16(_mm256_add_epi16(_mm256_add_epi16(green_alpha(t), green_alpha(b)), green_alpha(tl)), green_alpha(bl)),
    };
    return s;
}

/// Swift's `ChromaTaps.filter` on 16 pixels' sums: each 64-bit lane's halves added, then the low halves of `first`
/// and `second` side by side. Each 32-bit lane then holds ¼, ½, ¼ over both rows (× 8) at an even column, in the
/// order 0 1 4 5 | 2 3 6 7 of the eight columns (the shuffle works within 128-bit halves).
AVX2 static inline __m256i filter16(__m256i first, __m256i second) {
    __m256i a = _mm256_add_epi32(first, _mm256_srli_epi64(first, 32)), b = _mm256_add_epi32(second, _mm256_srli_epi64(second, 32));
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88));
}

AVX2 long lp_bgra_chroma_avx2(uint8_t *cb, uint8_t *cr, const uint32_t *top, const uint32_t *bottom, long count,
                              lp_bgra_yuv420_weights w) {
    const __m256i cbBR = weight_pairs(w.cbB, w.cbR), cbGA = weight_pairs(w.cbG, w.cbA);
    const __m256i crBR = weight_pairs(w.crB, w.crR), crGA = weight_pairs(w.crG, w.crA);
    const __m256i offset = _mm256_set1_epi32(w.cOffset);
    // From columns 0 1 4 5 2 3 6 7 of Cb then of Cr (`filter16`'s order) to Cb 0…7, Cr 0…7.
    const __m128i order = _mm_setr_epi8(0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15);
    const long whole = count / 16 * 16;
    for (long x = 0; x < whole; x += 16) {
        tap_sums first = sums8(top + x, bottom + x), second = sums8(top + x + 8, bottom + x + 8);
        __m256i br = filter16(first.br, second.br), ga = filter16(first.ga, second.ga);
        __m256i u = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(br, cbBR), _mm256_madd_epi16(ga, cbGA)), offset), 18);
        __m256i v = _mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(br, crBR), _mm256_madd_epi16(ga, crGA)), offset), 18);
        __m128i codes = _mm_shuffle_epi8(low_bytes(u, v), order);
        _mm_storel_epi64((__m128i *)(cb + x / 2), codes);
        _mm_storel_epi64((__m128i *)(cr + x / 2), _mm_unpackhi_epi64(codes, codes));
    }
    return whole;
}

#else
long lp_bgra_luma_avx2(uint8_t *dst, const uint32_t *src, long count, lp_bgra_yuv420_weights w) {
    (void)dst; (void)src; (void)count; (void)w;
    return 0;
}
long lp_bgra_chroma_avx2(uint8_t *cb, uint8_t *cr, const uint32_t *top, const uint32_t *bottom, long count,
                         lp_bgra_yuv420_weights w) {
    (void)cb; (void)cr; (void)top; (void)bottom; (void)count; (void)w;
    return 0;
}
#endif
