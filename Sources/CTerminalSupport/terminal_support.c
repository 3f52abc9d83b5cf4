#define _GNU_SOURCE
#include "terminal_support.h"

#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_termios;
static int saved_fd = -1;
static char restore_sequence[256];
static size_t restore_length = 0;
static volatile sig_atomic_t pending_signal = 0;
static volatile sig_atomic_t pending_suspend = 0;
static int wake_descriptor = -1;

static const int termination_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };

void ts_save_terminal(int fd) {
    if (tcgetattr(fd, &saved_termios) == 0) {
        saved_fd = fd;
    }
}

void ts_set_restore_sequence(const char *sequence) {
    size_t length = strlen(sequence);
    if (length >= sizeof(restore_sequence)) {
        length = sizeof(restore_sequence) - 1;
    }
    memcpy(restore_sequence, sequence, length);
    restore_sequence[length] = 0;
    restore_length = length;
}

void ts_restore_terminal(void) {
    if (saved_fd >= 0) {
        tcsetattr(saved_fd, TCSANOW, &saved_termios);
        if (restore_length > 0) {
            ssize_t ignored = write(saved_fd, restore_sequence, restore_length);
            (void)ignored;
        }
    }
}

static void on_termination(int signal_number) {
    int saved_errno = errno;
    pending_signal = signal_number;
    if (wake_descriptor >= 0) {
        char byte = 1;
        ssize_t ignored = write(wake_descriptor, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

static void on_suspend(int signal_number) {
    (void)signal_number;
    int saved_errno = errno;
    pending_suspend = 1;
    if (wake_descriptor >= 0) {
        char byte = 1;
        ssize_t ignored = write(wake_descriptor, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

static void install_suspend_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_suspend;
    action.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &action, NULL);
}

static void on_crash(int signal_number) {
    ts_restore_terminal();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

void ts_install_signal_handlers(int wake_fd) {
    wake_descriptor = wake_fd;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_termination;
    action.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof(termination_signals) / sizeof(termination_signals[0]); i++) {
        sigaction(termination_signals[i], &action, NULL);
    }
    install_suspend_handler();
    action.sa_handler = on_crash;
    action.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++) {
        sigaction(crash_signals[i], &action, NULL);
    }
}

void ts_remove_signal_handlers(void) {
    for (size_t i = 0; i < sizeof(termination_signals) / sizeof(termination_signals[0]); i++) {
        signal(termination_signals[i], SIG_DFL);
    }
    for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++) {
        signal(crash_signals[i], SIG_DFL);
    }
    signal(SIGTSTP, SIG_DFL);
    wake_descriptor = -1;
}

int ts_take_pending_suspend(void) {
    int suspend = pending_suspend;
    pending_suspend = 0;
    return suspend;
}

int ts_take_pending_signal(void) {
    int signal_number = pending_signal;
    pending_signal = 0;
    return signal_number;
}

void ts_reraise(int signal_number) {
    signal(signal_number, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signal_number);
    kill(getpid(), signal_number);
}

void ts_suspend_self(void) {
    signal(SIGTSTP, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    // Delivered to this thread before raise() returns: execution continues here after `fg`.
    raise(SIGTSTP);
    install_suspend_handler();
}
