#ifndef ACTIONFLOW_CNCURSES_SHIM_H
#define ACTIONFLOW_CNCURSES_SHIM_H

// SwiftPM drops the pkg-config defines: without these the wide-character API is missing.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Swift 6 rejects the curses globals as shared mutable state: read them through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline FILE *cn_stdout(void) { return stdout; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_err(void) { return ERR; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
// tiparm is variadic, which Swift cannot call.
static inline const char *cn_tiparm1(const char *capability, int first) { return tiparm(capability, first); }
static inline const char *cn_tiparm2(const char *capability, int first, int second) { return tiparm(capability, first, second); }

#endif
