/*
 * fixture_zen.h - the golden fixture's AMD hosts (struct demo_host): a
 * Zen 3 host for the regression CPI stack and a Zen 4 host for the
 * dispatch and commit stacks, their counts built from known profiles.
 */
#ifndef STACKD_FIXTURE_ZEN_H
#define STACKD_FIXTURE_ZEN_H

#include "daemon/demo/demo_data.h"
#include "lib/model/model_generic.h"

extern const struct demo_host fixture_zen3, fixture_zen4;

/* The Zen 3 host's true CPI stack: the processes' mean base CPI (each
 * has its own, 0.30 to 0.60), then cycles per event of each regressor of
 * model_zen3 in order (model_generic_regressor). */
extern const double fixture_zen3_penalties[CPI_WEIGHTS];

/* The noise on each Zen 3 process-interval's CPI: at most this share of
 * it either way. */
#define FIXTURE_ZEN3_NOISE 0.01

#endif
