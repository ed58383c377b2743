/*
 * api_health.c - the window's health as the answers print it (api_out.h):
 * the window, each counter family's coverage, the collector's losses, the
 * share of the CPU time attributed and the sampling mode, so that /top and
 * /system say them alike; and what the window holds that was recorded under
 * another formula version or model.
 */
#include "lib/api_out.h"
#include "lib/sampling_mode.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void api_print_window_health(struct jsonw *j, const struct window *w)
{
	double cpu_span = (double)(w->to_ns - w->from_ns) * (double)(w->ncpus ? w->ncpus : 1);
	unsigned g;

	jsonw_key(j, "window");
	jsonw_object_begin(j);
	jsonw_field_uint(j, "from_ns", w->from_ns);
	jsonw_field_uint(j, "to_ns", w->to_ns);
	jsonw_field_uint(j, "intervals", w->n_intervals);
	jsonw_field_uint(j, "ncpus", w->ncpus);
	jsonw_field_uint(j, "resolution_s", w->resolution_s);
	jsonw_field_uint(j, "asked_ns", w->asked_ns);
	jsonw_object_end(j);
	jsonw_break(j, 1);
	jsonw_key(j, "groups");
	jsonw_array_begin(j);
	for (g = 0; g < w->n_groups; g++) {
		jsonw_object_begin(j);
		jsonw_field_string(j, "name", w->groups[g].name);
		jsonw_field_uint(j, "enabled_ns", w->groups[g].enabled_ns);
		jsonw_field_double(j, "coverage", cpu_span > 0 ?
				   (double)w->groups[g].enabled_ns / cpu_span : NAN);
		/* found in error state (counters taken) and benched, summed over CPUs */
		jsonw_field_uint(j, "unschedulable", w->groups[g].unschedulable);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_break(j, 1);
	/* every health field (lib/health_fields.h), then where the max rate was */
	jsonw_key(j, "collector");
	jsonw_object_begin(j);
#define PRINT_FIELD(name, ...) jsonw_field_uint(j, #name, w->name);
	HEALTH_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
	jsonw_field_int(j, "busiest_cpu", w->busiest_cpu);
	jsonw_object_end(j);
	api_print_attribution(j, w);
	api_print_sampling_mode(j, &w->split);
}

void api_print_attribution(struct jsonw *j, const struct window *w)
{
	const struct cpu_split *split = &w->split;
	double cpu = cpu_split_attributed_cpu(split), sw = cpu_split_attributed_switches(split);

	jsonw_break(j, 1);
	jsonw_key(j, "attribution");
	jsonw_object_begin(j);
	jsonw_field_double(j, "cpu_share", cpu);
	jsonw_field_double(j, "switch_share", sw);
	jsonw_field_uint(j, "busy_cpu_ns",
			 split->cpu_ns > split->idle_ns ? split->cpu_ns - split->idle_ns : 0);
	jsonw_field_uint(j, "idle_cpu_ns", split->idle_ns);
	jsonw_field_uint(j, "unattributed_cpu_ns", split->unattributed_ns);
	jsonw_field_double(j, "warn_below", ATTRIBUTED_WARN_BELOW);
	jsonw_field_bool(j, "low", cpu_split_low(split));
	jsonw_object_end(j);
}

void api_print_sampling_mode(struct jsonw *j, const struct cpu_split *split)
{
	double share = cpu_split_periodic_share(split);
	char text[SAMPLING_MODE_TEXT_MAX];

	jsonw_break(j, 1);
	jsonw_key(j, "sampling_mode");
	jsonw_object_begin(j);
	jsonw_field_string(j, "mode", sampling_mode_name(sampling_mode_of(share)));
	jsonw_field_double(j, "periodic_share", share);
	jsonw_field_uint(j, "periodic_ns", split->periodic_ns);
	jsonw_field_uint(j, "cpu_ns", split->cpu_ns);
	jsonw_field_string(j, "text", sampling_mode_describe(share, text, sizeof(text)));
	jsonw_object_end(j);
}

void api_print_recorded_under(struct jsonw *j, const struct recorded_under *r, unsigned n)
{
	unsigned i;

	jsonw_break(j, 1);
	jsonw_key(j, "recorded_under");
	jsonw_array_begin(j);
	for (i = 0; i < n; i++) {
		const char *p = r[i].missing;

		jsonw_object_begin(j);
		jsonw_field_string(j, "model", r[i].model);
		jsonw_field_uint(j, "formula_version", r[i].formula_version);
		jsonw_field_uint(j, "intervals", r[i].intervals);
		jsonw_field_bool(j, "recomputed", r[i].recomputed);
		jsonw_key(j, "missing_events");
		jsonw_array_begin(j);
		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			char column[sizeof(r[i].missing)];

			snprintf(column, sizeof(column), "%.*s", (int)len, p);
			jsonw_string(j, column);
			p += len + (p[len] == ',');
		}
		jsonw_array_end(j);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
}
