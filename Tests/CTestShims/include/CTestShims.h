#ifndef C_TEST_SHIMS_H
#define C_TEST_SHIMS_H
// What the tests need from Linux that Swift's Glibc module does not export.

/// pipe() with both ends close-on-exec, atomically (pipe2 needs _GNU_SOURCE): a child another
/// test spawns meanwhile cannot inherit either end. 0, or -1 with errno set.
int CTestShims_pipeCloseOnExec(int fds[2]);
#endif
