/* The one printer: the same rows as a table, JSON and CSV, with escaping,
 * NULLs, sorting and a row limit. */
#include "lib/rowset.h"
#include "test.h"

#include <pty.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static char *render(const struct rowset *rs, enum rs_format fmt, size_t limit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	rowset_print(rs, fmt, limit, f);
	fclose(f);
	return buf;
}

static char *render_styled(const struct rowset *rs, const struct rs_table_style *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	rowset_print_table(rs, st, f);
	fclose(f);
	return buf;
}

/* The live view's table: widths kept across frames (a column does not
 * narrow when its wide value goes), scrolling skips rows, colour only on
 * shares and only when asked, by size. */
static void styled_table(void)
{
	struct rs_widths widths = { .n = 0 };
	struct rs_table_style st = { .widths = &widths };
	struct rowset rs;
	char *a, *b;
	int n, share;

	rowset_init(&rs);
	n = rowset_add_column(&rs, "n", "N", RS_UNIT_COUNT);
	share = rowset_add_column(&rs, "share", "SHARE", RS_UNIT_FRACTION);
	CHECK(rowset_add_row(&rs) == 0 && rowset_add_row(&rs) == 1);
	rowset_set_int(&rs, 0, n, 123456789);
	rowset_set_double(&rs, 0, share, 0.6);
	rowset_set_int(&rs, 1, n, 2);
	rowset_set_double(&rs, 1, share, 0.1);
	a = render_styled(&rs, &st);
	rowset_set_int(&rs, 0, n, 1);   /* the next frame: narrower values */
	b = render_styled(&rs, &st);
	CHECK(strcmp(a, "     N  SHARE\n123.5M  60.0%\n     2  10.0%\n") == 0);
	CHECK(strcmp(b, "     N  SHARE\n     1  60.0%\n     2  10.0%\n") == 0);
	free(a);
	free(b);
	st = (struct rs_table_style){ .first_row = 1, .rows = 1, .color = true };
	a = render_styled(&rs, &st);   /* scrolled past row 0; 10% stays plain */
	CHECK(strcmp(a, "N  SHARE\n2  10.0%\n") == 0);
	free(a);
	st.first_row = 0;
	a = render_styled(&rs, &st);   /* 60%: red */
	CHECK(strstr(a, "\033[1;31m60.0%\033[0m") != NULL);
	free(a);
	rowset_done(&rs);
}

/* CSV of one text column through a pseudo-terminal (what the reader's
 * terminal receives) or a pipe (a file: the bytes as stored). */
static void csv_through(const struct rowset *rs, bool terminal, char *got, size_t len)
{
	int master, slave, fds[2];
	FILE *f;
	ssize_t n;

	if (terminal) {
		CHECK(openpty(&master, &slave, NULL, NULL, NULL) == 0);
		{
			struct termios t;

			CHECK(tcgetattr(slave, &t) == 0);
			cfmakeraw(&t);   /* bytes as written, no \n -> \r\n */
			CHECK(tcsetattr(slave, TCSANOW, &t) == 0);
		}
	} else {
		CHECK(pipe(fds) == 0);
		master = fds[0];
		slave = fds[1];
	}
	f = fdopen(slave, "w");
	CHECK(f != NULL);
	rowset_print(rs, RS_CSV, 0, f);
	fclose(f);
	/* all of it: a terminal hands it over in pieces, then EIO once the
	 * writer's side is closed */
	for (size_t used = 0;; used += (size_t)n) {
		n = read(master, got + used, len - 1 - used);
		if (n <= 0) {
			got[used] = '\0';
			break;
		}
	}
	CHECK(got[0] != '\0');
	close(master);
}

/* Another user's process name must not reach the reader's terminal as
 * escape sequences, nor a spreadsheet as a formula (OWASP: CSV
 * injection): the table already cleaned names, CSV did not. */
static void csv_untrusted_text(void)
{
	struct rowset rs;
	char got[512];
	int comm, n;

	rowset_init(&rs);
	comm = rowset_add_column(&rs, "comm", "COMM", RS_UNIT_NONE);
	n = rowset_add_column(&rs, "delta", "DELTA", RS_UNIT_COUNT);
	CHECK(rowset_add_row(&rs) == 0 && rowset_add_row(&rs) == 1 && rowset_add_row(&rs) == 2);
	CHECK(rowset_set_text(&rs, 0, comm, "esc\x1b[31mred") == 0);
	CHECK(rowset_set_text(&rs, 1, comm, "=HYPERLINK(\"http://x\")") == 0);
	CHECK(rowset_set_text(&rs, 2, comm, "-bash") == 0);
	rowset_set_int(&rs, 0, n, -5);
	rowset_set_int(&rs, 1, n, 1);
	rowset_set_int(&rs, 2, n, 2);
	csv_through(&rs, true, got, sizeof(got));
	CHECK_STR(got, "comm,delta\nesc?[31mred,-5\n\"'=HYPERLINK(\"\"http://x\"\")\",1\n"
		       "\"'-bash\",2\n");
	/* to a file: the name's bytes kept (nothing stored is lost), still
	 * no formula; a negative number stays a number */
	csv_through(&rs, false, got, sizeof(got));
	CHECK_STR(got, "comm,delta\nesc\x1b[31mred,-5\n\"'=HYPERLINK(\"\"http://x\"\")\",1\n"
		       "\"'-bash\",2\n");
	rowset_done(&rs);
}

int main(void)
{
	struct rowset rs;
	int pid, comm, tc, cov, row;
	char *out;

	styled_table();
	csv_untrusted_text();
	rowset_init(&rs);
	pid = rowset_add_column(&rs, "pid", "PID", RS_UNIT_NONE);
	comm = rowset_add_column(&rs, "comm", "COMM", RS_UNIT_NONE);
	tc = rowset_add_column(&rs, "task_clock_ns", "CPU-TIME", RS_UNIT_NS);
	cov = rowset_add_column(&rs, "faults_coverage", "COV", RS_UNIT_FRACTION);
	CHECK(pid == 0 && cov == 3);
	CHECK(rowset_find_column(&rs, "comm") == 1);
	CHECK(rowset_find_column(&rs, "nope") == -1);

	row = rowset_add_row(&rs);
	rowset_set_int(&rs, (size_t)row, pid, 1);
	CHECK(rowset_set_text(&rs, (size_t)row, comm, "a \"quoted\", name\n") == 0);
	rowset_set_int(&rs, (size_t)row, tc, 1500000);
	rowset_set_double(&rs, (size_t)row, cov, 0.5);
	row = rowset_add_row(&rs);
	rowset_set_int(&rs, (size_t)row, pid, 2);
	CHECK(rowset_set_text(&rs, (size_t)row, comm, "busy") == 0);
	rowset_set_int(&rs, (size_t)row, tc, 2500000000LL);
	/* coverage left NULL */

	rowset_sort(&rs, tc);
	out = render(&rs, RS_JSON, 0);
	CHECK_STR(out, "[\n  {\"pid\": 2, \"comm\": \"busy\", \"task_clock_ns\": 2500000000, "
		  "\"faults_coverage\": null},\n  {\"pid\": 1, \"comm\": \"a \\\"quoted\\\", name\\n\", "
		  "\"task_clock_ns\": 1500000, \"faults_coverage\": 0.5}\n]\n");
	free(out);
	out = render(&rs, RS_CSV, 0);
	CHECK_STR(out, "pid,comm,task_clock_ns,faults_coverage\n2,busy,2500000000,\n"
		  "1,\"a \"\"quoted\"\", name\n\",1500000,0.5\n");
	free(out);
	out = render(&rs, RS_TABLE, 1);
	CHECK_STR(out, "PID  COMM  CPU-TIME  COV\n  2  busy     2.50s    -\n");
	free(out);
	rowset_sort(&rs, cov);   /* NULLs last */
	out = render(&rs, RS_CSV, 1);
	CHECK(strstr(out, "\n1,") != NULL);
	free(out);
	rowset_sort(&rs, comm);   /* text: alphabetical */
	out = render(&rs, RS_CSV, 1);
	CHECK(strstr(out, "\n1,") != NULL);
	free(out);
	rowset_hide_in_table(&rs, cov);
	out = render(&rs, RS_TABLE, 0);
	CHECK(strstr(out, "COV") == NULL);
	free(out);
	rowset_done(&rs);

	rowset_init(&rs);
	CHECK(rowset_add_column(&rs, "x", NULL, RS_UNIT_NONE) == 0);
	out = render(&rs, RS_JSON, 0);
	CHECK_STR(out, "[]\n");
	free(out);
	rowset_done(&rs);
	/* counts as people read them: no scientific notation below 10k */
	{
		static const struct { double v; const char *want; } cases[] = {
			{ 1450.4, "1450" }, { 12.345, "12.3" }, { 0.5, "0.5" }, { 123456.0, "123.5k" },
			{ 2.5e9, "2.5G" },
		};
		char buf[32];
		size_t i;
		int c;

		rowset_init(&rs);
		c = rowset_add_column(&rs, "x", "X", RS_UNIT_COUNT);
		CHECK(rowset_add_row(&rs) == 0);
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			rowset_set_double(&rs, 0, c, cases[i].v);
			rowset_format_cell(&rs, 0, c, buf, sizeof(buf));
			CHECK_STR(buf, cases[i].want);
		}
		rowset_done(&rs);
	}
	return 0;
}
