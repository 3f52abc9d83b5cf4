#include "pseudo_terminal.h"

#include <pty.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

pid_t pty_spawn(const char *path, char *const argv[], char *const envp[], int rows, int cols, int *master_fd) {
    struct winsize size;
    memset(&size, 0, sizeof(size));
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)cols;
    pid_t pid = forkpty(master_fd, NULL, NULL, &size);
    if (pid == 0) {
        // The caller may be a thread that blocks signals; the program must not inherit that.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        _exit(127);
    }
    return pid;
}
