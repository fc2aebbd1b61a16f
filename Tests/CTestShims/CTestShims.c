#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CTestShims.h"

int CTestShims_pipeCloseOnExec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
