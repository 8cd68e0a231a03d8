// The streaming copy and fill of ScrollwayCStreaming.h; their contracts are in the header.
#include "ScrollwayCStreaming.h"

#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#if defined(__x86_64__)
/// One 64-byte step of sw_memmove_streaming: four 16-byte loads, then four streaming stores
/// (all loads first, so a step never reads what it wrote). The source `ahead` bytes on (a
/// few steps; negative when copying backwards) is fetched non-temporally: the source is
/// megabytes read once, and a plain read would evict the caches' working set (the frame's
/// glyphs, views and code) along the way.
static void sw_stream_64(unsigned char *d, const unsigned char *s, intptr_t ahead) {
    /* An address, not a pointer into the block: a prefetch past either end never faults. */
    _mm_prefetch((const char *)((uintptr_t)s + (uintptr_t)ahead), _MM_HINT_NTA);
    __m128i a = _mm_loadu_si128((const __m128i *)s);
    __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
    __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
    _mm_stream_si128((__m128i *)d, a);
    _mm_stream_si128((__m128i *)(d + 16), b);
    _mm_stream_si128((__m128i *)(d + 32), c);
    _mm_stream_si128((__m128i *)(d + 48), e);
}
#endif

/// How far ahead sw_memmove_streaming fetches its source: 16 cache lines.
#define SW_STREAM_AHEAD 1024

void sw_memmove_streaming(void *dst, const void *src, size_t n) {
#if defined(__x86_64__)
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (n < 256 || d == s) {
        memmove(dst, src, n);
        return;
    }
    if (d < s || d >= s + n) {
        size_t i = 0;
        /* Bytes up to d's next 16-byte boundary, then 64 bytes per step, then the rest. */
        for (; i < n && (((uintptr_t)(d + i)) & 15) != 0; i++) d[i] = s[i];
        for (; i + 64 <= n; i += 64) sw_stream_64(d + i, s + i, SW_STREAM_AHEAD);
        for (; i < n; i++) d[i] = s[i];
    } else {
        /* dst after src, overlapping: from the end, so nothing is read after it is written. */
        size_t i = n;
        for (; i > 0 && (((uintptr_t)(d + i)) & 15) != 0; i--) d[i - 1] = s[i - 1];
        for (; i >= 64; i -= 64) sw_stream_64(d + i - 64, s + i - 64, -SW_STREAM_AHEAD);
        for (; i > 0; i--) d[i - 1] = s[i - 1];
    }
    /* Streaming stores are weakly ordered: make them visible before the buffer is committed. */
    _mm_sfence();
#else
    memmove(dst, src, n);
#endif
}

void sw_fill_streaming(void *dst, size_t stride, size_t width, size_t height, uint32_t pixel) {
#if defined(__x86_64__)
    __m128i v = _mm_set1_epi32((int)pixel);
    for (size_t y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)((unsigned char *)dst + y * stride);
        size_t x = 0;
        for (; x < width && (((uintptr_t)(row + x)) & 15) != 0; x++) row[x] = pixel;
        for (; x + 16 <= width; x += 16) {
            _mm_stream_si128((__m128i *)(row + x), v);
            _mm_stream_si128((__m128i *)(row + x + 4), v);
            _mm_stream_si128((__m128i *)(row + x + 8), v);
            _mm_stream_si128((__m128i *)(row + x + 12), v);
        }
        for (; x + 4 <= width; x += 4) _mm_stream_si128((__m128i *)(row + x), v);
        for (; x < width; x++) row[x] = pixel;
    }
    _mm_sfence();
#else
    for (size_t y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)((unsigned char *)dst + y * stride);
        for (size_t x = 0; x < width; x++) row[x] = pixel;
    }
#endif
}
