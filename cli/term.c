/*
 * term.c - see term.h.
 */
#include "cli/term.h"
#include "lib/utf8.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static volatile sig_atomic_t raw_on;

bool term_color_wanted(int fd, bool no_color_flag)
{
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");

	if (no_color_flag || (no_color != NULL && no_color[0] != '\0') || !isatty(fd))
		return false;
	return term != NULL && strcmp(term, "dumb") != 0;
}

void term_size(int fd, int *rows, int *cols)
{
	struct winsize ws;
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");

	*rows = 24;
	*cols = 80;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
	if (l != NULL && atoi(l) > 0)
		*rows = atoi(l);
	if (c != NULL && atoi(c) > 0)
		*cols = atoi(c);
}

int term_columns(int fd)
{
	const char *c = getenv("COLUMNS");
	int rows, cols;

	if (!isatty(fd) && (c == NULL || atoi(c) <= 0))
		return 0;
	term_size(fd, &rows, &cols);
	return cols;
}

void term_raw_leave(void)
{
	static const char restore[] = "\033[?25h\033[?1049l";

	if (!raw_on)
		return;
	raw_on = 0;
	/* write(), not stdio: this also runs from a signal handler. */
	if (write(STDOUT_FILENO, restore, sizeof(restore) - 1) < 0)
		return;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
}

static void on_fatal_signal(int sig)
{
	term_raw_leave();
	signal(sig, SIG_DFL);
	raise(sig);
}

int term_raw_enter(void)
{
	static const char enter[] = "\033[?1049h\033[?25l\033[H\033[2J";
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &saved) < 0)
		return -errno;
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) < 0)
		return -errno;
	raw_on = 1;
	atexit(term_raw_leave);
	signal(SIGTERM, on_fatal_signal);
	signal(SIGHUP, on_fatal_signal);
	signal(SIGSEGV, on_fatal_signal);
	signal(SIGABRT, on_fatal_signal);
	if (write(STDOUT_FILENO, enter, sizeof(enter) - 1) < 0)
		return -errno;
	return 0;
}

const char *term_safe(const char *s, char *buf, size_t len)
{
	(void)utf8_sanitize(buf, len, s != NULL ? s : "", UTF8_CONTROLS_VISIBLE);
	return buf;
}
