#ifndef C_UTTER_SHIMS_H
#define C_UTTER_SHIMS_H
// Linux interfaces Swift's Glibc module does not export.
#include <stdint.h>
#include <sys/eventfd.h>

/// Creates an eventfd (counter semantics, close-on-exec); -1 on failure with errno set.
static inline int CUtterShims_eventfd(int nonblocking) {
    return eventfd(0, EFD_CLOEXEC | (nonblocking ? EFD_NONBLOCK : 0));
}
/// Names the calling thread (at most 15 bytes) for top, ps -L and gdb; returns 0 or an errno.
int CUtterShims_nameCurrentThread(const char *name);
#endif
