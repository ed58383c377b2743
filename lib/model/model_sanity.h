/*
 * model_sanity.h - values no core can produce, flagged as toplev flags
 * them (pmu-tools' toplev checks each node against its possible range
 * and its siblings against their parent): a fraction outside 0..1 beyond
 * multiplexing error, children above their parent beyond rounding, FP
 * instructions per cycle above what the core's FP units can retire.  A
 * flag goes in the row's health on every surface (API "health", show,
 * top's HEALTH column, the dashboard); the figure itself is not changed.
 */
#ifndef STACKD_MODEL_SANITY_H
#define STACKD_MODEL_SANITY_H

#include "lib/model/model.h"

/* What a check allows beyond the physical limit: counts of one group
 * read over different stretches of time (multiplexing, split families)
 * and rounding of shares. */
#define SANITY_SLACK 0.02

enum sanity_flag {
	SANITY_RANGE = 1,      /* a fraction outside 0..1 */
	SANITY_CHILDREN = 2,   /* its children sum above it */
	SANITY_FP_PORTS = 4,   /* FP instructions per cycle above the FP units */
};

/* flags[k] for each metric k of m (0: sane), from the computed values mv
 * and the sums they came from.  Overlap parts (negative by design) and
 * perf's own metrics are not range-checked. */
void model_sanity(const struct model *m, const struct group_sums *sums,
		  const struct metric_value *mv, unsigned *flags);

/* What flag bit `flag` of metric k says, with the numbers, into buf. */
void model_sanity_text(const struct model *m, const struct group_sums *sums,
		       const struct metric_value *mv, unsigned k, unsigned flag, char *buf,
		       size_t len);

/* Every flag of every metric, "name: text; name: text", into buf (""
 * when all pass); how many. */
unsigned model_sanity_line(const struct model *m, const struct group_sums *sums,
			   const struct metric_value *mv, char *buf, size_t len);

#endif
