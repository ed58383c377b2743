/*
 * top_live.c - see top_live.h.  Each frame is printed to memory first and
 * then written in one go, clipped to the terminal, so the screen never
 * shows half a frame.
 */
#include "cli/cli.h"
#include "cli/term.h"
#include "cli/top_live.h"
#include "lib/clock.h"
#include "cli/term_key.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_LINES 5   /* header (4 lines), plus the key line at the bottom */

static volatile sig_atomic_t stop_requested, resized;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

struct live {
	struct source *src;
	struct top_request *req;
	char sort[64], by[16], family[16], comm[256], unit[256];
	bool paused, color;
	char message[512];       /* shown in the key line until the next key */
	struct top_view view;
	bool have_view;
	char err[1024];
	bool help;               /* the help screen instead of the table */
	size_t scroll;           /* rows scrolled past */
	size_t visible;          /* table rows the screen holds */
	struct rs_widths widths; /* kept across frames: columns never narrow */
	unsigned char keys[32];  /* read, not yet taken (an escape sequence's rest) */
	size_t n_keys;
};

static const char help_text[] =
	"stackctl top - keys (as in top and htop)\n"
	"\n"
	"  Sort, biggest first:\n"
	"    f b s r   frontend-bound, backend-bound, bad-speculation, retiring slots\n"
	"    P c       CPU time          i  IPC          F  GFLOP/s\n"
	"    M         memory-bound share (stackd measures no memory use: the Top-Down\n"
	"              node MEM, where the model has one)\n"
	"    < >       the previous / next column on screen\n"
	"  View:\n"
	"    t  next family    g  next grouping (process, comm, unit, user, namespace,\n"
	"                         pod, container)\n"
	"    Up Down PgUp PgDn Home End   scroll\n"
	"  Filter:\n"
	"    /  search: commands matching a text or glob (empty: all)\n"
	"    o  by command    m  by unit    u  by user    x  clear filters\n"
	"  Other:\n"
	"    space p  pause / resume     h ?  this help     q  quit\n"
	"\n"
	"Shares coloured: yellow from 20%, red from 50% (not with NO_COLOR or --no-color).\n"
	"Any key returns to the table.\n";

static size_t utf8_cut(const char *s, size_t len, size_t max_chars)
{
	size_t i = 0, chars = 0;

	while (i < len && chars < max_chars) {
		if (s[i] == '\033') {   /* a colour: no width */
			i++;
			while (i < len && !((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
				i++;
			i += i < len;
			continue;
		}
		i++;
		while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

/* Write text line by line, each cut to cols, at most max_lines. */
static void put_clipped(const char *text, int cols, int max_lines, int *used)
{
	const char *p = text;

	while (*p != '\0' && *used < max_lines) {
		size_t len = strcspn(p, "\n");

		fwrite(p, 1, utf8_cut(p, len, (size_t)cols), stdout);
		/* a line cut inside a coloured cell leaves no colour on */
		fputs("\033[0m\033[K\n", stdout);
		(*used)++;
		p += len;
		if (*p == '\n')
			p++;
	}
}

static void draw_frame(struct live *l, FILE *f)
{
	struct rs_table_style st = { .first_row = l->scroll, .rows = l->visible,
				     .color = l->color, .widths = &l->widths };

	if (l->help) {
		fputs(help_text, f);
	} else if (l->have_view) {
		top_view_print_header(&l->view, l->src, f);
		rowset_print_table(&l->view.rs, &st, f);
	} else {
		fprintf(f, "stackctl top: %s\n", l->err);
	}
}

static void draw(struct live *l)
{
	char *buf = NULL;
	size_t len = 0;
	int rows, cols, used = 0;
	FILE *f;

	term_size(STDOUT_FILENO, &rows, &cols);
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	draw_frame(l, f);
	fclose(f);
	fputs("\033[H", stdout);
	if (buf != NULL)
		put_clipped(buf, cols, rows - 1, &used);
	free(buf);
	fputs("\033[J", stdout);
	printf("\033[%d;1H%s%.*s%s", rows, l->color ? "\033[7m" : "", cols,
	       l->message[0] ? l->message :
	       l->help ? "any key returns to the table" :
	       l->paused ? "PAUSED - space resumes, q quits" :
	       "f/b/s/r sort by FE/BE/badspec/retiring slots  P CPU  M MEM  i IPC  F FLOPS  "
	       "</> column  t family  g group  / search  u/m/o filter  x clear  h help  q quit",
	       l->color ? "\033[0m" : "");
	fflush(stdout);
}

static void fetch(struct live *l)
{
	int rows, cols;

	term_size(STDOUT_FILENO, &rows, &cols);
	if (l->have_view)
		top_view_done(&l->view);
	l->have_view = false;
	l->req->sort = l->sort[0] ? l->sort : NULL;
	l->req->by = l->by;
	l->req->family = l->family[0] ? l->family : NULL;
	l->req->comm = l->comm[0] ? l->comm : NULL;
	l->req->unit = l->unit[0] ? l->unit : NULL;
	l->req->width = cols > 0 ? (size_t)cols : 0;
	if (top_view_fetch(l->src, l->req, &l->view, l->err, sizeof(l->err)) == 0) {
		l->have_view = true;
		snprintf(l->family, sizeof(l->family), "%s", l->view.family);
		/* fewer rows than before (a filter): the last ones stay in view */
		if (l->scroll > 0 && l->scroll + l->visible > l->view.total_rows)
			l->scroll = l->view.total_rows > l->visible ?
				    l->view.total_rows - l->visible : 0;
	}
}

/* Read a line at the bottom of the screen: Enter takes it, Esc cancels. */
static bool prompt(struct live *l, const char *label, char *buf, size_t len)
{
	size_t n = 0;
	int rows, cols;

	term_size(STDOUT_FILENO, &rows, &cols);
	buf[0] = '\0';
	fputs("\033[?25h", stdout);
	for (;;) {
		unsigned char ch;

		printf("\033[%d;1H\033[K%s: %s", rows, label, buf);
		fflush(stdout);
		if (read(STDIN_FILENO, &ch, 1) != 1) {
			struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };

			if (stop_requested)
				break;
			poll(&p, 1, 200);
			continue;
		}
		if (ch == '\r' || ch == '\n') {
			fputs("\033[?25l", stdout);
			return true;
		}
		if (ch == 27)
			break;
		if ((ch == 127 || ch == 8) && n > 0)
			buf[--n] = '\0';
		else if (ch >= 32 && ch != 127 && n + 1 < len) {
			buf[n++] = (char)ch;
			buf[n] = '\0';
		}
	}
	(void)l;
	fputs("\033[?25l", stdout);
	return false;
}

static bool has_column(const struct live *l, const char *name)
{
	return l->have_view && rowset_find_column(&l->view.rs, name) >= 0;
}

static void set_sort(struct live *l, const char *column, const char *what)
{
	if (l->have_view && !has_column(l, column)) {
		snprintf(l->message, sizeof(l->message), "model %s measures no %s",
			 l->view.answer ? json_string_value(json_object_get(l->view.answer, "model"))
					: "?", what);
		return;
	}
	snprintf(l->sort, sizeof(l->sort), "%s", column);
}

/* Sort by the column on screen before (step -1) or after (+1) the
 * current sort column, as htop's < and >. */
static void step_sort(struct live *l, int step)
{
	const struct rowset *rs = &l->view.rs;
	int n = (int)rs->n_cols, cur = -1, c, k;

	if (!l->have_view)
		return;
	for (c = 0; c < n; c++)
		if (strcmp(rs->cols[c].name, l->view.sort) == 0)
			cur = c;
	for (k = 1; k <= n; k++) {
		c = ((cur < 0 ? 0 : cur) + step * k + 2 * n) % n;
		if (!rs->cols[c].table_hidden && strcmp(rs->cols[c].name, "cmdline") != 0) {
			snprintf(l->sort, sizeof(l->sort), "%s", rs->cols[c].name);
			return;
		}
	}
}

/* '/': the commands whose name holds a text (or matches a glob). */
static void search(struct live *l)
{
	char input[200];

	if (!prompt(l, "search commands (text or glob; empty: all)", input, sizeof(input)))
		return;
	if (input[0] == '\0' || strpbrk(input, "*?[") != NULL)
		snprintf(l->comm, sizeof(l->comm), "%s", input);
	else
		snprintf(l->comm, sizeof(l->comm), "*%s*", input);
	l->scroll = 0;
}

/* Arrows, pages, Home and End; false when ch is none of them. */
static bool scroll_key(struct live *l, int ch)
{
	size_t page = l->visible > 1 ? l->visible - 1 : 1;

	switch (ch) {
	case TERM_KEY_UP:
		l->scroll -= l->scroll > 0;
		return true;
	case TERM_KEY_DOWN:
		l->scroll++;
		return true;
	case TERM_KEY_PGUP:
		l->scroll = l->scroll > page ? l->scroll - page : 0;
		return true;
	case TERM_KEY_PGDN:
		l->scroll += page;
		return true;
	case TERM_KEY_HOME:
		l->scroll = 0;
		return true;
	case TERM_KEY_END:
		l->scroll = l->have_view && l->view.total_rows > l->visible ?
			    l->view.total_rows - l->visible : 0;
		return true;
	}
	return false;
}

static void next_grouping(struct live *l)
{
	static const char *const order[] = { "process", "comm", "unit", "user", "namespace",
					     "pod", "container" };
	const size_t n = sizeof(order) / sizeof(order[0]);
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(l->by, order[i]) == 0)
			break;
	snprintf(l->by, sizeof(l->by), "%s", order[(i + 1) % n]);
	/* A sort by pid or user name may not exist in the new grouping. */
	if (strcmp(l->sort, "pid") == 0 || strcmp(l->sort, "cmdline") == 0)
		l->sort[0] = '\0';
}

/* 'u': only one user's processes, by name or uid. */
static void filter_user(struct live *l)
{
	char input[256];
	struct passwd *pw;
	char *end;
	long uid;

	if (!prompt(l, "show only user (empty: all)", input, sizeof(input)))
		return;
	pw = getpwnam(input);
	uid = strtol(input, &end, 10);
	if (input[0] == '\0')
		l->req->uid = -1;
	else if (pw != NULL)
		l->req->uid = pw->pw_uid;
	else if (*end == '\0' && uid >= 0)
		l->req->uid = uid;
	else
		snprintf(l->message, sizeof(l->message), "unknown user '%s'", input);
}

/* Returns false to quit; *refetch when the data asked for changed. */
static bool key(struct live *l, int ch, bool *refetch)
{
	static const struct { int key; const char *column, *what; } sorts[] = {
		{ 'f', "frontend_bound_slots", "frontend-bound slots" },
		{ 'b', "backend_bound_slots", "backend-bound slots" },
		{ 's', "bad_speculation_slots", "bad-speculation slots" },
		{ 'r', "retiring_slots", "retiring slots" },
		{ 'i', "ipc", "IPC" }, { 'F', "gflops", "FLOPS" }, { 'c', "task_clock_ns", "CPU time" },
		{ 'P', "task_clock_ns", "CPU time" },
		{ 'M', "memory_bound", "memory-bound share (and stackd measures no memory use)" },
	};
	char input[256];
	size_t i;

	l->message[0] = '\0';
	*refetch = true;
	if (l->help) {   /* any key leaves the help screen */
		l->help = false;
		*refetch = false;
		return ch != 'q' && ch != 'Q';
	}
	if (scroll_key(l, ch))
		return true;
	for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
		if (ch == sorts[i].key) {
			set_sort(l, sorts[i].column, sorts[i].what);
			return true;
		}
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case ' ':
	case 'p':
		l->paused = !l->paused;
		*refetch = !l->paused;
		return true;
	case 't':
		if (l->have_view)
			snprintf(l->family, sizeof(l->family), "%s", top_view_next_family(&l->view));
		return true;
	case 'g':
		next_grouping(l);
		return true;
	case '<':
	case '>':
		step_sort(l, ch == '<' ? -1 : 1);
		return true;
	case '/':
		search(l);
		return true;
	case 'h':
	case '?':
		l->help = true;
		*refetch = false;
		return true;
	case 'u':
		filter_user(l);
		return true;
	case 'm':
		if (prompt(l, "show only unit (empty: all)", input, sizeof(input)))
			snprintf(l->unit, sizeof(l->unit), "%s", input);
		return true;
	case 'o':
		if (prompt(l, "show only command (empty: all)", input, sizeof(input)))
			snprintf(l->comm, sizeof(l->comm), "%s", input);
		return true;
	case 'x':
		l->req->uid = -1;
		l->unit[0] = l->comm[0] = '\0';
		return true;
	default:
		snprintf(l->message, sizeof(l->message), "unknown key - h shows the keys");
		*refetch = false;
		return true;
	}
}

/* Read what stdin has into l->keys; false when nothing came. */
static bool read_keys(struct live *l, int wait_ms)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	ssize_t n;

	if (wait_ms > 0 && poll(&p, 1, wait_ms) <= 0)
		return false;
	n = read(STDIN_FILENO, l->keys + l->n_keys, sizeof(l->keys) - l->n_keys);
	if (n <= 0)
		return false;
	l->n_keys += (size_t)n;
	return true;
}

/* The next key (a byte or a TERM_KEY_*), -1 when none: a sequence's
 * rest is waited for briefly, else its ESC counts alone. */
static int next_key(struct live *l)
{
	size_t used;
	int k;

	if (l->n_keys == 0 && !read_keys(l, 0))
		return -1;
	k = term_key_decode(l->keys, l->n_keys, &used);
	while (k == TERM_KEY_PARTIAL && l->n_keys < sizeof(l->keys) && read_keys(l, 50))
		k = term_key_decode(l->keys, l->n_keys, &used);
	if (k == TERM_KEY_PARTIAL) {
		k = TERM_KEY_ESC;
		used = 1;
	}
	memmove(l->keys, l->keys + used, l->n_keys - used);
	l->n_keys -= used;
	return k;
}

int top_live(struct source *src, struct top_request *req, long limit, long iterations,
	     uint64_t delay_ns, bool color)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct live l;
	long frames = 0;
	uint64_t next;
	int rows, cols, r;

	memset(&l, 0, sizeof(l));
	l.src = src;
	l.req = req;
	l.color = color;
	snprintf(l.sort, sizeof(l.sort), "%s", req->sort ? req->sort : "");
	snprintf(l.by, sizeof(l.by), "%s", req->by ? req->by : "process");
	snprintf(l.family, sizeof(l.family), "%s", req->family ? req->family : "");
	snprintf(l.comm, sizeof(l.comm), "%s", req->comm ? req->comm : "");
	snprintf(l.unit, sizeof(l.unit), "%s", req->unit ? req->unit : "");
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	r = term_raw_enter();
	if (r < 0) {
		cli_error("top", "cannot use the terminal: %s (try --batch)", strerror(-r));
		return EXIT_FAILURE;
	}
	for (;;) {
		term_size(STDOUT_FILENO, &rows, &cols);
		l.visible = (size_t)(rows > HEADER_LINES + 3 ? rows - HEADER_LINES - 2 : 1);
		if (limit >= 0 && (size_t)limit < l.visible)
			l.visible = (size_t)limit;
		/* the rows scrolled past too, so the table's widths stay */
		req->limit = limit >= 0 ? (size_t)limit : l.scroll + l.visible;
		if (!l.paused) {
			fetch(&l);
			frames++;
		}
		draw(&l);
		if (iterations > 0 && frames >= iterations)
			break;
		next = monotonic_ns() + delay_ns;
		for (;;) {
			struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
			uint64_t now = monotonic_ns();
			int ch;
			bool refetch = false;

			if (stop_requested)
				goto out;
			if (resized) {
				resized = 0;
				break;
			}
			if (now >= next)
				break;
			if (l.n_keys == 0 &&
			    poll(&p, 1, (int)((next - now) / NS_PER_MSEC) + 1) <= 0)
				continue;
			ch = next_key(&l);
			if (ch < 0)
				continue;
			if (!key(&l, ch, &refetch))
				goto out;
			if (refetch)
				break;
			draw(&l);
		}
	}
out:
	term_raw_leave();
	if (l.have_view)
		top_view_done(&l.view);
	return EXIT_SUCCESS;
}
