/*
 * analyze_check.h - perf's own metric figures in a recording (its metric
 * column: "#  1.23  insn per cycle", "#  30.8 %  tma_retiring") beside
 * ours, and whether they agree to the precision perf printed them with, so
 * a user sees at once that `stackctl analyze` computes what perf did.
 */
#ifndef STACKD_ANALYZE_CHECK_H
#define STACKD_ANALYZE_CHECK_H

#include "cli/analyze_perf.h"
#include "cli/perfstat.h"

enum check_state {
	CHECK_AGREE,
	CHECK_DISAGREE,
	CHECK_NOT_COMPARED,  /* a row's own figure, or a metric we do not know */
};

struct check {
	const struct ps_printed *p;
	enum check_state state;
	double ours;         /* in perf's printed unit (a percentage as 30.8) */
	const char *why;     /* CHECK_NOT_COMPARED: why */
	const char *formula; /* ours is not perf 7.2's (td_builtin_formula), else NULL */
};

struct check_summary {
	struct check *c;     /* one per rec->printed, in order */
	size_t n;
	unsigned agree, disagree, not_compared;
};

/* Check every figure rec holds against ap (perf's table on rec) and the
 * counts.  0 or -ENOMEM; check_free() after. */
int analyze_check(const struct ps_recording *rec, const struct analyze_perf *ap,
		  struct check_summary *out);
void analyze_check_free(struct check_summary *s);

#endif
