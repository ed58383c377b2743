/*
 * startup.c - see startup.h.
 */
#include "daemon/startup.h"
#include "daemon/cost_report.h"
#include "daemon/counting.h"
#include "daemon/instance.h"
#include "daemon/meta.h"
#include "daemon/model_choice.h"
#include "daemon/privilege.h"
#include "daemon/signals.h"
#include "daemon/base/log.h"
#include "daemon/collect/cpulist.h"
#include "daemon/collect/kernel_ops.h"
#include "daemon/plan/plan_drop.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/duration.h"
#include "lib/sampling_cost.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The writer opened the database anew: the daemon's facts go in the new
 * file too. */
static void reopened(void *ctx)
{
	meta_write(ctx);
}

/* Everything that needs root is open: become cfg.user with CAP_PERFMON
 * only.  Our state files (and the default directories we made) go with
 * us, so the API's readers and the next start as that user can use them. */
static int become_user(struct daemon *d)
{
	char wal[PATH_MAX + 8], shm[PATH_MAX + 8], lock[PATH_MAX + 8], err[1024];
	const char *paths[8];
	size_t n = 0;
	int r;

	snprintf(wal, sizeof(wal), "%s-wal", d->cfg.database);
	snprintf(shm, sizeof(shm), "%s-shm", d->cfg.database);
	paths[n++] = d->cfg.database;
	paths[n++] = wal;
	paths[n++] = shm;
	snprintf(lock, sizeof(lock), "%s.lock", d->cfg.database);
	paths[n++] = lock;
	if (strncmp(d->cfg.database, STACKD_STATE_DIR "/", sizeof(STACKD_STATE_DIR)) == 0)
		paths[n++] = STACKD_STATE_DIR;
	if (strstr(d->cfg.listen, "unix:" STACKD_RUNTIME_DIR "/") != NULL)
		paths[n++] = STACKD_RUNTIME_DIR;
	paths[n] = NULL;
	r = privilege_drop(d->cfg.user, paths, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	else
		log_info("running as %s with CAP_PERFMON only", d->cfg.user);
	return r;
}

/* What the writer tells the API's threads: new data (their caches go),
 * a database file replaced (they open it again). */
static void http_data_changed(void *http)
{
	http_server_data_changed(http);
}

static void http_database_replaced(void *http)
{
	http_server_database_replaced(http);
}

/* Bind the API's addresses (as root, when started so: a socket under
 * /run/stackd); serve_http starts its threads once privileges are gone. */
static int open_http(struct daemon *d)
{
	struct writer_listener listener;
	struct http_config hc;
	char err[1024];
	int r;

	memset(&hc, 0, sizeof(hc));
	r = prom_new(d->model, &d->plan, &(struct prom_limits){
			     .max_keys = d->cfg.prometheus_max_keys,
			     .top_comms = d->cfg.prometheus_top_comms,
			     .top_units = d->cfg.prometheus_top_units,
			     .top_processes = d->cfg.prometheus_top_processes,
			     .per_cpu = d->cfg.prometheus_per_cpu != 0 }, &d->prom);
	if (r < 0)
		return log_error_r(r, "startup");
	hc.listen = d->cfg.listen;
	hc.web_dir = strcmp(d->cfg.web_dir, "none") == 0 ? "" : d->cfg.web_dir;
	hc.max_connections = d->cfg.http_max_connections;
	hc.allowed_hosts = d->cfg.http_allowed_hosts;
	hc.query_cpu_ns = d->cfg.http_query_cpu_ns;
	hc.anonymous_full = strcmp(d->cfg.http_anonymous, "all") == 0;
	r = config_full_access_uids(&d->cfg, hc.full_uids, HTTP_MAX_USERS, &hc.n_full_uids, err,
				    sizeof(err));
	if (r < 0) {
		log_error("http_full_access: %s", err);
		return r;
	}
	hc.info.database = d->cfg.database;
	hc.info.model = d->model;
	hc.info.started_ns = d->started_ns;
	hc.info.interval_ns = d->cfg.interval_ns;
	hc.info.rotate_period_ns = d->cfg.rotate_period_ns;
	hc.prom = d->prom;
	hc.info.in_daemon = true;
	hc.info.writer = writer_box(&d->w);
	r = http_server_open(&hc, &d->http, err, sizeof(err));
	if (r < 0) {
		log_error("%s (change it with --listen, or --listen none)", err);
		return r;
	}
	listener.data_changed = http_data_changed;
	listener.database_replaced = http_database_replaced;
	listener.ctx = d->http;
	writer_attach(&d->w, &listener);
	return 0;
}

static int serve_http(struct daemon *d)
{
	char err[1024];
	int r = http_server_serve(d->http, err, sizeof(err));

	if (r < 0)
		log_error("%s", err);
	else if (d->http != NULL)
		log_info("HTTP API, /metrics and the dashboard on %s", d->cfg.listen);
	return r;
}

/* The model auto falls back to when this host refuses every family of
 * the one chosen (a guest whose vPMU lacks what the CPU's table needs):
 * the generic hardware model where cycles count, else the software model;
 * NULL when there is none lower. */
static const struct model *fallback_model(const struct daemon *d)
{
	char why[256];

	if (strcmp(d->cfg.model, "auto") != 0 || d->model == &model_software)
		return NULL;
	if (d->model->vendor != VENDOR_GENERIC && collector_probe_hardware(why, sizeof(why)) == 0)
		return model_find("generic");
	return &model_software;
}

/* The model's counter groups, as configured; the exclusions.  A family
 * the host refuses is left out (counting_open_collector); a model none of
 * whose families opens gives way to a lower one when auto chose it, with
 * every family the lower one plans (the families setting named the
 * first model's). */
static int open_counters(struct daemon *d)
{
	const char *families = d->cfg.families;
	const struct model *lower;
	char err[2048];
	int r, first;

	r = exclude_parse(&d->excl, d->cfg.exclude_comm, d->cfg.exclude_unit, d->cfg.exclude_user,
			  err, sizeof(err));
	while (r == 0) {
		r = counting_make_plan(d, families, d->cfg.reserved_counters, &d->plan, err,
				       sizeof(err));
		if (r < 0)
			break;
		r = counting_open_collector(d, &d->plan, err, sizeof(err));
		if (r == 0) {
			meta_log_plan(&d->plan);
			break;
		}
		if (d->plan.n_groups > 0 || plan_dropped_families(&d->plan, &first) == 0 ||
		    (lower = fallback_model(d)) == NULL)
			break;
		log_warning("this host refused every family of model %s; model auto: counting "
			    "with model %s instead", d->model->name, lower->name);
		snprintf(d->model_why + strlen(d->model_why),
			 sizeof(d->model_why) - strlen(d->model_why),
			 "; this host refused every family of %s: model %s instead", d->model->name,
			 lower->name);
		d->model = lower;
		families = "auto";
		r = 0;
	}
	if (r < 0)
		log_error("%s", err);
	return r;
}

/* The process table, filled from /proc. */
static int open_proctab(struct daemon *d)
{
	long hz = sysconf(_SC_CLK_TCK);
	int64_t boot_minus_mono = (int64_t)(clock_ns(CLOCK_BOOTTIME) - monotonic_ns());
	int r;

	r = proctab_init(&d->pt, "/proc", hz > 0 ? NS_PER_SEC / (uint64_t)hz : 10 * NS_PER_MSEC,
			 boot_minus_mono);
	if (r < 0)
		return log_error_r(-ENOMEM, "startup");
	d->pt_ready = true;
	if (proctab_set_pods_dir(&d->pt, d->cfg.kubelet_pods_dir) < 0)
		return log_error_r(-ENOMEM, "startup");
	/* The side-band events are already on, so nothing starting from now
	 * is missed; the scan names what was there before. */
	r = proctab_scan(&d->pt);
	if (r < 0)
		log_error_r(r, "cannot scan /proc");
	return r;
}

/* The start's runs with sampling, on the calibration's CPU: its worker's
 * time reading the samples counts as theirs (calibrate.h). */
static void calibrate_with_sampling(struct daemon *d)
{
	struct worker *w = worker_of_cpu(d->workers, d->n_workers, d->calib.cpu);
	clockid_t worker_clock;
	bool beside = worker_cpu_clock(w, &worker_clock) == 0;

	d->calib.on_per_s = calibrate_pingpong(d->calib.cpu, beside ? &worker_clock : NULL,
					       &d->calib.on_runs);
	calibrate_finish(&d->calib);
	if (d->calib.cost_ns >= 0 && !d->calib.credible)
		log_warning("the start's sampling-cost calibration ran under load: %.0f ns per "
			    "switch is an estimate (%s)", d->calib.cost_ns, d->calib.method);
	if (d->calib.clock_sample_ns >= 0 && !d->calib.periodic_credible)
		log_warning("the start's timing of periodic mode ran under load: its costs are "
			    "estimates (%s)", d->calib.clock_method);
}

/* The workers, with what sampling a switch costs here measured around
 * their start: without sampling before (calibrate_before_counters), with
 * it once they run (calibrate.h; 0.2 s of one CPU here, 0.7 s in all).
 * The switch-record review waits
 * meanwhile: the burst is not this host's rate. */
static int start_workers_calibrated(struct daemon *d)
{
	struct timespec settle = { 0, 20 * 1000 * 1000 };   /* the groups enabled */
	int r;

	/* off_per_s was measured before the counters opened; a CPU gone
	 * since (hot-unplug) is measured again, here */
	if (d->calib.cpu != d->col->cpus[d->col->n_cpus - 1].cpu || d->calib.off_per_s <= 0) {
		d->calib.cpu = d->col->cpus[d->col->n_cpus - 1].cpu;
		d->calib.off_per_s = calibrate_pingpong(d->calib.cpu, NULL, &d->calib.off_runs);
	}
	r = counting_start_workers(d);
	if (r < 0)
		return log_error_r(r, "cannot start the CPU workers");
	counting_hold_reviews(d, true);
	nanosleep(&settle, NULL);
	calibrate_with_sampling(d);
	counting_set_budget(d);
	counting_hold_reviews(d, false);
	if (d->calib.cost_ns >= 0) {
		d->calib.at_ns = clock_ns(CLOCK_REALTIME);
		calibrate_trigger_init(&d->cost_trigger, d->calib.at_ns, d->calib.credible);
	}
	prom_set_sampling_cost(d->prom, daemon_sampling_cost_ns(d), d->calib.cost_ns >= 0);
	return 0;
}

/* Collection starts now: what the workers counted so far is the
 * calibration's own bouncing (a burst of ~500,000 switches/s on one CPU,
 * that would read as this host's) and the start's partial spans; it is
 * cut off and dropped, so the first interval begins after it. */
static void drop_start_cut(struct daemon *d)
{
	struct interval_data *iv;

	if (flush_run(&d->fl, false, &iv) == 0)
		interval_free(iv);
}

static int start_collecting(struct daemon *d)
{
	int r;

	/* After the signal mask (signals_setup): every thread must leave
	 * SIGTERM to us.  After the privilege drop (startup_open): no thread is
	 * born with more than CAP_PERFMON (capabilities and the bounding set
	 * are per thread). */
	r = serve_http(d);
	if (r < 0)
		return r;
	r = start_workers_calibrated(d);
	if (r < 0)
		return r;
	r = flush_init(&d->fl, d->col, d->workers, d->n_workers, &d->pt, d->started_ns);
	if (r < 0)
		return log_error_r(-ENOMEM, "startup");
	d->fl_ready = true;
	drop_start_cut(d);
	return 0;
}

static void report_workers(struct daemon *d)
{
	size_t i;
	int setup = 0;

	/* Give the threads a moment to pin themselves before we look. */
	usleep(20000);
	for (i = 0; i < d->n_workers; i++)
		if (d->workers[i].setup_error != 0)
			setup = d->workers[i].setup_error;
	if (setup != 0)
		log_warning("a CPU worker could not pin itself to its CPU (%s): group rotation "
			    "remainders may be misattributed", strerror(setup));
}

/* Said only once started, so a failed start prints its one error line alone. */
static void announce(struct daemon *d, int drop)
{
	char interval[32], rotate[32];

	log_info("%s", d->model_why);
	if (d->calib.cost_ns >= 0)
		log_info("sampling a context switch costs about %.0f ns here (%s)", d->calib.cost_ns,
			 d->calib.method);
	else
		log_warning("sampling cost %s: figures use %llu ns per switch, the development "
			    "VM's", d->calib.method, SWITCH_SAMPLE_COST_NS);
	cost_report_log(d);
	if (geteuid() == 0 && drop == 0)
		log_warning("running as root with every capability (user = root); CAP_PERFMON "
			    "alone is enough: see --user");
	report_workers(d);
	duration_format(d->cfg.interval_ns, interval, sizeof(interval));
	duration_format(d->cfg.rotate_period_ns, rotate, sizeof(rotate));
	log_info("collecting on %zu CPUs: model '%s', %u counter groups rotating every "
		 "%s, one interval every %s, into %s", d->n_workers, d->model->name,
		 d->plan.n_groups, rotate, interval, d->cfg.database);
	/* Ready: counters open, store written to, API listening. */
	notify_send(&d->notify, "READY=1\nSTATUS=collecting on %zu CPUs: model %s, %u "
		    "counter groups", d->n_workers, d->model->name, d->plan.n_groups);
}

/* One stackd per host, unless --allow-second (instance.h). */
static int claim_host(struct daemon *d)
{
	const struct passwd *pw = getpwnam(d->cfg.user);
	char err[512] = "";
	pid_t holder;
	int r;

	r = instance_claim(d->cfg.allow_second, pw != NULL ? pw->pw_uid : (uid_t)-1,
			   d->instance_fds, &holder, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	else if (err[0] != '\0')
		log_warning("%s", err);
	return r;
}

/* The calibration's runs without sampling and beside periodic mode's
 * events (calibrate.h), on the last online CPU, before any counter of ours
 * is open: an open context-switch event of anyone's makes the kernel run
 * its software-event hook on every switch of every CPU, and that is part of
 * what counting switches costs, which the runs must see. */
static void calibrate_before_counters(struct daemon *d)
{
	int *cpus = NULL;
	size_t n = 0;

	d->calib.cpu = -1;
	if (cpulist_online(&cpus, &n) == 0 && n > 0)
		d->calib.cpu = cpus[n - 1];
	free(cpus);
	calibrate_periodic_runs(&d->calib, &kernel_ops_linux);
	calibrate_finish_periodic(&d->calib);
}

/* Everything up to READY=1, in an order that fails before anything is
 * written where it can: the host claimed, counters, then the store.  The
 * model, the user and the families were checked by preflight_check()
 * (main.c) before the start; here they are only taken for their values (a
 * failure would mean run_daemon() was called without that check).  On
 * failure the error is logged and startup_close() undoes what was made. */
int startup_open(struct daemon *d, const struct config *cfg, config_reload_fn reload_fn)
{
	struct writer_options wo;
	char err[2048];
	int r, drop;

	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->reload = reload_fn;
	d->sfd = d->tfd = d->instance_fds[0] = d->instance_fds[1] = -1;
	config_writer_options(&d->cfg, &wo);   /* d->cfg: its path outlives the writer */
	writer_init(&d->w, &wo, reopened, d);
	r = notify_init(&d->notify);
	if (r < 0)
		log_warning("NOTIFY_SOCKET='%s' cannot be used (%s); not telling systemd",
			    getenv("NOTIFY_SOCKET"), strerror(-r));
	r = model_choose(cfg->model, &d->model, d->model_why, sizeof(d->model_why));
	d->pmu_slots = model_choice_host_facts(d->cpuid, sizeof(d->cpuid));
	if (r < 0) {
		log_error("model: %s", d->model_why);
		return r;
	}
	/* Started as root: become the configured user once what needs root
	 * is open (become_user). */
	drop = privilege_check(cfg->user, err, sizeof(err));
	if (drop < 0) {
		log_error("%s", err);
		return drop;
	}
	r = claim_host(d);
	if (r < 0)
		return r;
	calibrate_before_counters(d);
	/* Counters first: a host where we may not count gets a clear error
	 * before anything is written to disk. */
	r = open_counters(d);
	if (r >= 0)
		r = writer_open(&d->w, d->model, &d->plan, &d->started_ns);
	if (r >= 0)
		r = open_proctab(d);
	if (r >= 0) {
		r = signals_setup(d);
		if (r < 0)
			log_error_r(r, "cannot set up signal handling and the flush timer");
	}
	if (r >= 0)
		r = open_http(d);
	if (r < 0)
		return r;
	meta_write(d);
	if (drop > 0) {
		r = become_user(d);
		if (r < 0)
			return r;
	}
	r = start_collecting(d);
	if (r < 0)
		return r;
	meta_write(d);   /* again: now with the measured sampling cost */
	announce(d, drop);
	return 0;
}

/* Undo what startup_open() made, however far it got. */
void startup_close(struct daemon *d)
{
	http_server_stop(d->http);   /* its threads read the store: first */
	for (int i = 0; i < 2; i++)
		if (d->instance_fds[i] >= 0)
			close(d->instance_fds[i]);
	if (d->fl_ready)
		flush_done(&d->fl);
	counting_stop_workers(d);
	writer_close(&d->w);
	prom_free(d->prom);
	collector_close(d->col);
	if (d->pt_ready)
		proctab_done(&d->pt);
	notify_done(&d->notify);
	if (d->sfd >= 0)
		close(d->sfd);
	if (d->tfd >= 0)
		close(d->tfd);
}

