/*
 * reload.c - see reload.h.
 */
#include "daemon/reload.h"
#include "daemon/cost_report.h"
#include "daemon/counting.h"
#include "daemon/meta.h"
#include "daemon/replan.h"
#include "daemon/signals.h"
#include "daemon/base/log.h"
#include "daemon/attribute/exclude.h"

#include <string.h>

/* The settings a reload changes in place. */
static void apply_settings(struct daemon *d, const struct config *n)
{
	uint64_t clock_before = daemon_clock_period_ns(d);
	struct writer_options wo;
	bool budget_changed;

	d->cfg.log_level = n->log_level;
	log_set_level(n->log_level);
	d->cfg.retry_buffer = n->retry_buffer;
	memcpy(d->cfg.retention_ns, n->retention_ns, sizeof(n->retention_ns));
	d->cfg.max_database_mb = n->max_database_mb;
	config_writer_options(&d->cfg, &wo);
	writer_configure(&d->w, &wo);
	d->cfg.switch_rate_warning = n->switch_rate_warning;
	if (n->rotate_period_ns != d->cfg.rotate_period_ns) {
		size_t i;

		d->cfg.rotate_period_ns = n->rotate_period_ns;
		for (i = 0; i < d->n_workers; i++)
			worker_set_rotate(&d->workers[i], n->rotate_period_ns);
	}
	budget_changed = n->max_sampling_cost != d->cfg.max_sampling_cost ||
			 n->periodic_hz != d->cfg.periodic_hz;
	d->cfg.max_sampling_cost = n->max_sampling_cost;
	d->cfg.periodic_hz = n->periodic_hz;
	/* rotate_period too: periodic mode's clock fits in a group's turn */
	if (budget_changed || daemon_clock_period_ns(d) != clock_before) {
		counting_set_budget(d);
		cost_report_log(d);
	}
	if (n->interval_ns != d->cfg.interval_ns) {
		d->cfg.interval_ns = n->interval_ns;
		if (signals_arm_timer(d) < 0)
			log_error("reload: cannot re-arm the flush timer");
	}
}

/* SIGHUP: the file again.  A configuration that does not parse, names an
 * exclusion or a family wrongly, or leaves nothing to count on this host
 * changes nothing.  Otherwise the settings change in place and the counter
 * groups are planned again (families, count_modes, the host's counter
 * budget: replan.c).  -errno when no counter groups could be opened again:
 * the daemon stops (its service manager restarts it). */
int reload_config(struct daemon *d)
{
	struct exclusions x;
	struct plan next;
	struct config n;
	char err[2048];
	int r;

	notify_send(&d->notify, "RELOADING=1");
	if (d->reload(&n, err, sizeof(err)) < 0 ||
	    exclude_parse(&x, n.exclude_comm, n.exclude_unit, n.exclude_user, err,
			  sizeof(err)) < 0 ||
	    counting_make_plan(d, n.families, n.reserved_counters, &next, err,
			       sizeof(err)) < 0) {
		log_error("reload: %s; keeping the running configuration", err);
		notify_send(&d->notify, "READY=1\nSTATUS=reload failed: %s", err);
		return 0;
	}
	if (strcmp(n.database, d->cfg.database) != 0 || strcmp(n.model, d->cfg.model) != 0 ||
	    n.ring_pages != d->cfg.ring_pages || n.switch_event != d->cfg.switch_event)
		log_warning("reload: %s take effect only at a restart; ignoring their change",
			    CONFIG_RESTART_KEYS);
	d->excl = x;
	memcpy(d->cfg.exclude_comm, n.exclude_comm, sizeof(n.exclude_comm));
	memcpy(d->cfg.exclude_unit, n.exclude_unit, sizeof(n.exclude_unit));
	memcpy(d->cfg.exclude_user, n.exclude_user, sizeof(n.exclude_user));
	apply_settings(d, &n);
	r = replan_apply(d, &n, &next);
	if (r < 0) {
		notify_send(&d->notify, "STOPPING=1\nSTATUS=no counter groups could be opened");
		return r;
	}
	/* next was planned with it: once in force, it holds them back */
	if (r > 0) {
		memcpy(d->cfg.reserved_counters, n.reserved_counters,
		       sizeof(n.reserved_counters));
		/* the groups may be others now: their refusals start again */
		memset(d->held.refusals, 0, sizeof(d->held.refusals));
	}
	meta_write(d);
	log_info("configuration reloaded");
	notify_send(&d->notify, "READY=1");
	return 0;
}

