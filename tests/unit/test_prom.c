/*
 * /metrics bookkeeping: counters add up across intervals, exited processes
 * leave the per-process family (and the index is rebuilt so the others keep
 * their counts), names beyond max_keys add up under "[other]", and only the
 * top-N processes of the last interval are printed; labels are valid UTF-8
 * whatever bytes a name holds.
 */
#include "prom.h"
#include "lib/utf8.h"
#include "test.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

static void interval(struct interval_data *iv, struct iv_proc *procs, size_t n,
		     struct iv_row *rows)
{
	size_t i;

	memset(iv, 0, sizeof(*iv));
	iv->procs = procs;
	iv->n_procs = n;
	iv->rows = rows;
	iv->n_rows = n;
	for (i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].proc = (uint32_t)i;
		rows[i].task_clock_ns = 1000000000ULL * (i + 1);   /* 1 s, 2 s, 3 s */
		rows[i].context_switches = 10;
		rows[i].v[0] = 5;
	}
}

/* jansson's strict check (no surrogates, nothing past U+10FFFF). */
static int valid_utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

static char *render(struct prom *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	prom_render(p, NULL, true, f);
	fclose(f);
	return buf;
}

int main(void)
{
	static char unit[] = "a.service";
	struct iv_proc procs[3] = {
		{ .pid = 10, .start_ns = 1000, .comm = "alpha", .unit = unit },
		{ .pid = 11, .start_ns = 2000, .comm = "beta" },
		{ .pid = 12, .start_ns = 3000, .comm = "gamma" },
	};
	struct iv_row rows[3];
	struct interval_data iv;
	struct prom *p;
	char *text;

	CHECK(prom_new(&model_software, NULL, 2, 2, &p) == 0);
	interval(&iv, procs, 3, rows);
	prom_add_interval(p, &iv);
	procs[0].exit_ns = 5;   /* alpha exits during the second interval */
	prom_add_interval(p, &iv);
	interval(&iv, procs + 1, 2, rows);   /* beta 1 s, gamma 2 s */
	prom_add_interval(p, &iv);
	text = render(p);
	/* per comm: alpha 2 x 1 s; beta 2 x 2 s + 1 s; gamma ("[other]": max 2 names) 2 x 3 s + 2 s */
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"alpha\"} 2.000000000\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"beta\"} 5.000000000\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[other]\"} 8.000000000\n") != NULL);
	CHECK(strstr(text, "stackd_unit_cpu_seconds_total{unit=\"a.service\"} 2.000000000\n") != NULL);
	/* per process: alpha pruned; beta and gamma kept their totals across the rebuild */
	CHECK(strstr(text, "pid=\"10\"") == NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"11\",comm=\"beta\"} 5.000000000\n") != NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"12\",comm=\"gamma\"} 8.000000000\n") != NULL);
	CHECK(strstr(text, "stackd_intervals_total 3\n") != NULL);
	free(text);
	prom_free(p);

	/* top-N: only the busiest of the last interval */
	CHECK(prom_new(&model_software, NULL, 10, 1, &p) == 0);
	interval(&iv, procs, 3, rows);
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(strstr(text, "pid=\"12\"") != NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"11\"") == NULL);
	free(text);
	prom_free(p);

	/* names of any bytes: labels stay valid UTF-8, escaped as the format asks */
	CHECK(prom_new(&model_software, NULL, 10, 10, &p) == 0);
	snprintf(procs[0].comm, sizeof(procs[0].comm), "%s",
		 "\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81\xd0");
	snprintf(procs[1].comm, sizeof(procs[1].comm), "%s", "\xff\"q\\\n\xed\xa0\x80");
	procs[0].unit = NULL;
	interval(&iv, procs, 2, rows);
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(valid_utf8(text));
	CHECK(strstr(text, "{comm=\"\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81"
		      UTF8_REPLACEMENT "\"} ") != NULL);
	CHECK(strstr(text, ",comm=\"" UTF8_REPLACEMENT "\\\"q\\\\\\n" UTF8_REPLACEMENT
		      UTF8_REPLACEMENT UTF8_REPLACEMENT "\"} ") != NULL);
	free(text);
	prom_free(p);
	return 0;
}
