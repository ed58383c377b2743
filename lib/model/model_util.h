/*
 * model_util.h - what the hardware models share: reading one group's sums
 * by column name, safe ratios, and the frontend-delivery and FLOPS families
 * whose events have the same meaning on every model that has them.
 *
 * Models are pure functions of summed counts (model.h); nothing here keeps
 * state.
 */
#ifndef STACKD_MODEL_UTIL_H
#define STACKD_MODEL_UTIL_H

#include "lib/model/model.h"

/* One group of one target, as the formulas see it. */
struct gview {
	bool ok;                       /* measured, with cycles > 0 */
	const struct model_group *g;
	const struct group_sums *s;
	double cycles;
	double coverage;               /* share of the target's time */
};

/* The time a group's every event was counted (group_sums.covered_ns). */
uint64_t model_covered_ns(const struct group_sums *s);

/* Look a group up by name; ok is false when it did not measure the target
 * or has no cycles column with a count. */
struct gview model_gview_get(const struct model *m, const struct group_sums *sums,
			     const char *group);

/* Count of a column in the group; NaN when the group lacks it or did not
 * count it (group_sums.missing). */
double model_gv(const struct gview *v, const char *column);
/* As model_gv, but `absent` when the group has no such column at all (a
 * correction one family carries and another does not); still NaN when
 * the group has it and did not count it. */
double model_gv_or(const struct gview *v, const char *column, double absent);

/* a / b, NaN when b is 0 or either is NaN. */
double model_ratio(double a, double b);
double model_clamp01(double x);

/* Store a value when finite (else leave invalid). */
void model_put(struct metric_value *out, double value, double coverage, bool core_scoped);
/* The smaller of two coverages (a figure combining two groups). */
double model_cov2(double a, double b);

/* Split a valid parent into two children by share (clamped to 0..1):
 * a = parent x share, b = the rest; children inherit the parent's scope and
 * the smaller of the two coverages. */
void model_split_parent(struct metric_value *a, struct metric_value *b,
			const struct metric_value *parent, double share, double coverage);

/* Multi-stage CPI stacks (Eyerman et al., ISPASS 2018, docs/references.md,
 * section III-A): one loss measured at an earlier and a later pipeline
 * stage, as bounds, each bound one stage's value.  Frontend and
 * mispredict losses start to be accounted later at later stages, so they
 * shrink (shrinks: high = the earlier stage, low = the later one);
 * backend losses start sooner, so they grow (low = the earlier stage,
 * high = the later one).  Where counter approximations put the later
 * stage across the earlier one, the range spans both values (the smaller
 * is low), so neither stage's figure is hidden.  Both stages' figures
 * must be in one unit (shares of slots; a share of whole cycles is one of
 * slots, every slot of such a cycle lost).  A later stage with no counter
 * (invalid) leaves its bound invalid: "unknown", the earlier stage's bound
 * alone; an invalid earlier stage leaves both invalid. */
void model_put_stage_bounds(struct metric_value *low, struct metric_value *high,
			    const struct metric_value *earlier, const struct metric_value *later,
			    bool shrinks);

/* A stack whose parts sum to 1 (fractions of slots, or of the FLOP peak):
 * value[i] into part[i] in order, each clamped to 0 and to what the parts
 * before left (approximations can overshoot); a NaN value leaves its part
 * invalid and takes nothing; the last part is the rest. */
void model_put_stack(struct metric_value *const part[], const double *value, unsigned n,
		     double coverage);

/* As model_put_stack, but no part is capped at what the ones before
 * left: where the parts sum above 1 (counters booking one loss twice,
 * or a physically impossible count), the last part is 0 and *overlap
 * the excess, negative (left invalid when there is none), so a measured
 * loss is never hidden by the cap. */
void model_put_stack_overlap(struct metric_value *const part[], const double *value,
			     unsigned n, double coverage, struct metric_value *overlap);

/* A cycle-accounted CPI stack (Eyerman et al., ASPLOS 2006, docs/references.md,
 * section 4: every cycle to one component, the base the rest): frac[i] is
 * component i's share of cycles, in the order that takes a cycle counted
 * by two (the first cause), each clamped to 0 and to the cycles the ones
 * before left; part[i] = its share x cpi, so the parts sum to the measured
 * CPI exactly.  part[n - 1] is the base, the rest (frac[n - 1] unused).  A
 * NaN share (its counters not counted) leaves its part invalid and the
 * base too, never 0; nothing is put when cpi is invalid. */
void model_put_cpi_cycles(struct metric_value *const part[], const double *frac, unsigned n,
			  const struct metric_value *cpi, double coverage);

/* Cycles and instructions summed over every group that counts both (the
 * base events ride in most groups, so this covers most of the target's
 * time); false when no group has them. */
bool model_base_counts(const struct model *m, const struct group_sums *sums, double *cycles,
		       double *instructions, double *coverage);

/* ipc and cpi from model_base_counts(). */
void model_put_ipc_cpi(const struct model *m, const struct group_sums *sums,
		       struct metric_value *ipc, struct metric_value *cpi);

/* Frontend delivery from the groups that hold dsb_uops, mite_uops, ms_uops,
 * lsd_uops, dsb_cycles, mite_cycles, ms_cycles, lsd_cycles,
 * dsb2mite_penalty_cycles, icache_stall_cycles, itlb_stall_cycles (any
 * subset; the names are looked up in every group).  Fills the FRONTEND_*
 * metrics of the Intel table.  P_only divides a path's uops by its cycles
 * in the one group that counts both (never counts of two groups), and
 * only where the path delivered in FE_P_ONLY_MIN_CYCLES of its cycles.
 * A column the model has but no group counted for the target leaves what
 * needs it invalid; one the model lacks (lsd_uops before Ice Lake) is 0. */
/* The thesis's cycle decomposition (eq. 3.2): cycles each path delivered
 * uops, the DSB-to-MITE switch penalty cycles (no uop delivered), and the
 * rest, cycles nothing was delivered; overlap (negative, present only
 * then) where the counted parts exceed the cycles. */
enum { FE_CYC_DSB, FE_CYC_MITE, FE_CYC_MS, FE_CYC_LSD, FE_CYC_SWITCH, FE_CYC_NONE,
       FE_CYC_OVERLAP, FE_CYC_N };
/* P_only is not offered when its path delivered in fewer than this share
 * of cycles: the thesis finds it unreliable there (residual counts). */
#define FE_P_ONLY_MIN_CYCLES 0.01
struct frontend_out {
	struct metric_value dsb_coverage, mite_share, ms_share, lsd_share;
	struct metric_value dsb_p_only, dsb_p_overall, mite_p_only, mite_p_overall;
	struct metric_value dsb_switch_fraction, icache_stall_fraction, itlb_stall_fraction;
	struct metric_value p_overall;   /* uops of every path per cycle (eq. 3.5) */
	struct metric_value cyc[FE_CYC_N];
};
void model_frontend_delivery(const struct model *m, const struct group_sums *sums,
			     struct frontend_out *out);

/* FLOPS from Intel's FP_ARITH_INST_RETIRED counts (columns fp_scalar_dp,
 * fp_scalar_sp, fp_128_dp, fp_128_sp, fp_256_dp, fp_256_sp, fp_512_dp,
 * fp_512_sp; FMA already counts twice) or from one FLOP counter (column
 * flops, AMD RETIRED_SSE_AVX_FLOPS), and the FLOPS stack of the paper
 * (section III-C, Table III) at the issue stage, as shares of the core's
 * peak per precision that sum to 1: stack_base (achieved share, Eq. 1),
 * stack_width_loss (lanes narrower instructions left empty against
 * model.peak_vector_bits; Intel and Arm widths), stack_non_fma (AMD's
 * mac_flops column: FLOPs not from FMAs), stack_frontend (flops_issue),
 * stack_stall (Sapphire Rapids' FP_ARITH_DISPATCHED ports: FP units idle
 * while the scheduler held uops), stack_no_fp (code that did no FP work:
 * every lost FP slot but the frontend's, exactly; invalid when there was
 * FP work, as the counters cannot tell that part apart then) and
 * stack_other, the unexplained rest (0 without FP work).
 * A part the model cannot measure is left invalid (its loss is in the
 * rest).  Every FP column the model has must be counted for the target,
 * or the family is left invalid (never summed without a width). */
struct flops_out {
	struct metric_value flops_per_cycle, gflops, peak_fraction;
	struct metric_value scalar_share, v128_share, v256_share, v512_share, dp_share;
	struct metric_value hp_share, amx_share;
	struct metric_value stack_base, stack_width_loss, stack_non_fma, stack_frontend;
	struct metric_value stack_stall, stack_no_fp, stack_other;
	/* FLOPS stack: where its parts sum above 1 (counters that count one
	 * lost FLOP slot twice, or FP instructions above what the FP units
	 * can issue), the excess as a negative part, so no part is cut */
	struct metric_value stack_overlap;
};

/* Issue-stage input to the FLOPS stack beside the FP counts: the share of
 * cycles no FP instruction could issue because the scheduler held no uop
 * (Intel RS empty cycles; paper Table III line 9), NaN where not measured. */
struct flops_issue {
	double frontend, frontend_cov;
};

/* The peak FLOP per cycle a count that does not tell the precision is
 * taken against: the higher of the two (single precision), so the share
 * of the peak is a lower bound and never over 1 for a real run. */
double model_peak_any_precision(const struct model *m);

/* FLOPs one count of an FP column stands for (fp_256_dp: 4), 0 for a
 * column that counts no FLOPs. */
double model_flop_weight(const char *column);

/* The FLOPS figures from the model's FP counts (columns fp_<width>_dp/sp,
 * Sapphire Rapids' fp_<width>_hp and amx_bf16, or AMD's one "flops").
 * Per cycle means per core clock as perf's FLOPc has it: core_per_cycle is
 * CORE_CLKS / cycles (1 where they are the same; NaN: unknown, then no
 * per-cycle figure), measured with coverage core_cov. */
void model_flops_family(const struct model *m, const struct group_sums *sums,
			double core_per_cycle, double core_cov, const struct flops_issue *iss,
			struct flops_out *out);

#endif
