// The system calls of ScrollwayCSystem.h; their contracts are in the header.
#define _GNU_SOURCE 1
#include "ScrollwayCSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

_Static_assert(SW_SEAL_SHRINK == F_SEAL_SHRINK, "SW_SEAL_SHRINK is F_SEAL_SHRINK");
_Static_assert(SW_SEAL_GROW == F_SEAL_GROW, "SW_SEAL_GROW is F_SEAL_GROW");

int sw_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int sw_memfd_seal_size(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
}

int sw_memfd_get_seals(int fd) {
    return fcntl(fd, F_GET_SEALS);
}

int sw_prefault(void *address, size_t length) {
#ifdef MADV_POPULATE_WRITE
    return madvise(address, length, MADV_POPULATE_WRITE);
#else
    errno = EINVAL;
    return -1;
#endif
}

int sw_shm_open_anonymous(void) {
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

int sw_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int sw_timerfd_arm(int fd, long long ns) {
    struct itimerspec its = {0};
    if (ns > 0) {
        its.it_value.tv_sec = ns / 1000000000LL;
        its.it_value.tv_nsec = ns % 1000000000LL;
    }
    return timerfd_settime(fd, 0, &its, NULL);
}

int sw_eventfd_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

double sw_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double sw_clock_seconds(uint32_t clock_id) {
    struct timespec ts;
    if (clock_gettime((clockid_t)clock_id, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int sw_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
