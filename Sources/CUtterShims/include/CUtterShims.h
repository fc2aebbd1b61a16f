#ifndef C_UTTER_SHIMS_H
#define C_UTTER_SHIMS_H
// Linux interfaces Swift's Glibc module does not export.
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>

/// Creates an eventfd (counter semantics, close-on-exec); -1 on failure with errno set.
static inline int CUtterShims_eventfd(int nonblocking) {
    return eventfd(0, EFD_CLOEXEC | (nonblocking ? EFD_NONBLOCK : 0));
}
/// Creates a signalfd for the (blocked) signals in `set` (close-on-exec, non-blocking); -1 on failure.
static inline int CUtterShims_signalfd(const sigset_t *set) {
    return signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/// The size of one record read from a signalfd.
static inline int CUtterShims_signalfdRecordSize(void) {
    return (int)sizeof(struct signalfd_siginfo);
}

struct pollfd;
/// poll() with a timeout in nanoseconds (negative: none), so a wait can end on the exact sample
/// time of the next playback event rather than at a whole millisecond; ppoll needs _GNU_SOURCE.
int CUtterShims_pollNanoseconds(struct pollfd *fds, unsigned long count, int64_t timeout);

/// Names the calling thread (at most 15 bytes) for top, ps -L and gdb; returns 0 or an errno.
int CUtterShims_nameCurrentThread(const char *name);
/// pthread_join that gives up at `deadline` on CLOCK_MONOTONIC, in nanoseconds
/// (pthread_timedjoin_np needs _GNU_SOURCE): 0 once joined, ETIMEDOUT while the thread still runs.
int CUtterShims_joinUntil(pthread_t thread, uint64_t deadline);
/// The file of the shared library holding `address` (dladdr needs _GNU_SOURCE); NULL if none.
const char *CUtterShims_libraryFile(const void *address);
/// malloc_trim(0) (malloc.h, not in Glibc's module): returns the heap's free pages to the system.
int CUtterShims_trimHeap(void);

/// A new UNIX stream socket (close-on-exec; non-blocking if asked); -1 on failure with errno set.
int CUtterShims_localSocket(int nonblocking);
/// Binds `fd` to the filesystem `path` and listens; sockaddr_un is awkward to fill from Swift.
/// -1 with errno set (ENAMETOOLONG when the path does not fit sun_path).
int CUtterShims_listenLocal(int fd, const char *path, int backlog);
/// Connects `fd` to the socket at `path`; -1 with errno set.
int CUtterShims_connectLocal(int fd, const char *path);
/// accept4 with close-on-exec and non-blocking set on the new descriptor (accept4 needs _GNU_SOURCE).
int CUtterShims_acceptLocal(int fd);
/// The user id of the process at the other end of `fd` (SO_PEERCRED, whose struct ucred needs
/// _GNU_SOURCE): 0 with `*uid` set, or -1 with errno set.
int CUtterShims_peerUserID(int fd, unsigned int *uid);
/// Gives up a blocking read on `fd` after `milliseconds` (SO_RCVTIMEO); -1 with errno set.
int CUtterShims_setReceiveTimeout(int fd, int milliseconds);

#endif
