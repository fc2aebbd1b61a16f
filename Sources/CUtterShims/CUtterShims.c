// pthread_setname_np needs _GNU_SOURCE, which a header imported by Swift cannot rely on.
#define _GNU_SOURCE
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "CUtterShims.h"

int CUtterShims_nameCurrentThread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int CUtterShims_pollNanoseconds(struct pollfd *fds, unsigned long count, int64_t timeout) {
    if (timeout < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec wait = {.tv_sec = timeout / 1000000000, .tv_nsec = timeout % 1000000000};
    return ppoll(fds, count, &wait, NULL);
}

int CUtterShims_joinUntil(pthread_t thread, uint64_t deadline) {
    // pthread_timedjoin_np, not pthread_clockjoin_np (which takes the monotonic clock): only the
    // former is intercepted by ThreadSanitizer, which takes a thread joined by the latter for a
    // leak. So the deadline is moved to the real-time clock.
    struct timespec monotonic, realtime;
    clock_gettime(CLOCK_MONOTONIC, &monotonic);
    clock_gettime(CLOCK_REALTIME, &realtime);
    uint64_t now = (uint64_t)monotonic.tv_sec * 1000000000u + (uint64_t)monotonic.tv_nsec;
    uint64_t left = deadline > now ? deadline - now : 0;
    if (left > (uint64_t)INT64_MAX / 2) return pthread_join(thread, NULL);
    uint64_t until = (uint64_t)realtime.tv_sec * 1000000000u + (uint64_t)realtime.tv_nsec + left;
    struct timespec end = {.tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u)};
    return pthread_timedjoin_np(thread, NULL, &end);
}

// LeakSanitizer (the AddressSanitizer builds CI tests) takes its default suppressions from this
// function when a program defines it; otherwise it is never called. On a usage error
// swift-argument-parser exits from inside its parser, where a 48-byte key path of an @OptionGroup
// is still held by the parse: the process ending, not a leak that grows.
__attribute__((used, visibility("default"))) const char *__lsan_default_suppressions(void) {
    return "leak:ArgumentParser8InputKeyV8fullPath\n";
}

const char *CUtterShims_libraryFile(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

int CUtterShims_localSocket(int nonblocking) {
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int CUtterShims_fillAddress(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, length + 1);
    return 0;
}

int CUtterShims_listenLocal(int fd, const char *path, int backlog) {
    struct sockaddr_un address;
    if (CUtterShims_fillAddress(&address, path) < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) return -1;
    return listen(fd, backlog);
}

int CUtterShims_connectLocal(int fd, const char *path) {
    struct sockaddr_un address;
    if (CUtterShims_fillAddress(&address, path) < 0) return -1;
    return connect(fd, (struct sockaddr *)&address, sizeof address);
}

int CUtterShims_acceptLocal(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int CUtterShims_peerUserID(int fd, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) < 0) return -1;
    *uid = credentials.uid;
    return 0;
}

int CUtterShims_setReceiveTimeout(int fd, int milliseconds) {
    struct timeval timeout = {.tv_sec = milliseconds / 1000, .tv_usec = (milliseconds % 1000) * 1000};
    return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}

int CUtterShims_trimHeap(void) { return malloc_trim(0); }
