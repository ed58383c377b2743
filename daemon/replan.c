/*
 * replan.c - a SIGHUP that changes the counter groups (replan.h).
 *
 * families, count_modes and the host's counter budget (SMT, the NMI
 * watchdog, counters a hypervisor exposes) decide which perf_event groups
 * are open.  When a reload changes them, the daemon switches plans between
 * two flushes, all in the main thread:
 *
 *   final flush: every worker cuts, stops and is joined; the interval so
 *     far is written (nothing counted is lost)
 *   -> the old counter groups closed (their counters free for the new
 *     ones); the old side-band events and rings stay open, recording
 *   -> collector opened for the new plan -> workers started -> the
 *     flusher rebound (the next interval starts where the last one ended)
 *   -> the old rings' side-band records since the final cut handed to the
 *     flusher (worker_take_rest: processes started, renamed and ended
 *     during the switch, stored in the next interval), the old workers
 *     freed, the old collector closed (the new side-band events ran
 *     already: no moment without one; records of both are deduplicated)
 *   -> the gap: from the final cut until the new workers run no group
 *     counts (30-100 ms under a fork storm); every CPU's time in it, from
 *     /proc/stat, goes into the next interval - busy to [unattributed],
 *     idle to [idle] - and its length into replan_gap_ns, so the
 *     attributed share and the health counts show what it lost
 *   -> /proc scanned (a process started while no side-band event was open)
 *   -> the store, /metrics and meta told the new groups.
 *
 * The HTTP threads never see the collector or the workers: they read the
 * database (the groups are registered and meta written in transactions)
 * and /metrics, whose re-keying (prom_replan) holds the lock its renders
 * take.
 *
 * If the new groups cannot be opened (EMFILE, a PMU that refuses them)
 * the running ones are opened again the same way; if even that fails the
 * daemon stops with a failure, and its service manager restarts it,
 * rather than run without counters.
 *
 * Privileges: after the start drops to cfg.user, the main thread keeps
 * CAP_PERFMON permitted and effective (privilege_drop sets them with
 * capset(2) on the calling thread, the main one, before any other thread
 * exists), which is all perf_event_open(2) on every CPU needs; the mmap of
 * the rings is exempt from the mlock limit for the same capability.  So a
 * re-plan needs nothing the daemon does not already hold, and the new
 * workers inherit exactly that set.
 */
#include "daemon/replan.h"
#include "daemon/counting.h"
#include "daemon/interval_flush.h"
#include "daemon/meta.h"
#include "daemon/base/log.h"
#include "daemon/collect/cpustat.h"
#include "lib/clock.h"
#include "lib/pids.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what appended to buf, after "; " when buf holds something already. */
static void say(char *buf, size_t len, const char *what)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used > 0 ? "; " : "", what);
}

/* What changed in the reload that bears on the groups: "" when nothing. */
static void describe_change(const struct daemon *d, const struct config *n,
			    const struct plan *next, char *buf, size_t len)
{
	const struct plan_budget *was = &d->plan.budget, *now = &next->budget;
	char part[1100];

	buf[0] = '\0';
	if (strcmp(n->families, d->cfg.families) != 0) {
		snprintf(part, sizeof(part), "families '%s' -> '%s'", d->cfg.families, n->families);
		say(buf, len, part);
	}
	if (strcmp(n->count_modes, d->cfg.count_modes) != 0) {
		snprintf(part, sizeof(part), "count_modes '%s' -> '%s'", d->cfg.count_modes,
			 n->count_modes);
		say(buf, len, part);
	}
	if (now->smt_on != was->smt_on || now->watchdog_on != was->watchdog_on ||
	    now->gp_total != was->gp_total) {
		snprintf(part, sizeof(part), "counter budget: SMT %s -> %s, NMI watchdog %s -> %s, "
			 "%u -> %u general counters per thread", was->smt_on ? "on" : "off",
			 now->smt_on ? "on" : "off", was->watchdog_on ? "on" : "off",
			 now->watchdog_on ? "on" : "off", was->gp_total, now->gp_total);
		say(buf, len, part);
	}
}

/* "2 groups: faults, migrations" */
static void describe_groups(const struct plan *p, char *buf, size_t len)
{
	unsigned g;

	snprintf(buf, len, "%u group%s:", p->n_groups, p->n_groups == 1 ? "" : "s");
	for (g = 0; g < p->n_groups; g++) {
		char label[128];

		size_t used;

		plan_group_label(p, g, label, sizeof(label));
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %s", g > 0 ? "," : "", label);
	}
}

/* The old plan while the new one opens: its workers stopped and joined
 * after their last cut (written as an interval), its counter groups
 * closed, its side-band events still recording into its rings. */
struct old_side {
	struct collector *col;
	struct worker *workers;
	size_t n_workers;
	bool stat_read, end_read;
	struct cpustat stat;    /* every CPU's /proc/stat when no group counted any more */
	uint64_t since_ns;      /* then, CLOCK_MONOTONIC */
	struct cpustat end;     /* ... and when the new workers ran (end_read) */
	uint64_t until_ns;      /* then (0: not yet) */
};

static void stop_collecting(struct daemon *d, struct old_side *o)
{
	interval_flush(d, true);
	o->col = d->col;
	o->workers = d->workers;
	o->n_workers = d->n_workers;
	d->col = NULL;
	d->workers = NULL;
	d->n_workers = 0;
	collector_close_groups(o->col);
	o->since_ns = monotonic_ns();
	o->stat_read = cpustat_read(-1, &o->stat) == 0;
	o->until_ns = 0;
	o->end_read = false;
}

/* The new workers run: the gap ends. */
static void gap_ends(struct old_side *o)
{
	o->until_ns = monotonic_ns();
	o->end_read = cpustat_read(-1, &o->end) == 0;
}

/* The gap since o->since_ns, in which no group counted, into the next
 * interval: its busy CPU time to [unattributed], its idle time to [idle]
 * (/proc/stat, to its 10 ms ticks), its length over every CPU into
 * replan_gap_ns. */
static void count_gap(struct daemon *d, struct old_side *o)
{
	const struct cpustat *a = &o->stat, *b = &o->end;
	struct handover *h = handover_new(-1, NULL);

	if (h == NULL)
		return;
	if (o->until_ns == 0)   /* no new workers yet (none will run, or the old side-band
				 * gives its descriptors back first): until now */
		gap_ends(o);
	h->st.replan_gap_ns = (o->until_ns - o->since_ns) * (o->col != NULL ? o->col->n_cpus : 1);
	if (o->stat_read && o->end_read && b->idle_ns >= a->idle_ns &&
	    b->busy_ns + b->steal_ns >= a->busy_ns + a->steal_ns) {
		uint64_t busy = b->busy_ns + b->steal_ns - a->busy_ns - a->steal_ns;
		uint64_t zero[ACC_MAX_MEMBERS] = { 0 };

		if (busy > 0 && cpuacc_add(&h->acc, PID_UNATTRIBUTED, 0, o->until_ns, busy, false,
					   zero, 0) == 0)
			h->st.unattributed_spans++;
		if (b->idle_ns > a->idle_ns)
			(void)cpuacc_add(&h->acc, PID_IDLE, 0, o->until_ns, b->idle_ns - a->idle_ns,
					 false, zero, 0);
	}
	flush_add_extra(&d->fl, h);
}

/* The old side-band records since the final cut and the gap to the
 * flusher, for the next interval; the old workers and collector freed. */
static void release_old(struct daemon *d, struct old_side *o)
{
	size_t i;

	if (o->col == NULL)
		return;
	for (i = 0; i < o->n_workers; i++) {
		struct handover *h = worker_take_rest(&o->workers[i]);

		if (h == NULL)
			continue;
		/* the new workers' accumulators split at these exits too */
		for (size_t j = 0; d->col != NULL && j < h->n_life; j++)
			if (h->life[j].type == LIFE_EXIT)
				exitlog_add(&d->col->exits, h->life[j].pid, h->life[j].time);
		flush_add_extra(&d->fl, h);
	}
	count_gap(d, o);
	for (i = 0; i < o->n_workers; i++)
		worker_done(&o->workers[i]);
	free(o->workers);
	collector_close(o->col);
	o->col = NULL;
}

/* Count with plan, under d->cfg's count modes.  0, or -errno with err
 * (and nothing left open). */
static int resume(struct daemon *d, const struct plan *plan, char *err, size_t errlen)
{
	struct plan opened = *plan;   /* less what the host refuses */
	char why[1024];
	int r;

	r = counting_open_collector(d, &opened, err, errlen);
	if (r < 0)
		return r;
	d->plan = opened;   /* the writer reads it through its pointer */
	r = counting_start_workers(d);
	if (r < 0) {
		snprintf(err, errlen, "cannot start the CPU workers: %s", strerror(-r));
		counting_stop_workers(d);
		collector_close(d->col);
		d->col = NULL;
		return r;
	}
	flush_rebind(&d->fl, d->col, d->workers, d->n_workers);
	if (proctab_scan(&d->pt) < 0)
		log_warning("reload: cannot scan /proc; a process started during the switch "
			    "is named when it is first counted");
	prom_replan(d->prom, &d->plan);
	if (writer_replan(&d->w, why, sizeof(why)) < 0)
		log_warning("reload: cannot register the new counter groups in the database "
			    "(%s); the next write tries again", why);
	http_server_model_changed(d->http);
	return 0;
}

/* Count with plan; when the descriptors run out, the old side-band
 * events' (kept open through the switch) are given back first. */
static int resume_beside(struct daemon *d, struct old_side *o, const struct plan *plan,
			 char *err, size_t errlen)
{
	int r = resume(d, plan, err, errlen);

	if (r == -EMFILE && o->col != NULL) {
		release_old(d, o);
		r = resume(d, plan, err, errlen);
	}
	if (r == 0 && o->until_ns == 0)
		gap_ends(o);
	return r;
}

/* The running groups again, after stop_collecting: -errno when even
 * they cannot be opened. */
static int reopen(struct daemon *d, struct old_side *o, const struct plan *old)
{
	char err[2048];
	int r = resume_beside(d, o, old, err, sizeof(err));

	release_old(d, o);
	if (r < 0)
		log_error("reload: cannot reopen the running counter groups either: %s; stopping "
			  "rather than run without counters", err);
	return r;
}

/* Stop counting with the running groups and start with next; if next
 * cannot be opened, the running groups again. */
static int switch_plan(struct daemon *d, const struct config *n, const struct plan *next,
		       const char *what)
{
	char families[sizeof(d->cfg.families)], modes[sizeof(d->cfg.count_modes)];
	char err[2048];
	struct plan old = d->plan;
	struct old_side o;
	int r;

	stop_collecting(d, &o);
	if (writer_pending(&d->w) > 0) {
		log_warning("reload: %s, but the database did not take the last interval: "
			    "reopening the running counter groups; send SIGHUP again once it is "
			    "writable", what);
		return reopen(d, &o, &old);
	}
	memcpy(families, d->cfg.families, sizeof(families));
	memcpy(modes, d->cfg.count_modes, sizeof(modes));
	memcpy(d->cfg.families, n->families, sizeof(families));
	memcpy(d->cfg.count_modes, n->count_modes, sizeof(modes));
	r = resume_beside(d, &o, next, err, sizeof(err));
	if (r == 0) {
		char groups[1024];

		release_old(d, &o);
		describe_groups(&d->plan, groups, sizeof(groups));
		log_info("reload: %s: re-planned the counter groups, now %s", what, groups);
		meta_log_plan(&d->plan);
		return 1;
	}
	log_error("reload: cannot open the new counter groups (%s): %s; reopening the running "
		  "ones", what, err);
	memcpy(d->cfg.families, families, sizeof(families));
	memcpy(d->cfg.count_modes, modes, sizeof(modes));
	return reopen(d, &o, &old);
}

int replan_apply(struct daemon *d, const struct config *n, const struct plan *next)
{
	char what[2048];

	describe_change(d, n, next, what, sizeof(what));
	if (plan_groups_equal(next, &d->plan) && strcmp(n->count_modes, d->cfg.count_modes) == 0) {
		/* The same groups: nothing is reopened.  The plan's budget and
		 * reasons, and the families as written, are the new ones. */
		d->plan = *next;
		memcpy(d->cfg.families, n->families, sizeof(n->families));
		if (what[0] != '\0')
			log_info("reload: %s: the counter groups stay as they are", what);
		return 1;
	}
	/* Queued intervals name their groups by the running plan's indices:
	 * they must be written before the store learns other groups. */
	if (writer_pending(&d->w) > 0) {
		log_warning("reload: %s, but %zu interval(s) wait to be written to the database: "
			    "the counter groups stay as they are; send SIGHUP again once it is "
			    "writable", what, writer_pending(&d->w));
		return 0;
	}
	return switch_plan(d, n, next, what[0] != '\0' ? what : "the host's counters changed");
}
