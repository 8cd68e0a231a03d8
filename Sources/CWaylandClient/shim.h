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

#endif
