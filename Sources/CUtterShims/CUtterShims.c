// pthread_setname_np needs _GNU_SOURCE, which a header imported by Swift cannot rely on.
#define _GNU_SOURCE
#include <pthread.h>
#include "CUtterShims.h"

int CUtterShims_nameCurrentThread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
