// pthread_setname_np needs _GNU_SOURCE, which a header imported by Swift cannot rely on.
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include "CUtterShims.h"

int CUtterShims_nameCurrentThread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int CUtterShims_pollNanoseconds(struct pollfd *fds, unsigned long count, int64_t timeout) {
    if (timeout < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec wait = {.tv_sec = timeout / 1000000000, .tv_nsec = timeout % 1000000000};
    return ppoll(fds, count, &wait, NULL);
}

int CUtterShims_pipeCloseOnExec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int CUtterShims_joinUntil(pthread_t thread, uint64_t deadline) {
    struct timespec until = {.tv_sec = (time_t)(deadline / 1000000000), .tv_nsec = (long)(deadline % 1000000000)};
    return pthread_clockjoin_np(thread, NULL, CLOCK_MONOTONIC, &until);
}
