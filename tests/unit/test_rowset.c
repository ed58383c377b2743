/* The one printer: the same rows as a table, JSON and CSV, with escaping,
 * NULLs, sorting and a row limit. */
#include "lib/rowset.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	struct rowset rs;
	int pid, comm, tc, cov, row;
	char *out;

	styled_table();
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
