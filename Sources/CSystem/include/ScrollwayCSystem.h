// The few libc calls Swift cannot reach directly (they need _GNU_SOURCE, which Swift's Glibc
// module does not set, or macros Swift does not import): shared memory, timer and event file
// descriptors, clocks. Used by the Wayland client core and platform.
#ifndef SCROLLWAY_CSYSTEM_H
#define SCROLLWAY_CSYSTEM_H

#include <stddef.h>
#include <stdint.h>

/// memfd_create is declared only under _GNU_SOURCE, which Swift's Glibc module does not set.
/// Returns a close-on-exec, sealable anonymous file, or -1 with errno set.
int sw_memfd_create(const char *name);

/// Seals a memfd against shrinking and growing, so the compositor can trust its size.
int sw_memfd_seal_size(int fd);

/// The seals currently applied to fd (F_GET_SEALS), or -1 with errno set.
int sw_memfd_get_seals(int fd);

/// Faults in the pages of a shared mapping for writing without changing what they hold
/// (MADV_POPULATE_WRITE, Linux 5.14): a buffer ring made ready while the window is idle, so
/// that scrolling into it later costs no page faults. 0, or -1 with errno set (older kernels:
/// the pages then fault in as they are first drawn).
int sw_prefault(void *address, size_t length);

/// Fallback when memfd_create is unavailable: an unlinked POSIX shared-memory file.
int sw_shm_open_anonymous(void);

/// A monotonic, non-blocking, close-on-exec timerfd (timers and key repeat in the event loop).
int sw_timerfd_create(void);

/// Arms (or with 0, disarms) a timerfd `ns` nanoseconds from now, one-shot.
int sw_timerfd_arm(int fd, long long ns);

/// A non-blocking, close-on-exec eventfd: wakes the event loop from another thread.
int sw_eventfd_create(void);

/// CLOCK_MONOTONIC in seconds: the platform's clock, the same base as weston's timestamps.
double sw_monotonic_seconds(void);

/// Any clock (by id, as wp_presentation announces it) in seconds; -1 if the id is unknown.
double sw_clock_seconds(uint32_t clock_id);

/// A pipe whose two ends close on exec (pipe2 with O_CLOEXEC, declared only under _GNU_SOURCE):
/// `fds[0]` reads, `fds[1]` writes. 0, or -1 with errno set.
int sw_pipe_cloexec(int fds[2]);

/// A Unix socket as the kernel's socket diagnostics see it from outside its owner (see
/// sw_unix_socket_info).
typedef struct {
    /// Bytes queued to it that its owner has not read yet.
    uint32_t unread;
    /// The inode of the socket at its other end (0: not connected).
    uint32_t peer;
    /// The path it is bound to ("" for none; an accepted socket carries its listener's).
    char path[109];
} sw_unix_socket;

/// Reads what the kernel knows of the Unix socket with inode `inode` (from a /proc/PID/fd link,
/// "socket:[inode]") through NETLINK_SOCK_DIAG: how far a process behind it is in reading, and
/// where it is connected. 0, or -1 with errno set (ENOENT: no such socket).
int sw_unix_socket_info(uint32_t inode, sw_unix_socket *info);

/// Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX). Each thread that allocates
/// otherwise gets an arena of its own with address space reserved for it, which an
/// address-space limit (`ulimit -v`) counts (docs/decisions.md, "Hostile input"). 1 when set,
/// 0 when glibc refused.
int sw_limit_malloc_arenas(int count);

/// Starts `count` threads (at most 64) that each wait until all have started (or one could not
/// be), then ends and joins them: how many could run at once, `count` when all could, -1 with
/// errno EINVAL for a count out of range. When one could not start, `*error` is why (EAGAIN:
/// the limit on processes), else 0. Each has a small stack (64 KiB, or the system's least), so
/// an address-space limit is not what it measures. Why: libdispatch, on whose threads Swift's
/// concurrency runs, retries a thread it cannot start forever, so a command under a limit on
/// processes (`ulimit -u`, a cgroup's `pids.max`) hung before its first line; asked first, it
/// can say so instead (docs/decisions.md, Hostile input).
int sw_threads_startable(int count, int *error);

/// Names the calling thread (pthread_setname_np, declared only under _GNU_SOURCE) for `top`,
/// `perf` and debuggers; a name over 15 bytes is cut there. 0, or an error number.
int sw_set_thread_name(const char *name);

/// The seal bits, for callers checking sw_memfd_get_seals (F_SEAL_SHRINK and F_SEAL_GROW; the
/// implementation checks that they match).
#define SW_SEAL_SHRINK 0x0002
#define SW_SEAL_GROW 0x0004

#endif
