/*
 * cpi_fit_label.c - see cpi_fit_label.h.
 */
#include "cli/cpi_fit_label.h"
#include "lib/clock.h"

#include <math.h>
#include <string.h>

/* 2400 -> "2,400". */
static void thousands(uint64_t n, char *buf, size_t len)
{
	char digits[32];
	size_t nd, i, o = 0;

	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n);
	nd = strlen(digits);
	for (i = 0; i < nd && o + 2 < len; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* "40 s", "3 min", "5 h", "2 d". */
static void ago(uint64_t then_ns, uint64_t now_ns, char *buf, size_t len)
{
	double s = now_ns > then_ns ? (double)(now_ns - then_ns) / (double)NS_PER_SEC : 0;

	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else if (s < 48 * 3600)
		snprintf(buf, len, "%.0f h", s / 3600);
	else
		snprintf(buf, len, "%.0f d", s / 86400);
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

bool cpi_fit_label(const json_t *fit, uint64_t now_ns, char *buf, size_t len)
{
	const char *label = json_string_value(json_object_get(fit, "label"));
	char rows[32], when[32], r2[16] = "n/a", held[16] = "n/a", procs[40] = "";

	buf[0] = '\0';
	if (!json_is_object(fit))
		return false;
	if (!json_is_true(json_object_get(fit, "fitted"))) {
		snprintf(buf, len, "%s", json_string_value(json_object_get(fit, "reason")) ?
			 json_string_value(json_object_get(fit, "reason")) : "no regression fit");
		return true;
	}
	thousands((uint64_t)num(fit, "rows"), rows, sizeof(rows));
	ago((uint64_t)json_integer_value(json_object_get(fit, "created_ns")), now_ns, when,
	    sizeof(when));
	/* null in the answer (nothing to compare with, nothing held out): n/a */
	if (isfinite(num(fit, "r2")))
		snprintf(r2, sizeof(r2), "%.2f", num(fit, "r2"));
	if (isfinite(num(fit, "held_out_error")))
		snprintf(held, sizeof(held), "%.1f%%", 100.0 * num(fit, "held_out_error"));
	/* processes: fits of method 2 on (CPI_FIT_VERSION); older answers lack it */
	if (isfinite(num(fit, "processes")))
		snprintf(procs, sizeof(procs), " of %.0f process%s", num(fit, "processes"),
			 num(fit, "processes") == 1 ? "" : "es");
	snprintf(buf, len, "%s: R² %s within processes on %s process-intervals%s, held-out "
		 "error %s, fitted %s ago", label != NULL ? label : "regression estimate", r2,
		 rows, procs, held, when);
	return true;
}

void cpi_fit_print(const json_t *fit, uint64_t now_ns, const char *indent, FILE *f)
{
	const json_t *d;
	char line[1024];
	size_t i;

	if (!cpi_fit_label(fit, now_ns, line, sizeof(line)))
		return;
	fprintf(f, "%s%s\n", indent, line);
	json_array_foreach(json_object_get(fit, "dropped"), i, d)
		fprintf(f, "%sdropped %s: %s\n", indent,
			json_string_value(json_object_get(d, "regressor")) ?
			json_string_value(json_object_get(d, "regressor")) : "?",
			json_string_value(json_object_get(d, "reason")) ?
			json_string_value(json_object_get(d, "reason")) : "");
}
