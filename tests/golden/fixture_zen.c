/*
 * fixture_zen.c - the golden fixture's Zen 3 and Zen 4 hosts: counts built
 * from physical profiles, so what every reader shows of them is known.
 *
 * Zen 3 (model_zen3, the generic model): each process has its own base
 * CPI (0.30 to 0.60: what its instruction mix and dependences cost with no
 * miss, which differs between a streaming copy and a compressor) and mean
 * miss rates per instruction; in each 1 s interval every rate is its mean
 * times an independent factor in [0.4, 1.6), and the CPI is what the
 * regression CPI stack's model says, CPI = base + sum of penalty x rate,
 * times 1 + noise (at most FIXTURE_ZEN3_NOISE either way).  The draws are
 * a hash of (process, interval, quantity), so no two regressors move
 * together within a process, and the fit with a base per process
 * (lib/model/cpi_fit.c) recovers the penalties from the variation within
 * the processes (tests/unit/test_fixture_zen.c checks it; a pooled fit
 * with one base moves the bases into the penalties).  The penalties,
 * cycles per event, plausible for a 3.4 GHz Zen 3:
 *   branch mispredict 14; i-cache refill from L2 9, from beyond L2 60;
 *   i-TLB miss (both levels) 30; d-TLB miss (both levels) 22; d-cache
 *   fill from DRAM 110 (~270 cycles of latency, overlapped); the base CPI
 *   entry is the processes' mean base.
 *
 * Zen 4 (model_zen4): each process has dispatch-stage Top-Down shares that
 * sum to 1 (the frontend and backend shares swing by +-amp in a one-minute
 * wave), level-2 splits, and commit-stage cycle shares chosen as the paper
 * orders the stages: ROB-empty cycles (frontend + mispredicts) at most the
 * dispatch stage's frontend + bad speculation, not-complete cycles (backend)
 * at least its backend, and retiring + every zero-retire class at most 1
 * (the rest is commit_partial).  The events shared by families
 * (ex_no_retire.*, ex_ret_ops) have the same rates in each.
 */
#include "fixture_zen.h"
#include "lib/model/model.h"

#include <math.h>
#include <stdint.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A uniform draw in [0, 1) for (process, interval, quantity): splitmix64
 * of the three, so it does not depend on the order of the calls. */
static double draw(size_t k, unsigned i, unsigned q)
{
	uint64_t z = 0x5eed2026ULL + ((uint64_t)k << 40) + ((uint64_t)i << 16) + q;

	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;   /* 2^53 */
}

static uint64_t count(double x)
{
	return x > 0 ? (uint64_t)(x + 0.5) : 0;
}

/* --- Zen 3 --------------------------------------------------------------- */

#define ZEN3_HZ 3.4e9

const double fixture_zen3_penalties[CPI_WEIGHTS] = { 0.46, 14.0, 9.0, 60.0, 30.0, 22.0, 110.0 };

static const struct demo_proc zen3_procs[] = {
	{ 2001, "clang", "clang -O2 -c big.cpp", "build.slice", 5001, 0.80 },
	{ 2002, "java", "java -jar service.jar", "java.service", 5002, 0.90 },
	{ 2003, "redis-server", "/usr/bin/redis-server *:6379", "redis.service", 5003, 0.40 },
	{ 2004, "stream", "./stream -n 100000000", "user@5001.service", 5001, 0.60 },
	{ 2005, "xz", "xz -9 dump.tar", "user@5001.service", 5001, 0.30 },
};

/* Base CPI, mean misses per 1000 instructions in regressor order (branch,
 * i-cache from L2, from beyond, i-TLB, d-TLB, d-cache from DRAM), and
 * FLOP/cycle.  The bases average fixture_zen3_penalties[0]. */
static const struct {
	double base;
	double mpki[CPI_REGRESSORS];
	double flops_per_cycle;
} zen3_profiles[N(zen3_procs)] = {
	{ 0.45, { 8.0, 20.0, 1.5, 0.6, 0.8, 1.5 }, 0.0 },     /* clang: branches, code */
	{ 0.55, { 3.0, 30.0, 3.0, 2.0, 1.0, 2.0 }, 0.05 },    /* java: a big JIT footprint */
	{ 0.40, { 4.0, 10.0, 1.0, 1.0, 3.0, 5.0 }, 0.0 },     /* redis: pointers, hash tables */
	{ 0.30, { 0.2, 0.1, 0.01, 0.02, 1.0, 15.0 }, 0.25 },  /* stream: DRAM bandwidth */
	{ 0.60, { 12.0, 0.5, 0.05, 0.05, 0.3, 1.0 }, 0.0 },   /* xz: dependent chains */
};

/* Process k's miss rates per instruction and CPI in interval i. */
static double zen3_rates(size_t k, unsigned i, double rate[CPI_REGRESSORS])
{
	double cpi = zen3_profiles[k].base;
	unsigned r;

	for (r = 0; r < CPI_REGRESSORS; r++) {
		rate[r] = zen3_profiles[k].mpki[r] / 1000.0 * (0.4 + 1.2 * draw(k, i, r));
		cpi += fixture_zen3_penalties[r + 1] * rate[r];
	}
	return cpi * (1.0 + FIXTURE_ZEN3_NOISE * (2.0 * draw(k, i, CPI_REGRESSORS) - 1.0));
}

/* Groups cpi_a (branch, i-cache from L2 and beyond), cpi_b (i-TLB, d-TLB,
 * d-cache from DRAM) and flops, each cycles and instructions first. */
static void zen3_counts(size_t k, unsigned g, unsigned i, uint64_t tc, uint64_t *v)
{
	double rate[CPI_REGRESSORS], cpi = zen3_rates(k, i, rate);
	double cycles = ZEN3_HZ * (double)tc / 1e9, ins = cycles / cpi;
	unsigned r;

	v[0] = count(cycles);
	v[1] = count(ins);
	if (g == 2) {
		v[2] = count(zen3_profiles[k].flops_per_cycle * cycles);
		return;
	}
	for (r = 0; r < 3; r++)
		v[2 + r] = count(rate[3 * g + r] * ins);
}

const struct demo_host fixture_zen3 = {
	&model_zen3, zen3_procs, N(zen3_procs), zen3_counts,
};

/* --- Zen 4 --------------------------------------------------------------- */

#define ZEN4_HZ 3.7e9
#define ZEN4_WIDTH 6.0        /* dispatch slots per cycle */
#define OPS_PER_FLUSH 60.0    /* wrong-path ops dispatched per flush */

static const struct demo_proc zen4_procs[] = {
	{ 3001, "nginx", "nginx: worker process", "nginx.service", 5003, 0.70 },
	{ 3002, "stream", "./stream -n 100000000", "user@5001.service", 5001, 0.60 },
	{ 3003, "cc1", "/usr/lib/gcc/x86_64-linux-gnu/13/cc1 -O2 big.c", "build.slice", 5001,
	  0.50 },
	{ 3004, "dgemm", "./dgemm 4096", "hpc.slice", 4343, 0.80 },
};

static const struct zen4_profile {
	/* dispatch stage, shares of slots: sum to 1 */
	double ret, bs, fe, be, smt;
	double amp;          /* fe + amp x wave, be - amp x wave */
	double fe_latency;   /* share of fe in cycles with no op delivered */
	double mispredict;   /* share of flushes from mispredicts (the rest resyncs) */
	double ucode;        /* share of retired ops from microcode */
	double opcache;      /* share of dispatched ops from the op cache */
	double ops_per_ins;
	/* commit stage, shares of cycles: ROB empty, not complete beyond the
	 * dispatch backend, of which waiting for a load, other, other thread */
	double empty, nc_extra, load, other, thread;
	double flops_per_cycle, fma;   /* fma: share of FLOPs from FMAs */
} zen4_profiles[N(zen4_procs)] = {
	/* nginx: frontend bound, a big code footprint */
	{ 0.22, 0.06, 0.42, 0.25, 0.05, 0.03, 0.65, 0.85, 0.05, 0.70, 1.12,
	  0.30, 0.05, 0.35, 0.02, 0.04, 0.0, 0.0 },
	/* stream: memory bound */
	{ 0.12, 0.01, 0.03, 0.80, 0.04, 0.01, 0.40, 0.90, 0.01, 0.95, 1.05,
	  0.025, 0.01, 0.85, 0.0, 0.01, 0.4, 0.0 },
	/* cc1: mispredicts */
	{ 0.35, 0.20, 0.22, 0.20, 0.03, 0.03, 0.55, 0.90, 0.03, 0.60, 1.10,
	  0.30, 0.02, 0.45, 0.03, 0.02, 0.0, 0.0 },
	/* dgemm: retiring, 75% of the DP peak, 90% of it from FMAs */
	{ 0.72, 0.01, 0.04, 0.22, 0.01, 0.01, 0.30, 0.95, 0.0, 0.90, 1.0,
	  0.02, 0.01, 0.25, 0.0, 0.0, 12.0, 0.90 },
};

/* Groups td_l1, td_l2_fe_bs, td_l2_be_ret, fe_flops, commit, flops_fma
 * (model_zen4.c), in their event order. */
static void zen4_counts(size_t k, unsigned g, unsigned i, uint64_t tc, uint64_t *v)
{
	const struct zen4_profile *p = &zen4_profiles[k];
	double wave = p->amp * sin(2.0 * M_PI * i / 60.0 + (double)k);
	double c = ZEN4_HZ * (double)tc / 1e9, slots = ZEN4_WIDTH * c;
	double fe = p->fe + wave, be = p->be - wave, retired = p->ret * slots;
	double ins = retired / p->ops_per_ins, nc = (be + p->nc_extra) * c;
	double flushes = p->bs * slots / OPS_PER_FLUSH;

	v[0] = count(c);
	switch (g) {
	case 0:
		v[1] = count((p->ret + p->bs) * slots);
		v[2] = count(retired);
		v[3] = count(fe * slots);
		v[4] = count(be * slots);
		v[5] = count(p->smt * slots);
		break;
	case 1:
		v[1] = count(ins);
		v[2] = count(fe * slots);
		v[3] = count(p->fe_latency * fe * c);
		v[4] = count(p->mispredict * flushes);
		v[5] = count((1.0 - p->mispredict) * flushes);
		break;
	case 2:
		v[1] = count(ins);
		v[2] = count(p->load * nc);
		v[3] = count(nc);
		v[4] = count(p->ucode * retired);
		v[5] = count(retired);
		break;
	case 3:
		v[1] = count(ins);
		v[2] = count(p->opcache * (p->ret + p->bs) * slots);
		v[3] = count((1.0 - p->opcache) * (p->ret + p->bs) * slots);
		v[4] = count(p->flops_per_cycle * c);
		break;
	case 4:
		v[1] = count(retired);
		v[2] = count(p->empty * c);
		v[3] = count(nc);
		v[4] = count(p->load * nc);
		v[5] = count(p->other * c);
		v[6] = count(p->thread * c);
		break;
	case 5:
		v[1] = count(p->flops_per_cycle * c);
		v[2] = count(p->fma * p->flops_per_cycle * c);
		break;
	}
}

const struct demo_host fixture_zen4 = {
	&model_zen4, zen4_procs, N(zen4_procs), zen4_counts,
};
