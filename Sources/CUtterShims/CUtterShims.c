// pthread_setname_np needs _GNU_SOURCE, which a header imported by Swift cannot rely on.
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <dlfcn.h>
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
