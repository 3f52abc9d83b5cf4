#ifndef ACTIONFLOW_TERMINAL_SUPPORT_H
#define ACTIONFLOW_TERMINAL_SUPPORT_H

#include <sys/types.h>

/// Saves the terminal's current termios so a crash can put it back. Call before curses starts.
void ts_save_terminal(int fd);

/// The bytes written to the terminal on a crash (leave the alternate screen, show the cursor,
/// reset attributes). Copied; at most 255 bytes are kept.
void ts_set_restore_sequence(const char *sequence);

/// Restores the saved termios and writes the restore sequence. Async-signal-safe.
void ts_restore_terminal(void);

/// SIGINT, SIGTERM and SIGHUP set a pending flag (SIGTSTP a pending suspend) and write one byte to `wake_fd`; crash signals
/// (SEGV, BUS, ILL, TRAP, ABRT, FPE) restore the terminal and re-raise with the default action.
void ts_install_signal_handlers(int wake_fd);

/// Puts the default actions back.
void ts_remove_signal_handlers(void);

/// The last termination signal received (0 when none), cleared by the call.
int ts_take_pending_signal(void);

/// 1 when a SIGTSTP arrived (the caller leaves curses mode, then calls ts_suspend_self), cleared by the call.
int ts_take_pending_suspend(void);

/// Ends the process by `signal_number` with its default action, from any thread (worker
/// threads block signals, so a plain raise() may never be delivered).
void ts_reraise(int signal_number);

/// Stops the process group as SIGTSTP would and returns after `fg`. Call after leaving curses mode.
void ts_suspend_self(void);

#endif
