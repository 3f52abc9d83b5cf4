#ifndef ACTIONFLOW_PSEUDO_TERMINAL_H
#define ACTIONFLOW_PSEUDO_TERMINAL_H

#include <sys/types.h>

/// Runs `path` with `argv` on a new pseudo-terminal of the given size. Returns the child pid and
/// the master side in `master_fd`, or -1 on failure.
pid_t pty_spawn(const char *path, char *const argv[], char *const envp[], int rows, int cols, int *master_fd);

#endif
