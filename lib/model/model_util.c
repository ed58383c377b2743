/*
 * model_util.c - helpers the hardware models share (see model_util.h).
 */
#include "model_util.h"
#include "lib/clock.h"

#include <math.h>
#include <string.h>

static int column_index(const struct model_group *g, const char *column)
{
	unsigned i;

	for (i = 0; i < g->n_events; i++)
		if (strcmp(g->events[i].column, column) == 0)
			return (int)i;
	return -1;
}

uint64_t model_covered_ns(const struct group_sums *s)
{
	return s->covered_ns != 0 && s->covered_ns < s->task_clock_ns ? s->covered_ns :
	       s->task_clock_ns;
}

struct gview model_gview_get(const struct model *m, const struct group_sums *sums,
			     const char *group)
{
	struct gview v = { 0 };
	uint64_t total = model_total_task_clock(m, sums);
	int gi = model_group_index(m, group), ci;

	if (gi < 0)
		return v;
	v.g = &m->groups[gi];
	v.s = &sums[gi];
	ci = column_index(v.g, "cycles");
	if (!v.s->present || ci < 0 || v.s->v[ci] == 0)
		return v;
	v.cycles = (double)v.s->v[ci];
	v.coverage = total > 0 ? (double)model_covered_ns(v.s) / (double)total : 1.0;
	v.ok = true;
	return v;
}

double model_gv(const struct gview *v, const char *column)
{
	int ci;

	if (!v->ok)
		return NAN;
	ci = column_index(v->g, column);
	if (ci < 0 || (v->s->missing & (1u << ci)) != 0)
		return NAN;
	return (double)v->s->v[ci];
}

double model_gv_or(const struct gview *v, const char *column, double absent)
{
	if (v->ok && column_index(v->g, column) < 0)
		return absent;
	return model_gv(v, column);
}

double model_ratio(double a, double b)
{
	if (isnan(a) || isnan(b) || b == 0.0)
		return NAN;
	return a / b;
}

double model_clamp01(double x)
{
	if (isnan(x))
		return x;
	return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

void model_put(struct metric_value *out, double value, double coverage, bool core_scoped)
{
	if (!isfinite(value))
		return;
	out->valid = true;
	out->value = value;
	out->coverage = coverage;
	out->core_scoped = core_scoped;
}

double model_cov2(double a, double b)
{
	return a < b ? a : b;
}

void model_put_stage_range(struct metric_value *low, struct metric_value *high,
			   const struct metric_value *node, double other_stage, double coverage)
{
	double a, b, c;

	if (!node->valid || isnan(other_stage))
		return;
	a = node->value;
	b = model_clamp01(other_stage);
	c = model_cov2(node->coverage, coverage);
	model_put(low, a < b ? a : b, c, node->core_scoped);
	model_put(high, a < b ? b : a, c, node->core_scoped);
}

void model_split_parent(struct metric_value *a, struct metric_value *b,
			const struct metric_value *parent, double share, double coverage)
{
	if (!parent->valid || isnan(share))
		return;
	share = model_clamp01(share);
	coverage = model_cov2(parent->coverage, coverage);
	model_put(a, parent->value * share, coverage, parent->core_scoped);
	model_put(b, parent->value * (1.0 - share), coverage, parent->core_scoped);
}

bool model_base_counts(const struct model *m, const struct group_sums *sums, double *cycles,
		       double *instructions, double *coverage)
{
	double cyc = 0, ins = 0, t = 0;
	uint64_t total = model_total_task_clock(m, sums);
	unsigned g;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);
		double i = model_gv(&v, "instructions");

		if (!v.ok || isnan(i))
			continue;
		cyc += v.cycles;
		ins += i;
		t += (double)model_covered_ns(v.s);
	}
	if (!(ins > 0))
		return false;
	*cycles = cyc;
	*instructions = ins;
	*coverage = total > 0 ? t / (double)total : 1.0;
	return true;
}

void model_put_ipc_cpi(const struct model *m, const struct group_sums *sums,
		       struct metric_value *ipc, struct metric_value *cpi)
{
	double cyc, ins, cov;

	if (!model_base_counts(m, sums, &cyc, &ins, &cov))
		return;
	model_put(ipc, model_ratio(ins, cyc), cov, false);
	model_put(cpi, model_ratio(cyc, ins), cov, false);
}

static bool model_has_column(const struct model *m, const char *column)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++)
		if (column_index(&m->groups[g], column) >= 0)
			return true;
	return false;
}

/* The per-cycle rate of `column` from the first measured group that
 * counted it.  False only when no group of the model has the column (the
 * event does not exist here); a column the model has but no group counted
 * for this target gives a NaN rate, so what needs it stays invalid. */
static bool find_rate(const struct model *m, const struct group_sums *sums, const char *column,
		      double *rate, double *coverage)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);
		double c = model_gv(&v, column);

		if (!isnan(c)) {
			*rate = c / v.cycles;
			*coverage = v.coverage;
			return true;
		}
	}
	if (!model_has_column(m, column))
		return false;
	*rate = NAN;
	*coverage = 0.0;
	return true;
}

void model_frontend_delivery(const struct model *m, const struct group_sums *sums,
			     struct frontend_out *out)
{
	double dsb = NAN, mite = NAN, ms = NAN, lsd = 0.0, dsbc = NAN, mitec = NAN, r;
	double cd = 1, cm = 1, cs = 1, cl = 1, cdc = 1, cmc = 1, c;
	double all;

	memset(out, 0, sizeof(*out));
	/* Uops by source per cycle.  Within one group when the model put them
	 * together (then the shares are in-group ratios); the LSD is absent on
	 * parts without one (counted as 0), and its share then not offered. */
	(void)find_rate(m, sums, "dsb_uops", &dsb, &cd);
	(void)find_rate(m, sums, "mite_uops", &mite, &cm);
	(void)find_rate(m, sums, "ms_uops", &ms, &cs);
	if (!find_rate(m, sums, "lsd_uops", &lsd, &cl))
		lsd = 0.0;
	(void)find_rate(m, sums, "dsb_cycles", &dsbc, &cdc);
	(void)find_rate(m, sums, "mite_cycles", &mitec, &cmc);
	all = dsb + mite + ms + lsd;
	c = model_cov2(model_cov2(model_cov2(cd, cm), cs), cl);
	model_put(&out->dsb_coverage, model_ratio(dsb, all), c, false);
	model_put(&out->mite_share, model_ratio(mite, all), c, false);
	model_put(&out->ms_share, model_ratio(ms, all), c, false);
	if (model_metric_index(m, "lsd_share") >= 0 && model_has_column(m, "lsd_uops"))
		model_put(&out->lsd_share, model_ratio(lsd, all), c, false);
	/* The thesis's throughputs: P_only = uops per cycle the path was
	 * delivering, P_overall = uops per cycle of all cycles. */
	model_put(&out->dsb_p_only, model_ratio(dsb, dsbc), model_cov2(cd, cdc), false);
	model_put(&out->dsb_p_overall, dsb, cd, false);
	model_put(&out->mite_p_only, model_ratio(mite, mitec), model_cov2(cm, cmc), false);
	model_put(&out->mite_p_overall, mite, cm, false);
	if (find_rate(m, sums, "dsb2mite_penalty_cycles", &r, &c))
		model_put(&out->dsb_switch_fraction, r, c, false);
	if (find_rate(m, sums, "icache_stall_cycles", &r, &c))
		model_put(&out->icache_stall_fraction, r, c, false);
	if (find_rate(m, sums, "itlb_stall_cycles", &r, &c))
		model_put(&out->itlb_stall_fraction, r, c, false);
}

struct fp_width {
	const char *dp, *sp;
	double lanes_dp, lanes_sp;
};

static const struct fp_width widths[] = {
	{ "fp_scalar_dp", "fp_scalar_sp", 1, 1 },
	{ "fp_128_dp", "fp_128_sp", 2, 4 },
	{ "fp_256_dp", "fp_256_sp", 4, 8 },
	{ "fp_512_dp", "fp_512_sp", 8, 16 },
};

void model_flops_family(const struct model *m, const struct group_sums *sums, struct flops_out *out)
{
	double flop[4] = { 0 }, dp = 0, sp = 0, n_dp = 0, n_sp = 0, loss, total, fpc, peak;
	double max_dp = 0, max_sp = 0, rate, c, cov = 1.0, secs, cycles_per_s = NAN;
	bool any = false;
	unsigned w, g;

	memset(out, 0, sizeof(*out));
	if (m->peak_flop_dp == 0)
		return;
	for (w = 0; w < 4; w++) {
		double d, s, cd, cs;

		/* The widest vector the model counts sets the width loss, whether
		 * or not that group measured this target. */
		if (model_has_column(m, widths[w].dp))
			max_dp = widths[w].lanes_dp;
		if (model_has_column(m, widths[w].sp))
			max_sp = widths[w].lanes_sp;
		if (find_rate(m, sums, widths[w].dp, &d, &cd)) {
			flop[w] += d * widths[w].lanes_dp;
			dp += d * widths[w].lanes_dp;
			n_dp += d;
			cov = model_cov2(cov, cd);
			any = true;
		}
		if (find_rate(m, sums, widths[w].sp, &s, &cs)) {
			flop[w] += s * widths[w].lanes_sp;
			sp += s * widths[w].lanes_sp;
			n_sp += s;
			cov = model_cov2(cov, cs);
			any = true;
		}
	}
	/* Lanes the FP instructions left empty against the widest vector. */
	loss = max_dp * n_dp - dp + max_sp * n_sp - sp;
	if (!any && find_rate(m, sums, "flops", &rate, &c)) {
		/* One FLOP counter (AMD): no width or precision split. */
		flop[0] = rate;
		dp = rate;
		cov = c;
		any = true;
	}
	if (!any)
		return;
	total = flop[0] + flop[1] + flop[2] + flop[3];
	fpc = total;  /* every rate above is per cycle */
	model_put(&out->flops_per_cycle, fpc, cov, false);
	/* GFLOP/s of the target's CPU time: cycles per ns of the group that
	 * counted them (task_clock_ns is that group's time on the target). */
	for (g = 0; g < m->n_groups && isnan(cycles_per_s); g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);

		if (v.ok &&
		    (!isnan(model_gv(&v, "fp_scalar_dp")) || !isnan(model_gv(&v, "flops"))) &&
		    v.s->task_clock_ns > 0) {
			secs = (double)v.s->task_clock_ns / (double)NS_PER_SEC;
			cycles_per_s = v.cycles / secs;
		}
	}
	model_put(&out->gflops, fpc * cycles_per_s / 1e9, cov, false);
	/* Peak for the precision that dominates. */
	peak = dp >= sp ? m->peak_flop_dp : m->peak_flop_sp;
	model_put(&out->peak_fraction, fpc / peak, cov, false);
	if (total > 0) {
		model_put(&out->scalar_share, flop[0] / total, cov, false);
		model_put(&out->v128_share, flop[1] / total, cov, false);
		model_put(&out->v256_share, flop[2] / total, cov, false);
		model_put(&out->v512_share, flop[3] / total, cov, false);
		model_put(&out->dp_share, dp / total, cov, false);
	}
	model_put(&out->stack_base, model_clamp01(fpc / peak), cov, false);
	model_put(&out->stack_width_loss, model_clamp01(loss / peak), cov, false);
	model_put(&out->stack_other,
		  model_clamp01(1.0 - model_clamp01(fpc / peak) - model_clamp01(loss / peak)), cov,
		  false);
}
