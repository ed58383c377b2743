/*
 * model_sanity.c - the checks of model_sanity.h.  The limits are physical
 * facts, not our formulas: a share is 0..1; a node's children are parts
 * of it; Intel's FP_ARITH_INST_RETIRED.* counts each FMA twice (Intel SDM
 * vol. 3B, "FP_ARITH_INST_RETIRED": "FM(N)ADD/SUB instructions count
 * twice"), so a core with k FMA units retires at most 2k counts a cycle.
 */
#include "lib/model/model_sanity.h"
#include "lib/model/model_perf.h"
#include "lib/model/model_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Intel's FP_ARITH columns: every FP instruction but half precision. */
static const char *const fp_arith[] = {
	"fp_scalar_dp", "fp_scalar_sp", "fp_128_dp", "fp_128_sp",
	"fp_256_dp", "fp_256_sp", "fp_512_dp", "fp_512_sp",
};

/* FP_ARITH counts per cycle, each column over its own group's cycles;
 * NaN where the model has none counted. */
static double fp_counts_per_cycle(const struct model *m, const struct group_sums *sums)
{
	double total = NAN;
	unsigned g, c;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);

		for (c = 0; v.ok && c < sizeof(fp_arith) / sizeof(fp_arith[0]); c++) {
			double r = model_ratio(model_gv(&v, fp_arith[c]), v.cycles);

			if (!isnan(r))
				total = (isnan(total) ? 0.0 : total) + r;
		}
	}
	return total;
}

/* At most 2 counts a cycle per FMA unit (the units: model.h's
 * peak_flop_dp / (2 x peak_vector_bits / 64)); 0 when unknown. */
static double fp_counts_max(const struct model *m)
{
	if (m->peak_vector_bits == 0 || m->peak_flop_dp == 0)
		return 0.0;
	return 2.0 * (double)m->peak_flop_dp / (2.0 * (double)m->peak_vector_bits / 64.0);
}

/* FP_ARITH counts per cycle: each family's count over its own cycles, the
 * two FP families compared over different stretches; 1% allows for that. */
#define SANITY_FP_SLACK 0.01

static bool is_overlap(const struct model_metric *mm)
{
	size_t n = strlen(mm->name);

	return n >= 8 && strcmp(mm->name + n - 8, "_overlap") == 0;
}

/* The sum of k's valid children (0 with none), how many. */
static double children_sum(const struct model *m, const struct metric_value *mv, unsigned k,
			   unsigned *n)
{
	double sum = 0.0;
	unsigned c;

	*n = 0;
	for (c = 0; c < m->n_metrics; c++)
		if (m->metrics[c].parent != NULL && mv[c].valid && !isnan(mv[c].value) &&
		    strcmp(m->metrics[c].parent, m->metrics[k].name) == 0) {
			sum += mv[c].value;
			(*n)++;
		}
	return sum;
}

static bool children_above(const struct model *m, const struct metric_value *mv, unsigned k)
{
	unsigned n;
	double sum = children_sum(m, mv, k, &n), p = mv[k].value;

	if (n == 0)
		return false;
	/* a share: slack in its unit; a ratio (CPI): slack of its value */
	return m->metrics[k].unit == METRIC_FRACTION ? sum > p + SANITY_SLACK
						      : sum > p * (1.0 + SANITY_SLACK) + 1e-9;
}

void model_sanity(const struct model *m, const struct group_sums *sums,
		  const struct metric_value *mv, unsigned *flags)
{
	unsigned perf = model_perf_first(m), k;
	double fp = fp_counts_per_cycle(m, sums), fp_max = fp_counts_max(m);

	for (k = 0; k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];
		double v = mv[k].value;

		flags[k] = 0;
		if (!mv[k].valid || isnan(v))
			continue;
		if (mm->unit == METRIC_FRACTION && k < perf && !is_overlap(mm) &&
		    (v < -SANITY_SLACK || v > 1.0 + SANITY_SLACK))
			flags[k] |= SANITY_RANGE;
		if (children_above(m, mv, k))
			flags[k] |= SANITY_CHILDREN;
		if (fp_max > 0 && fp > fp_max * (1.0 + SANITY_FP_SLACK) &&
		    (strcmp(mm->name, "flops_per_cycle") == 0 ||
		     strcmp(mm->name, "flop_peak_fraction") == 0 ||
		     strcmp(mm->name, "flops_base") == 0))
			flags[k] |= SANITY_FP_PORTS;
	}
}

void model_sanity_text(const struct model *m, const struct group_sums *sums,
		       const struct metric_value *mv, unsigned k, unsigned flag, char *buf,
		       size_t len)
{
	const struct model_metric *mm = &m->metrics[k];
	unsigned n;

	switch (flag) {
	case SANITY_RANGE:
		snprintf(buf, len, "impossible: a share of %.1f%%, outside 0..100%% beyond "
			 "multiplexing error", 100.0 * mv[k].value);
		return;
	case SANITY_CHILDREN: {
		double sum = children_sum(m, mv, k, &n);

		if (mm->unit == METRIC_FRACTION)
			snprintf(buf, len, "impossible: its children sum to %.1f%%, above its "
				 "%.1f%%", 100.0 * sum, 100.0 * mv[k].value);
		else
			snprintf(buf, len, "impossible: its children sum to %.3g, above its %.3g",
				 sum, mv[k].value);
		return;
	}
	case SANITY_FP_PORTS:
		snprintf(buf, len, "impossible: %.2f FP instructions retired per cycle (FMA "
			 "counted twice), above the %.0f the core's %.0f FMA units can retire",
			 fp_counts_per_cycle(m, sums), fp_counts_max(m), fp_counts_max(m) / 2.0);
		return;
	}
	snprintf(buf, len, "flagged");
}

unsigned model_sanity_line(const struct model *m, const struct group_sums *sums,
			   const struct metric_value *mv, char *buf, size_t len)
{
	unsigned flags[MODEL_MAX_METRICS], k, bit, n = 0;
	size_t used = 0;
	char text[256];

	if (len > 0)
		buf[0] = '\0';
	model_sanity(m, sums, mv, flags);
	for (k = 0; k < m->n_metrics; k++)
		for (bit = 1; bit <= SANITY_FP_PORTS; bit <<= 1) {
			int w;

			if (!(flags[k] & bit))
				continue;
			model_sanity_text(m, sums, mv, k, bit, text, sizeof(text));
			w = snprintf(buf + used, len - used, "%s%s: %s", n ? "; " : "",
				     m->metrics[k].name, text);
			n++;
			if (w < 0 || (size_t)w >= len - used)
				return n;
			used += (size_t)w;
		}
	return n;
}
