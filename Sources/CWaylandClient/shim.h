// wayland-client and wayland-cursor, plus the few libc calls Swift cannot reach directly.
#ifndef SCROLLWAY_CWAYLANDCLIENT_SHIM_H
#define SCROLLWAY_CWAYLANDCLIENT_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
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

/// The seal bits, for callers checking sw_memfd_get_seals.
static const int SW_SEAL_SHRINK = F_SEAL_SHRINK;
static const int SW_SEAL_GROW = F_SEAL_GROW;

#endif
