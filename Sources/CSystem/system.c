// The system calls of ScrollwayCSystem.h; their contracts are in the header.
#define _GNU_SOURCE 1
#include "ScrollwayCSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <malloc.h>
#include <pthread.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
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

int sw_unix_socket_info(uint32_t inode, sw_unix_socket *info) {
    memset(info, 0, sizeof *info);
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -1;
    struct {
        struct nlmsghdr header;
        struct unix_diag_req request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST;
    message.request.sdiag_family = AF_UNIX;
    message.request.udiag_states = ~0U;
    message.request.udiag_ino = inode;
    message.request.udiag_show = UDIAG_SHOW_RQLEN | UDIAG_SHOW_PEER | UDIAG_SHOW_NAME;
    // One socket by inode: the kernel wants "no cookie" said explicitly.
    message.request.udiag_cookie[0] = ~0U;
    message.request.udiag_cookie[1] = ~0U;
    if (send(fd, &message, sizeof message, 0) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    // Aligned for the headers read out of it.
    long reply[1024];
    ssize_t n = recv(fd, reply, sizeof reply, 0);
    int saved = errno;
    close(fd);
    if (n < 0) {
        errno = saved;
        return -1;
    }
    struct nlmsghdr *header = (struct nlmsghdr *)reply;
    if (!NLMSG_OK(header, (size_t)n)) {
        errno = EPROTO;
        return -1;
    }
    if (header->nlmsg_type == NLMSG_ERROR) {
        struct nlmsgerr *error = NLMSG_DATA(header);
        errno = error->error < 0 ? -error->error : EPROTO;
        return -1;
    }
    if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY || header->nlmsg_len < NLMSG_LENGTH(sizeof(struct unix_diag_msg))) {
        errno = EPROTO;
        return -1;
    }
    struct unix_diag_msg *found = NLMSG_DATA(header);
    int length = (int)(header->nlmsg_len - NLMSG_LENGTH(sizeof *found));
    for (struct rtattr *a = (struct rtattr *)(found + 1); RTA_OK(a, length); a = RTA_NEXT(a, length)) {
        if (a->rta_type == UNIX_DIAG_RQLEN && RTA_PAYLOAD(a) >= sizeof(struct unix_diag_rqlen)) {
            info->unread = ((struct unix_diag_rqlen *)RTA_DATA(a))->udiag_rqueue;
        } else if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= sizeof(uint32_t)) {
            memcpy(&info->peer, RTA_DATA(a), sizeof(uint32_t));
        } else if (a->rta_type == UNIX_DIAG_NAME) {
            size_t size = RTA_PAYLOAD(a);
            if (size >= sizeof info->path) size = sizeof info->path - 1;
            memcpy(info->path, RTA_DATA(a), size);
            info->path[size] = 0;
        }
    }
    return 0;
}

int sw_limit_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

/// What the probe's threads share: how many started, and whether to end.
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int started;
    int ending;
} sw_thread_probe;

static void *sw_thread_probe_wait(void *argument) {
    sw_thread_probe *probe = argument;
    pthread_mutex_lock(&probe->lock);
    probe->started += 1;
    pthread_cond_broadcast(&probe->changed);
    while (!probe->ending) pthread_cond_wait(&probe->changed, &probe->lock);
    pthread_mutex_unlock(&probe->lock);
    return NULL;
}

int sw_threads_startable(int count, int *error) {
    *error = 0;
    if (count < 0 || count > 64) {
        errno = EINVAL;
        return -1;
    }
    sw_thread_probe probe = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    pthread_t threads[64];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    size_t stack = 64 * 1024;
    long least = sysconf(_SC_THREAD_STACK_MIN);
    if (least > 0 && (size_t)least > stack) stack = (size_t)least;
    if (pthread_attr_setstacksize(&attributes, stack) != 0) {
        // The system's default stack then: more address space, the same count.
        pthread_attr_destroy(&attributes);
        pthread_attr_init(&attributes);
    }
    int made = 0;
    while (made < count) {
        int result = pthread_create(&threads[made], &attributes, sw_thread_probe_wait, &probe);
        if (result != 0) {
            *error = result;
            break;
        }
        made += 1;
    }
    pthread_attr_destroy(&attributes);
    pthread_mutex_lock(&probe.lock);
    while (probe.started < made) pthread_cond_wait(&probe.changed, &probe.lock);
    probe.ending = 1;
    pthread_cond_broadcast(&probe.changed);
    pthread_mutex_unlock(&probe.lock);
    for (int i = 0; i < made; i++) pthread_join(threads[i], NULL);
    return made;
}

int sw_set_thread_name(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    return pthread_setname_np(pthread_self(), cut);
}
