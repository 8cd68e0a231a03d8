// wayland-client and wayland-cursor, plus the few libc calls and CPU instructions Swift cannot
// reach directly.
#ifndef SCROLLWAY_CWAYLANDCLIENT_SHIM_H
#define SCROLLWAY_CWAYLANDCLIENT_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-cursor.h>

/// memfd_create is declared only under _GNU_SOURCE, which Swift's Glibc module does not set.
/// Returns a close-on-exec, sealable anonymous file, or -1 with errno set.
static inline int sw_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

/// Seals a memfd against shrinking and growing, so the compositor can trust its size.
static inline int sw_memfd_seal_size(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

/// The seals currently applied to fd (F_GET_SEALS), or -1 with errno set.
static inline int sw_memfd_get_seals(int fd) {
    return fcntl(fd, F_GET_SEALS);
}

/// Faults in the pages of a shared mapping for writing without changing what they hold
/// (MADV_POPULATE_WRITE, Linux 5.14): a buffer ring made ready while the window is idle, so
/// that scrolling into it later costs no page faults. 0, or -1 with errno set (older kernels:
/// the pages then fault in as they are first drawn).
static inline int sw_prefault(void *address, size_t length) {
#ifdef MADV_POPULATE_WRITE
    return madvise(address, length, MADV_POPULATE_WRITE);
#else
    errno = EINVAL;
    return -1;
#endif
}

/// Fallback when memfd_create is unavailable: an unlinked POSIX shared-memory file.
static inline int sw_shm_open_anonymous(void) {
    char name[64];
    for (int attempt = 0; attempt < 100; attempt++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        snprintf(name, sizeof name, "/scrollway-%d-%ld-%d", (int)getpid(), (long)ts.tv_nsec, attempt);
        int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            shm_unlink(name);
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/// A monotonic, non-blocking, close-on-exec timerfd (timers and key repeat in the event loop).
static inline int sw_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

/// Arms (or with 0, disarms) a timerfd `ns` nanoseconds from now, one-shot.
static inline int sw_timerfd_arm(int fd, long long ns) {
    struct itimerspec its = {0};
    if (ns > 0) {
        its.it_value.tv_sec = ns / 1000000000LL;
        its.it_value.tv_nsec = ns % 1000000000LL;
    }
    return timerfd_settime(fd, 0, &its, NULL);
}

/// A non-blocking, close-on-exec eventfd: wakes the event loop from another thread.
static inline int sw_eventfd_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// CLOCK_MONOTONIC in seconds: the platform's clock, the same base as weston's timestamps.
static inline double sw_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// Any clock (by id, as wp_presentation announces it) in seconds; -1 if the id is unknown.
static inline double sw_clock_seconds(uint32_t clock_id) {
    struct timespec ts;
    if (clock_gettime((clockid_t)clock_id, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// The seal bits, for callers checking sw_memfd_get_seals.
static const int SW_SEAL_SHRINK = F_SEAL_SHRINK;
static const int SW_SEAL_GROW = F_SEAL_GROW;

#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <string.h>

#if defined(__x86_64__)
/// One 64-byte step of sw_memmove_streaming: four 16-byte loads, then four streaming stores
/// (all loads first, so a step never reads what it wrote). The source `ahead` bytes on (a
/// few steps; negative when copying backwards) is fetched non-temporally: the source is
/// megabytes read once, and a plain read would evict the caches' working set (the frame's
/// glyphs, views and code) along the way. In weston at 1920x1080 that took a tenth off the
/// recentring draws (their median present 1.31-1.37 ms before, 1.14-1.29 ms after, six runs of
/// 12 flings each, alternating) and about 4% off the list's p99.
static inline void sw_stream_64(unsigned char *d, const unsigned char *s, intptr_t ahead) {
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

/// memmove with non-temporal stores: the same bytes end up at `dst`, but written around the
/// caches. For a buffer's recentring in its ring (megabytes that the compositor reads next, not
/// us) this saves the read of each destination line before its write, which plain stores
/// make: in weston, a fifth of a 1920x1080 recentring. Overlap is allowed in either direction
/// (copied forwards when `dst` is before `src`, backwards when after). Off x86-64, memmove.
static inline void sw_memmove_streaming(void *dst, const void *src, size_t n) {
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

#endif
