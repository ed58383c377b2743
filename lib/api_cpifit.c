/*
 * api_cpifit.c - "cpi_fit" in the answers that carry the regression CPI
 * stack (docs/api.md): the label, the fit's quality and window, or why
 * there is no fit.  Absent for models without the stack.
 */
#include "lib/api_out.h"

#include <math.h>
#include <string.h>

/* The fit's label wherever its stack is shown: the stack is estimated
 * from penalties fitted across the host's processes, not measured. */
#define CPI_FIT_LABEL "regression estimate"

static void print_dropped(struct jsonw *j, const char *text)
{
	const char *line = text;

	jsonw_key(j, "dropped");
	jsonw_array_begin(j);
	while (*line != '\0') {
		const char *end = strchr(line, '\n'), *colon;
		size_t n = end != NULL ? (size_t)(end - line) : strlen(line);
		char buf[512];

		snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
		colon = strstr(buf, ": ");
		jsonw_object_begin(j);
		if (colon != NULL) {
			buf[colon - buf] = '\0';
			jsonw_field_string(j, "regressor", buf);
			jsonw_field_string(j, "reason", colon + 2);
		} else {
			jsonw_field_string(j, "reason", buf);
		}
		jsonw_object_end(j);
		line += n + (end != NULL);
	}
	jsonw_array_end(j);
}

static void print_weights(struct jsonw *j, const struct model *m, const char *key,
			  const double *w)
{
	unsigned k;

	jsonw_key(j, key);
	jsonw_object_begin(j);
	jsonw_field_double(j, "base", w[0]);   /* errors: null (each process has its own) */
	for (k = 0; k < CPI_REGRESSORS; k++) {
		jsonw_key(j, model_generic_regressor(m, k));
		if (isnan(w[k + 1]))
			jsonw_null(j);   /* dropped: see "dropped" */
		else
			jsonw_double(j, w[k + 1]);
	}
	jsonw_object_end(j);
}

void api_print_cpi_fit(struct jsonw *j, const struct model *m, const struct query_cpi_fit *f)
{
	if (m == NULL || !f->generic)
		return;
	jsonw_break(j, 1);
	jsonw_key(j, "cpi_fit");
	jsonw_object_begin(j);
	jsonw_field_string(j, "label", CPI_FIT_LABEL);
	jsonw_field_bool(j, "fitted", f->fitted);
	if (!f->fitted) {
		jsonw_field_string(j, "reason", f->reason);
		jsonw_object_end(j);
		return;
	}
	jsonw_field_double(j, "r2", f->r2);
	jsonw_field_double(j, "held_out_error", f->held_error);
	jsonw_field_uint(j, "rows", f->rows);
	jsonw_field_uint(j, "train_rows", f->train_rows);
	jsonw_field_uint(j, "held_rows", f->held_rows);
	jsonw_field_uint(j, "processes", f->processes);
	jsonw_field_uint(j, "held_processes", f->held_processes);
	jsonw_field_double(j, "condition", f->condition);
	jsonw_field_uint(j, "fit_version", f->fit_version);
	jsonw_field_uint(j, "created_ns", f->created_ns);
	jsonw_key(j, "window");
	jsonw_object_begin(j);
	jsonw_field_uint(j, "from_ns", f->from_ns);
	jsonw_field_uint(j, "to_ns", f->to_ns);
	jsonw_object_end(j);
	print_weights(j, m, "weights", f->weights);
	print_weights(j, m, "errors", f->errors);
	print_dropped(j, f->dropped);
	jsonw_object_end(j);
}
