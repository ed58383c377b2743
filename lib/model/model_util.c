/*
 * model_util.c - helpers the hardware models share (see model_util.h).
 */
#include "lib/model/model_util.h"
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

void model_put_stage_bounds(struct metric_value *low, struct metric_value *high,
			    const struct metric_value *earlier, const struct metric_value *later,
			    bool shrinks)
{
	double e, l, c;

	if (!earlier->valid)
		return;
	e = earlier->value;
	if (!later->valid) {
		model_put(shrinks ? high : low, e, earlier->coverage, earlier->core_scoped);
		return;
	}
	l = later->value;
	c = model_cov2(earlier->coverage, later->coverage);
	model_put(low, l < e ? l : e, c, earlier->core_scoped);
	model_put(high, l > e ? l : e, c, earlier->core_scoped);
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

/* The thesis's P_only (eq. 3.4, 3.8): uops over the cycles the path was
 * delivering, both from the first group that has both columns, so a
 * count is never divided by another group's.  Not offered when the path
 * delivered in fewer than FE_P_ONLY_MIN_CYCLES of the cycles: with the
 * path all but idle its few counts are residue (the thesis, section
 * 3.2.1, case 2: "an unreliable value"). */
static void put_p_only(const struct model *m, const struct group_sums *sums, const char *uops,
		       const char *cycles, struct metric_value *out)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v;
		double u, c;

		if (column_index(&m->groups[g], uops) < 0 ||
		    column_index(&m->groups[g], cycles) < 0)
			continue;
		v = model_gview_get(m, sums, m->groups[g].name);
		u = model_gv(&v, uops);
		c = model_gv(&v, cycles);
		if (!isnan(c) && c >= FE_P_ONLY_MIN_CYCLES * v.cycles)
			model_put(out, model_ratio(u, c), v.coverage, false);
		return;
	}
}

/* The thesis's eq. 3.2, Cycles = MITE + DSB + MSROM cycles + FE stalls,
 * with the LSD where the model has one and the DSB-to-MITE switch's true
 * penalty cycles (Intel: no uop delivered then) taken out of the stalls;
 * the rest is every cycle no path delivered (fetch stalls, and a full IDQ
 * behind a stalled backend, which the thesis's micro-benchmarks had not).
 * Per-cycle rates, each from the group that counts it.  A part the model
 * has but did not count leaves the rest invalid (never taken as 0); a
 * path the model lacks (the LSD before Ice Lake) is no part.  Where the
 * parts exceed the cycles (paths counted in one cycle twice, or parts
 * from different times), the rest is 0 and the excess overlap. */
static void fe_cycle_split(const struct model *m, const struct group_sums *sums,
			   struct frontend_out *out)
{
	static const char *const col[FE_CYC_NONE] = { "dsb_cycles", "mite_cycles", "ms_cycles",
						      "lsd_cycles", "dsb2mite_penalty_cycles" };
	double r, c, sum = 0.0, cov = 1.0;
	bool whole = true;
	unsigned i;

	if (!model_has_column(m, "ms_cycles"))
		return;   /* no MS cycles: not the thesis's decomposition */
	for (i = 0; i < FE_CYC_NONE; i++) {
		if (!find_rate(m, sums, col[i], &r, &c))
			continue;
		if (isnan(r)) {
			whole = false;
			continue;
		}
		model_put(&out->cyc[i], r, c, false);
		sum += r;
		cov = model_cov2(cov, c);
	}
	if (!whole)
		return;
	model_put(&out->cyc[FE_CYC_NONE], sum < 1.0 ? 1.0 - sum : 0.0, cov, false);
	if (sum > 1.0)
		model_put(&out->cyc[FE_CYC_OVERLAP], 1.0 - sum, cov, false);
}

void model_frontend_delivery(const struct model *m, const struct group_sums *sums,
			     struct frontend_out *out)
{
	double dsb = NAN, mite = NAN, ms = NAN, lsd = 0.0, r;
	double cd = 1, cm = 1, cs = 1, cl = 1, c;
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
	all = dsb + mite + ms + lsd;
	c = model_cov2(model_cov2(model_cov2(cd, cm), cs), cl);
	model_put(&out->dsb_coverage, model_ratio(dsb, all), c, false);
	model_put(&out->mite_share, model_ratio(mite, all), c, false);
	model_put(&out->ms_share, model_ratio(ms, all), c, false);
	if (model_metric_index(m, "lsd_share") >= 0 && model_has_column(m, "lsd_uops"))
		model_put(&out->lsd_share, model_ratio(lsd, all), c, false);
	/* The thesis's throughputs: P_only = uops per cycle the path was
	 * delivering, P_overall = uops per cycle of all cycles, of one path
	 * (eq. 3.3, 3.7) and of all (eq. 3.5: the uops the frontend
	 * delivered, every path, per cycle). */
	put_p_only(m, sums, "dsb_uops", "dsb_cycles", &out->dsb_p_only);
	model_put(&out->dsb_p_overall, dsb, cd, false);
	put_p_only(m, sums, "mite_uops", "mite_cycles", &out->mite_p_only);
	model_put(&out->mite_p_overall, mite, cm, false);
	model_put(&out->p_overall, all, c, false);
	if (find_rate(m, sums, "dsb2mite_penalty_cycles", &r, &c))
		model_put(&out->dsb_switch_fraction, r, c, false);
	if (find_rate(m, sums, "icache_stall_cycles", &r, &c))
		model_put(&out->icache_stall_fraction, r, c, false);
	if (find_rate(m, sums, "itlb_stall_cycles", &r, &c))
		model_put(&out->itlb_stall_fraction, r, c, false);
	fe_cycle_split(m, sums, out);
}

struct fp_width {
	const char *dp, *sp, *hp;
	double lanes_dp, lanes_sp, lanes_hp;
};

/* FLOPs per instruction of each width and precision, as perf's FLOPc
 * weighs them (an FMA counts twice in the event itself).  Half precision
 * is Sapphire Rapids' FP_ARITH_INST_RETIRED2 (its complex scalar form,
 * fp_complex_hp, is 2 FLOPs and is added to the scalar width). */
static const struct fp_width widths[] = {
	{ "fp_scalar_dp", "fp_scalar_sp", "fp_scalar_hp", 1, 1, 1 },
	{ "fp_128_dp", "fp_128_sp", "fp_128_hp", 2, 4, 8 },
	{ "fp_256_dp", "fp_256_sp", "fp_256_hp", 4, 8, 16 },
	{ "fp_512_dp", "fp_512_sp", "fp_512_hp", 8, 16, 32 },
};

/* perf's weight of AMX_OPS_RETIRED.BF16 ("SW to use operation multiplier
 * of 4", Intel's event description; perf 6.1's SPR FLOPc). */
#define AMX_FLOP_PER_COUNT 4.0

double model_flop_weight(const char *column)
{
	unsigned w;

	for (w = 0; w < 4; w++) {
		if (strcmp(column, widths[w].dp) == 0)
			return widths[w].lanes_dp;
		if (strcmp(column, widths[w].sp) == 0)
			return widths[w].lanes_sp;
		if (strcmp(column, widths[w].hp) == 0)
			return widths[w].lanes_hp;
	}
	if (strcmp(column, "fp_complex_hp") == 0)
		return 2.0;
	if (strcmp(column, "amx_bf16") == 0)
		return AMX_FLOP_PER_COUNT;
	return 0;
}

/* FLOPs per cycle by width and precision, and the lanes the FP
 * instructions left empty against the core's peak width, as a share of
 * each precision's peak (summed). */
struct fp_rates {
	/* any: FLOPs whose precision the counter does not tell (AMD, Arm) */
	double flop[4], dp, sp, hp, amx, any_precision, width_loss, cov;
	bool any;
};

/* Column's count per cycle into *rate; true when the model has it. */
static bool fp_rate(const struct model *m, const struct group_sums *sums, const char *column,
		    double *rate, struct fp_rates *r)
{
	double c;

	if (!find_rate(m, sums, column, rate, &c))
		return false;
	r->cov = model_cov2(r->cov, c);
	r->any = true;
	return true;
}

/* Paper Table III line 7, mask_comp = n (v - m) / (k v), in FLOPs: each
 * count (an FMA counts two) of an instruction `lanes` wide leaves
 * (peak lanes - lanes) lanes of a peak-width FMA empty, over the
 * precision's peak.  Exact for FMA code; non-FMA code counts once, so half
 * of the paper's term (the other half stays unexplained). */
static double width_lost(const struct model *m, double rate, double lanes, double lane_bits,
			 unsigned peak)
{
	double peak_lanes = (double)m->peak_vector_bits / lane_bits;

	if (peak == 0 || !(lanes < peak_lanes))
		return 0.0;
	return rate * (peak_lanes - lanes) / (double)peak;
}

static void read_fp_rates(const struct model *m, const struct group_sums *sums,
			  struct fp_rates *r)
{
	double v;
	unsigned w;

	memset(r, 0, sizeof(*r));
	r->cov = 1.0;
	for (w = 0; w < 4; w++) {
		if (fp_rate(m, sums, widths[w].dp, &v, r)) {
			r->flop[w] += v * widths[w].lanes_dp;
			r->dp += v * widths[w].lanes_dp;
			r->width_loss += width_lost(m, v, widths[w].lanes_dp, 64, m->peak_flop_dp);
		}
		if (fp_rate(m, sums, widths[w].sp, &v, r)) {
			r->flop[w] += v * widths[w].lanes_sp;
			r->sp += v * widths[w].lanes_sp;
			r->width_loss += width_lost(m, v, widths[w].lanes_sp, 32, m->peak_flop_sp);
		}
		if (fp_rate(m, sums, widths[w].hp, &v, r)) {
			r->flop[w] += v * widths[w].lanes_hp;
			r->hp += v * widths[w].lanes_hp;
			r->width_loss += width_lost(m, v, widths[w].lanes_hp, 16, m->peak_flop_hp);
		}
	}
	if (fp_rate(m, sums, "fp_complex_hp", &v, r)) {
		r->flop[0] += 2.0 * v;
		r->hp += 2.0 * v;
		r->width_loss += width_lost(m, v, 1, 16, m->peak_flop_hp);
	}
	if (fp_rate(m, sums, "amx_bf16", &v, r))
		r->amx = v * AMX_FLOP_PER_COUNT;
	if (!r->any && fp_rate(m, sums, "flops", &v, r)) {
		/* One FLOP counter (AMD): no width or precision split, and
		 * no width loss. */
		r->flop[0] = v;
		r->any_precision = v;
		r->width_loss = NAN;
	}
}

/* The share of the core's peak the FLOPs per core clock fpc_* reach: each
 * precision against its own peak (a single-precision kernel at the
 * single-precision peak is 100%, not 200%), summed.  FLOPs of a counter
 * that does not tell the precision are taken against the highest peak
 * they could be of (single precision), so a real run never reads over
 * 100%: a lower bound, a double-precision kernel at its peak reads half. */
double model_peak_any_precision(const struct model *m)
{
	return (double)(m->peak_flop_sp > m->peak_flop_dp ? m->peak_flop_sp : m->peak_flop_dp);
}

static double peak_share(const struct model *m, const struct fp_rates *r, double per_core)
{
	double share = model_ratio(r->dp * per_core, (double)m->peak_flop_dp) +
		       model_ratio(r->sp * per_core, (double)m->peak_flop_sp);

	if (r->any_precision > 0)
		share += model_ratio(r->any_precision * per_core, model_peak_any_precision(m));

	if (m->peak_flop_hp > 0)
		share += model_ratio(r->hp * per_core, (double)m->peak_flop_hp);
	if (m->peak_flop_amx > 0)
		share += model_ratio(r->amx * per_core, (double)m->peak_flop_amx);
	return share;
}

void model_put_stack(struct metric_value *const part[], const double *value, unsigned n,
		     double coverage)
{
	double left = 1.0;
	unsigned i;

	for (i = 0; i + 1 < n; i++) {
		double v = value[i];

		if (isnan(v))
			continue;
		v = v < 0.0 ? 0.0 : v > left ? left : v;
		model_put(part[i], v, coverage, false);
		left -= v;
	}
	model_put(part[n - 1], left, coverage, false);
}

void model_put_stack_overlap(struct metric_value *const part[], const double *value,
			     unsigned n, double coverage, struct metric_value *overlap)
{
	double sum = 0.0;
	unsigned i;

	for (i = 0; i + 1 < n; i++) {
		double v = value[i];

		if (isnan(v))
			continue;
		v = v < 0.0 ? 0.0 : v;
		model_put(part[i], v, coverage, false);
		sum += v;
	}
	model_put(part[n - 1], sum < 1.0 ? 1.0 - sum : 0.0, coverage, false);
	if (sum > 1.0)
		model_put(overlap, 1.0 - sum, coverage, false);
}

/* The issue-stage FP units without an FP uop, paper Table III lines 8-18
 * ((k - n) / k summed over cycles): Sapphire Rapids' FP_ARITH_DISPATCHED
 * ports 0, 1, 5 (columns fp_disp_p0/p1/p5; speculative, wrong-path uops
 * included) against the k FMA units.  NaN where not counted. */
static double fp_units_idle(const struct model *m, const struct group_sums *sums, double *cov)
{
	double p0, p1, p5, c0 = 1, c1 = 1, c5 = 1, k;

	if (!find_rate(m, sums, "fp_disp_p0", &p0, &c0) ||
	    !find_rate(m, sums, "fp_disp_p1", &p1, &c1) ||
	    !find_rate(m, sums, "fp_disp_p5", &p5, &c5) || m->peak_vector_bits == 0)
		return NAN;
	k = (double)m->peak_flop_dp / (2.0 * m->peak_vector_bits / 64.0);
	*cov = model_cov2(*cov, model_cov2(c0, model_cov2(c1, c5)));
	return 1.0 - (p0 + p1 + p5) / k;
}

/* The share of FLOPs not from FMAs, in the group that counts FMA FLOPs
 * (column mac_flops, AMD) beside all (flops); NaN where none does. */
static double non_fma_share(const struct model *m, const struct group_sums *sums, double *cov)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);
		double mac = model_gv(&v, "mac_flops"), all = model_gv(&v, "flops");

		if (!isnan(mac) && !isnan(all)) {
			*cov = v.coverage;
			return 1.0 - model_ratio(mac, all);
		}
	}
	return NAN;
}

/* The FLOPS stack (paper section III-C, Table III), as shares of the
 * core's peak that sum to 1, in this order: base (the peak share,
 * Eq. 1), width loss (line 7), non-FMA loss (line 5: where the PMU counts
 * FMA FLOPs apart, each other FLOP leaves one of an FMA's two), frontend
 * (lines 9-10: cycles the scheduler held no uop, so no FP instruction
 * could issue), stalls (lines 11-18: FP units idle while the scheduler
 * held uops), no FP work and the unexplained rest.  None is capped:
 * where they sum above 1 (the frontend's whole empty cycles beside a
 * per-core-clock base, width loss from FP counts above what the units can
 * issue), the excess is the overlap part, negative.  Code that did no FP work at all (no FLOP
 * counted) had no FP instruction to issue in any cycle: lines 9-10 book
 * every such cycle to the frontend component, "because all instructions
 * are non-VFP" where the frontend delivered, so the loss the counters do
 * not put in frontend is no_fp, exactly, and nothing is unexplained. */
static void flops_stack(const struct model *m, const struct group_sums *sums,
			const struct fp_rates *r, double share, double per_core, double cov,
			const struct flops_issue *iss, bool no_fp, struct flops_out *out)
{
	enum { BASE, WIDTH, NON_FMA, FRONTEND, STALL, NO_FP, OTHER, N_PARTS };
	struct metric_value *const part[N_PARTS] = {
		&out->stack_base, &out->stack_width_loss, &out->stack_non_fma,
		&out->stack_frontend, &out->stack_stall, &out->stack_no_fp, &out->stack_other,
	};
	double v[N_PARTS] = { share, r->width_loss * per_core, NAN, NAN, NAN, NAN, NAN };
	double mac, c = 1.0, idle, icov = 1.0;

	mac = non_fma_share(m, sums, &c);
	if (!isnan(mac) || (no_fp && model_has_column(m, "mac_flops"))) {
		v[NON_FMA] = no_fp ? 0.0 : share * mac;
		cov = model_cov2(cov, c);
	}
	if (iss != NULL && !isnan(iss->frontend)) {
		v[FRONTEND] = iss->frontend;
		cov = model_cov2(cov, iss->frontend_cov);
	}
	idle = fp_units_idle(m, sums, &icov);
	if (!isnan(idle)) {
		v[STALL] = no_fp ? 0.0 : idle - (isnan(v[FRONTEND]) ? 0.0 :
						 model_clamp01(v[FRONTEND]));
		cov = model_cov2(cov, icov);
	}
	if (no_fp) {
		/* every cycle the frontend did not take: exactly the rest */
		double taken = 0.0;
		unsigned i;

		for (i = 0; i < NO_FP; i++)
			taken += isnan(v[i]) || v[i] < 0.0 ? 0.0 : v[i];
		v[NO_FP] = taken < 1.0 ? 1.0 - taken : 0.0;
	}
	model_put_stack_overlap(part, v, N_PARTS, cov, &out->stack_overlap);
}

void model_flops_family(const struct model *m, const struct group_sums *sums,
			double core_per_cycle, double core_cov, const struct flops_issue *iss,
			struct flops_out *out)
{
	double total, fpc, per_core, secs, cycles_per_s = NAN, cov, share;
	struct fp_rates r;
	unsigned g;

	memset(out, 0, sizeof(*out));
	if (m->peak_flop_dp == 0)
		return;
	read_fp_rates(m, sums, &r);
	if (!r.any)
		return;
	total = r.flop[0] + r.flop[1] + r.flop[2] + r.flop[3] + r.amx;   /* per cycle */
	/* per core clock: 1 / (CORE_CLKS / cycles) */
	per_core = core_per_cycle > 0 ? 1.0 / core_per_cycle : NAN;
	cov = core_per_cycle == 1.0 ? r.cov : model_cov2(r.cov, core_cov);
	fpc = total * per_core;
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
	model_put(&out->gflops, total * cycles_per_s / 1e9, r.cov, false);
	share = peak_share(m, &r, per_core);
	model_put(&out->peak_fraction, share, cov, false);
	if (total > 0) {
		model_put(&out->scalar_share, r.flop[0] / total, r.cov, false);
		model_put(&out->v128_share, r.flop[1] / total, r.cov, false);
		model_put(&out->v256_share, r.flop[2] / total, r.cov, false);
		model_put(&out->v512_share, r.flop[3] / total, r.cov, false);
		if (r.any_precision == 0)
			model_put(&out->dp_share, r.dp / total, r.cov, false);
		if (m->peak_flop_hp > 0)
			model_put(&out->hp_share, r.hp / total, r.cov, false);
		if (m->peak_flop_amx > 0)
			model_put(&out->amx_share, r.amx / total, r.cov, false);
	}
	if (isfinite(share))
		flops_stack(m, sums, &r, share, per_core, cov, iss, total == 0.0, out);
}

void model_put_cpi_cycles(struct metric_value *const part[], const double *frac, unsigned n,
			  const struct metric_value *cpi, double coverage)
{
	double left = 1.0;
	bool whole = true;
	unsigned i;

	if (!cpi->valid)
		return;
	coverage = model_cov2(coverage, cpi->coverage);
	for (i = 0; i + 1 < n; i++) {
		double v = frac[i];

		if (isnan(v)) {
			whole = false;
			continue;
		}
		v = v < 0.0 ? 0.0 : v > left ? left : v;
		model_put(part[i], v * cpi->value, coverage, false);
		left -= v;
	}
	if (whole)
		model_put(part[n - 1], left * cpi->value, coverage, false);
}
