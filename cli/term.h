/*
 * term.h - the terminal: is colour wanted, how big is it, and the raw mode
 * the live `top` view runs in (restored on every way out, signals too).
 */
#ifndef STACKCTL_TERM_H
#define STACKCTL_TERM_H

#include <stdbool.h>
#include <stddef.h>

/* Colour on fd: a terminal, not TERM=dumb, no $NO_COLOR, not --no-color. */
bool term_color_wanted(int fd, bool no_color_flag);

/* Rows and columns of the terminal on fd; 24 x 80 when it cannot tell
 * ($LINES / $COLUMNS override). */
void term_size(int fd, int *rows, int *cols);

/* The columns a table printed on fd must fit: the terminal's, or
 * $COLUMNS; 0 (no limit) when fd is not a terminal and $COLUMNS is not
 * set (a pipe or file gets every column). */
int term_columns(int fd);

/* Raw keys, no echo, alternate screen, cursor hidden; 0 or -errno. */
int term_raw_enter(void);
void term_raw_leave(void);   /* idempotent */

/* s made safe for a terminal, in buf (len bytes): valid UTF-8 with every
 * control character (ESC, newline, C1...) shown as '?', as ps does, so a
 * process name cannot retitle, clear or forge lines on the reader's
 * terminal.  Returns buf ("" for NULL). */
const char *term_safe(const char *s, char *buf, size_t len);

#endif
