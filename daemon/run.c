/*
 * run.c - the running daemon.  See run.h.
 *
 * Threads: one worker per CPU (worker.c) samples and attributes; this, the
 * main thread, flushes every interval, writes SQLite (writer.c) and handles
 * signals.  A slow or failing database therefore never stalls sampling:
 * intervals that cannot be written wait in memory (up to retry_buffer of
 * them) and go out with the next write that succeeds.
 */
#include "daemon/run_private.h"
#include "lib/clock.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/cpulist.h"
#include "daemon/collect/event_encode.h"
#include "daemon/attribute/exclude.h"
#include "daemon/plan/families.h"
#include "daemon/collect/flush.h"
#include "daemon/serve/http_server.h"
#include "daemon/instance.h"
#include "daemon/base/log.h"
#include "daemon/attribute/proctab.h"
#include "daemon/notify.h"
#include "daemon/plan/plan_print.h"
#include "daemon/privilege.h"
#include "daemon/serve/prom.h"
#include "daemon/store/store.h"
#include "daemon/collect/worker.h"
#include "daemon/store/writer.h"
#include "lib/db.h"
#include "lib/duration.h"
#include "lib/sampling_cost.h"
#include "lib/version.h"

#include <errno.h>
#include <pwd.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int run_pick_model(const char *name, const struct model **ret, char *why, size_t len)
{
	char hw[256];
	const char *pmu;

	if (strcmp(name, "auto") != 0) {
		*ret = model_find(name);
		if (*ret == NULL) {
			snprintf(why, len, "unknown model '%s'", name);
			return -ENOENT;
		}
		snprintf(why, len, "model '%s' (from the configuration)", name);
		return 0;
	}
	pmu = event_encode_host_pmu();
	if (collector_probe_hardware(hw, sizeof(hw)) < 0) {
		snprintf(why, len, "no usable hardware PMU here (%s; libpfm4 sees %s): "
			 "using the software model", hw, pmu ? pmu : "no core PMU");
	} else if (pmu != NULL && model_for_pmu(pmu) != NULL) {
		*ret = model_for_pmu(pmu);
		snprintf(why, len, "hardware PMU '%s'", pmu);
		return 0;
	} else {
		snprintf(why, len, "hardware PMU '%s' has no model in this stackd: "
			 "using the software model", pmu ? pmu : "unknown");
	}
	*ret = &model_software;
	return 0;
}

/* What the plan says of each family that is not collected whole: once, at
 * start, in the log (stackd --plan and /api/v1/system say it too). */
void run_log_plan(const struct plan *p)
{
	unsigned f;

	for (f = 0; f < p->model->n_groups; f++) {
		const struct plan_family *pf = &p->families[f];

		if (!pf->wanted || pf->why[0] == '\0')
			continue;
		if (pf->collected)
			log_info("family %s: %s", p->model->groups[f].name, pf->why);
		else
			log_warning("family %s: %s%s", p->model->groups[f].name, pf->why,
				    p->budget.watchdog_on ? "; sysctl kernel.nmi_watchdog=0 frees a "
				    "counter" : "");
	}
}

/* The plan as JSON, for meta "plan"; "" when out of memory. */
static char *plan_json_text(const struct plan *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw j;

	if (f == NULL)
		return NULL;
	jsonw_init(&j, f);
	plan_print_json(&j, p);
	if (fclose(f) != 0 || jsonw_done(&j) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void run_write_meta(struct daemon *d)
{
	char interval[32], rotate[32], started[32], pid[16], ncpus[16], ring[16], groups[512];
	char cost[32] = "", cost_at[32] = "", clock_cost[32] = "", clock_hz[32];
	char count_cost[32] = "";
	char host[256] = "";
	char *plan = plan_json_text(&d->plan);
	size_t used = 0;
	unsigned g;

	gethostname(host, sizeof(host) - 1);
	if (d->calib.method[0] != '\0' && d->calib.cost_ns >= 0)
		snprintf(cost, sizeof(cost), "%.0f", d->calib.cost_ns);
	if (d->calib.clock_method[0] != '\0' && d->calib.clock_sample_ns >= 0)
		snprintf(clock_cost, sizeof(clock_cost), "%.0f", d->calib.clock_sample_ns);
	if (d->calib.clock_method[0] != '\0' && d->calib.switch_count_ns >= 0)
		snprintf(count_cost, sizeof(count_cost), "%.0f", d->calib.switch_count_ns);
	snprintf(clock_hz, sizeof(clock_hz), "%.1f",
		 (double)NS_PER_SEC / (double)run_clock_period_ns(d));
	if (d->calib.at_ns != 0) {
		time_t at = (time_t)(d->calib.at_ns / NS_PER_SEC);
		struct tm tm;

		if (gmtime_r(&at, &tm) != NULL)
			strftime(cost_at, sizeof(cost_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}

	duration_format(d->cfg.interval_ns, interval, sizeof(interval));
	duration_format(d->cfg.rotate_period_ns, rotate, sizeof(rotate));
	snprintf(started, sizeof(started), "%" PRIu64, d->started_ns);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(ncpus, sizeof(ncpus), "%zu", d->n_workers);
	snprintf(ring, sizeof(ring), "%u", d->cfg.ring_pages);
	groups[0] = '\0';
	for (g = 0; g < d->model->n_groups; g++) {
		int n;

		if (!d->plan.families[g].collected)
			continue;   /* "groups": the ones collected */
		n = snprintf(groups + used, sizeof(groups) - used, "%s%s", used ? "," : "",
			     d->model->groups[g].name);
		if (n > 0 && (size_t)n < sizeof(groups) - used)
			used += (size_t)n;
	}
	{
		const char *kv[] = {
			"version", STACKD_VERSION,
			"model", d->model->name,
			"model_reason", d->model_why,
			"groups", groups,
			"interval", interval,
			"rotate_period", rotate,
			"ring_pages", ring,
			"switch_event", d->cfg.switch_event == SWITCH_MEMBER ? "member" : "leader",
			"count_modes", d->cfg.count_modes,
			"exclude_comm", d->cfg.exclude_comm,
			"exclude_unit", d->cfg.exclude_unit,
			"exclude_user", d->cfg.exclude_user,
			"ncpus", ncpus,
			"smt", d->plan.budget.smt_on ? "on" : "off",
			"plan", plan != NULL ? plan : "",
			"pid", pid,
			"started_ns", started,
			"host", host,
			/* "": not measured (yet), lib/sampling_cost.h's figure */
			"sampling_cost_ns", cost,
			"sampling_cost_method", d->calib.method,
			/* RFC 3339, UTC: when that figure was measured */
			"sampling_cost_calibrated_at", cost_at,
			/* "": not measured; what one periodic sample costs,
			 * and the rate periodic mode samples at for it */
			"clock_sample_cost_ns", clock_cost,
			"switch_count_cost_ns", count_cost,
			"clock_sample_cost_method", d->calib.clock_method,
			"periodic_hz", clock_hz,
		};
		char err[512];

		if (writer_store(&d->w) != NULL &&   /* else written when the store is open again */
		    store_set_meta(writer_store(&d->w), kv, sizeof(kv) / sizeof(kv[0]) / 2, err,
				   sizeof(err)) < 0)
			log_warning("cannot record daemon facts in the database: %s", err);
	}
	free(plan);
}

/* The writer opened the database anew: the daemon's facts go in the new
 * file too. */
static void reopened(void *ctx)
{
	run_write_meta(ctx);
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

/* Say what went wrong with collection, at most once a minute per kind. */
/* A log line when the attributed share crosses the threshold, each way. */
static void report_attribution(struct daemon *d, const struct interval_data *iv)
{
	double cpu = interval_attributed_share(iv, false);
	double sw = interval_attributed_share(iv, true);
	uint64_t span = iv->end_ns > iv->start_ns ? iv->end_ns - iv->start_ns : 0;
	double lost_of_all = span > 0 && iv->ncpus > 0 ?
		(1.0 - cpu) * (double)interval_busy_ns(iv) / ((double)span * iv->ncpus) : 0.0;
	bool low = attribution_is_low(cpu, lost_of_all, sw);

	if (low && !d->attribution_low)
		log_warning("attributed share below %.0f%%: %.1f%% of the busy CPU time and %.1f%% "
			    "of the context switches of this interval went to a process; figures "
			    "miss part of the host's work (stackctl status says where it went)",
			    100.0 * ATTRIBUTED_WARN_BELOW, 100.0 * cpu, 100.0 * sw);
	else if (!low && d->attribution_low)
		log_info("attributed share back above %.0f%% (%.1f%% of busy CPU time, %.1f%% of "
			 "switches)", 100.0 * ATTRIBUTED_WARN_BELOW, 100.0 * cpu, 100.0 * sw);
	d->attribution_low = low;
}

static void report_health(struct daemon *d, const struct interval_data *iv)
{
	uint64_t now = monotonic_ns();

	if (iv->st.lost_records > 0 && log_throttle(&d->warned_lost, now))
		log_warning("ring buffers overflowed: %" PRIu64 " samples lost in %" PRIu64
			    " records this interval; their counts are stored as unattributed "
			    "(raise ring_pages, now %u)", iv->st.lost_samples, iv->st.lost_records,
			    d->cfg.ring_pages);
	if (d->cfg.switch_rate_warning > 0 && iv->st.max_cpu_switch_rate > d->cfg.switch_rate_warning &&
	    log_throttle(&d->warned_rate, now))
		log_warning("cpu %d: %" PRIu64 " context switches/s; sampling each costs about "
			    "%.0f%% of that CPU (about %llu ns per switch)", iv->st.busiest_cpu,
			    iv->st.max_cpu_switch_rate,
			    100.0 * sampling_cost_fraction(iv->st.max_cpu_switch_rate,
							   run_sampling_cost_ns(d)),
			    (unsigned long long)run_sampling_cost_ns(d));
	if (iv->st.late_cpus > 0 && log_throttle(&d->warned_late, now))
		log_warning("%" PRIu64 " CPU worker(s) missed the flush; their counts go into "
			    "the next interval", iv->st.late_cpus);
	if (iv->st.straddles > 0 && log_throttle(&d->warned_straddle, now))
		log_info("%" PRIu64 " spans of a reused pid could not be split between its "
			 "processes; stored as unattributed", iv->st.straddles);
	report_attribution(d, iv);
}

/* Each CPU's sampling mode now, for /metrics. */
static void publish_modes(struct daemon *d)
{
	int *cpus = calloc(d->n_workers, sizeof(*cpus));
	bool *periodic = calloc(d->n_workers, sizeof(*periodic));

	if (cpus != NULL && periodic != NULL) {
		for (size_t i = 0; i < d->n_workers; i++) {
			cpus[i] = d->workers[i].ev->cpu;
			periodic[i] = worker_periodic(&d->workers[i]);
		}
		prom_set_cpu_modes(d->prom, cpus, periodic, d->n_workers);
	}
	free(cpus);
	free(periodic);
}

void run_flush(struct daemon *d, bool final)
{
	struct interval_data *iv = NULL;
	uint64_t rate;
	bool recheck;
	size_t ran;
	int r;

	r = flush_run(&d->fl, final, &iv);
	if (r < 0) {
		log_error_r(r, "flush failed; the counts of this interval are lost");
		return;
	}
	if (exclude_apply(&d->excl, iv) < 0)
		log_warning("out of memory folding excluded processes: this interval stores them "
			    "one by one");
	report_health(d, iv);
	recheck = !final && run_recheck_due(d, iv);
	rate = iv->st.max_cpu_switch_rate;
	prom_add_interval(d->prom, iv);
	publish_modes(d);
	ran = iv->n_procs;   /* iv is freed once written */
	writer_add(&d->w, iv);
	writer_flush(&d->w);
	if (!final)
		writer_maintain(&d->w);
	writer_publish(&d->w);
	notify_send(&d->notify, "STATUS=model %s: %zu processes ran in the last interval; "
		    "%" PRIu64 " intervals written%s", d->model->name, ran, writer_written(&d->w),
		    writer_pending(&d->w) > 0 ? ", some waiting: the database cannot be written" :
		    "");
	if (recheck)   /* after the interval is stored: the runs take ~0.4 s */
		run_recheck_cost(d, rate);
}

/* The API, /metrics and the dashboard, in their own threads. */
/* Bind the API's addresses (as root, when started so: a socket under
 * /run/stackd); serve_http starts its threads once privileges are gone. */
static int open_http(struct daemon *d)
{
	struct http_config hc;
	char err[1024];
	int r;

	memset(&hc, 0, sizeof(hc));
	r = prom_new(d->model, &d->plan, d->cfg.prometheus_max_keys, d->cfg.prometheus_top_processes,
		     &d->prom);
	if (r < 0)
		return log_error_r(r, "startup");
	hc.listen = d->cfg.listen;
	hc.web_dir = strcmp(d->cfg.web_dir, "none") == 0 ? "" : d->cfg.web_dir;
	hc.max_connections = d->cfg.http_max_connections;
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
	writer_attach(&d->w, d->http);
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

static int arm_timer(struct daemon *d)
{
	struct itimerspec its;
	uint64_t ns = d->cfg.interval_ns;

	its.it_interval.tv_sec = (time_t)(ns / NS_PER_SEC);
	its.it_interval.tv_nsec = (long)(ns % NS_PER_SEC);
	its.it_value = its.it_interval;
	return timerfd_settime(d->tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

/* The cost the budget works with: the measured one, unless the start's
 * calibration could not resolve it (0: a run with sampling on came out
 * no slower, which noise on a shared host does; seen on the development
 * VM, whose cost is about 1 us).  Sampling a switch is never free, and a
 * budget taking it as free would never act: then the development VM's
 * figure stands in (status still shows the measured one). */
static double budget_cost_ns(const struct daemon *d)
{
	double ns = run_sampling_cost_ns(d);

	return ns > 0 ? ns : (double)SWITCH_SAMPLE_COST_NS;
}

void run_set_budget(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++) {
		worker_set_budget(&d->workers[i], d->cfg.max_sampling_cost, budget_cost_ns(d));
		worker_set_periodic(&d->workers[i], run_clock_period_ns(d), d->calib.clock_sample_ns,
				    d->calib.switch_count_ns);
	}
}

static void log_budget(const struct daemon *d);

/* The settings a reload changes in place. */
static void apply_settings(struct daemon *d, const struct config *n)
{
	uint64_t clock_before = run_clock_period_ns(d);
	bool budget_changed;

	d->cfg.log_level = n->log_level;
	log_set_level(n->log_level);
	d->cfg.retry_buffer = n->retry_buffer;
	memcpy(d->cfg.retention_ns, n->retention_ns, sizeof(n->retention_ns));
	d->cfg.max_database_mb = n->max_database_mb;
	writer_configure(&d->w, &d->cfg);
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
	if (budget_changed || run_clock_period_ns(d) != clock_before) {
		run_set_budget(d);
		log_budget(d);
	}
	if (n->interval_ns != d->cfg.interval_ns) {
		d->cfg.interval_ns = n->interval_ns;
		if (arm_timer(d) < 0)
			log_error("reload: cannot re-arm the flush timer");
	}
}

/* SIGHUP: the file again.  A configuration that does not parse, names an
 * exclusion or a family wrongly, or leaves nothing to count on this host
 * changes nothing.  Otherwise the settings change in place and the counter
 * groups are planned again (families, count_modes, the host's counter
 * budget: replan.c).  -errno when no counter groups could be opened again:
 * the daemon stops (its service manager restarts it). */
static int reload(struct daemon *d)
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
	    run_make_plan(d, n.families, &next, err, sizeof(err)) < 0) {
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
	run_write_meta(d);
	log_info("configuration reloaded");
	notify_send(&d->notify, "READY=1");
	return 0;
}

int run_start_workers(struct daemon *d)
{
	size_t i;
	int r;

	d->workers = calloc(d->col->n_cpus, sizeof(*d->workers));
	if (d->workers == NULL)
		return -ENOMEM;
	for (i = 0; i < d->col->n_cpus; i++) {
		r = worker_init(&d->workers[i], d->col, &d->col->cpus[i], d->cfg.rotate_period_ns,
				(int32_t)getpid());
		if (r < 0)
			return r;
		d->n_workers++;
	}
	run_set_budget(d);
	for (i = 0; i < d->n_workers; i++) {
		r = worker_start(&d->workers[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

void run_stop_workers(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++)
		worker_done(&d->workers[i]);
	free(d->workers);
	d->workers = NULL;
	d->n_workers = 0;
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

static int setup_signals(struct daemon *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Blocked before the workers start, so only signalfd sees them. */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (d->sfd < 0)
		return -errno;
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->tfd < 0)
		return -errno;
	return arm_timer(d);
}

static int loop(struct daemon *d)
{
	struct pollfd pfd[2] = { { d->sfd, POLLIN, 0 }, { d->tfd, POLLIN, 0 } };

	for (;;) {
		/* The watchdog hears from this loop, so a stuck loop stops the pings. */
		int n = poll(pfd, 2, notify_poll_timeout_ms(&d->notify, monotonic_ns()));

		notify_watchdog(&d->notify, monotonic_ns());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_error_r(-errno, "poll");
		}
		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;

			if (read(d->tfd, &expirations, sizeof(expirations)) > 0)
				run_flush(d, false);
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(d->sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo == SIGHUP) {
				int r = reload(d);

				if (r < 0)
					return r;
				continue;
			}
			log_info("%s: writing the interval in flight and stopping",
				 strsignal((int)si.ssi_signo));
			notify_send(&d->notify, "STOPPING=1");
			return 0;
		}
	}
}

/* Undo what run_open() made, however far it got. */
static void run_close(struct daemon *d)
{
	http_server_stop(d->http);   /* its threads read the store: first */
	if (d->instance_fd >= 0)
		close(d->instance_fd);
	if (d->fl_ready)
		flush_done(&d->fl);
	run_stop_workers(d);
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

int run_make_plan(const struct daemon *d, const char *families, struct plan *out, char *err,
		  size_t errlen)
{
	bool off[MODEL_MAX_GROUPS];
	struct plan_budget budget;
	char why[1536];
	int r;

	r = families_parse(d->model, families, off, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "families: %s", why);
		return r;
	}
	plan_detect_budget(d->model, 0, &budget);
	return plan_make(d->model, off, &budget, out, err, errlen);
}

int run_open_collector(struct daemon *d, const struct plan *plan, char *err, size_t errlen)
{
	struct collector_params params;

	memset(&params, 0, sizeof(params));
	params.plan = plan;
	params.switch_position = d->cfg.switch_event;
	params.ring_pages = d->cfg.ring_pages;
	config_count_modes(&d->cfg, &params.count_user, &params.count_kernel);
	return collector_open(&params, &d->col, err, errlen);
}

/* The model's counter groups, as configured; the exclusions. */
static int open_counters(struct daemon *d)
{
	char err[2048];
	int r;

	r = run_make_plan(d, d->cfg.families, &d->plan, err, sizeof(err));
	if (r == 0) {
		run_log_plan(&d->plan);
		r = exclude_parse(&d->excl, d->cfg.exclude_comm, d->cfg.exclude_unit,
				  d->cfg.exclude_user, err, sizeof(err));
	}
	if (r == 0)
		r = run_open_collector(d, &d->plan, err, sizeof(err));
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
	/* The side-band events are already on, so nothing starting from now
	 * is missed; the scan names what was there before. */
	r = proctab_scan(&d->pt);
	if (r < 0)
		log_error_r(r, "cannot scan /proc");
	return r;
}

/* The API's threads, the workers and the flusher: from here on we collect. */
void run_hold_reviews(struct daemon *d, bool on)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++)
		worker_hold_review(&d->workers[i], on);
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
		d->calib.off_per_s = calibrate_pingpong(d->calib.cpu);
	}
	r = run_start_workers(d);
	if (r < 0)
		return log_error_r(r, "cannot start the CPU workers");
	run_hold_reviews(d, true);
	nanosleep(&settle, NULL);
	d->calib.on_per_s = calibrate_pingpong(d->calib.cpu);
	calibrate_finish(&d->calib);
	run_set_budget(d);
	run_hold_reviews(d, false);
	if (d->calib.cost_ns >= 0) {
		d->calib.at_ns = clock_ns(CLOCK_REALTIME);
		calibrate_trigger_init(&d->cost_trigger, d->calib.at_ns);
	}
	prom_set_sampling_cost(d->prom, run_sampling_cost_ns(d), d->calib.cost_ns >= 0);
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

	/* After the signal mask (setup_signals): every thread must leave
	 * SIGTERM to us.  After the privilege drop (run_open): no thread is
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

/* The rate periodic mode samples at, and why: what a clock sample costs. */
static void log_periodic_rate(const struct daemon *d)
{
	const struct calibration *c = &d->calib;
	uint64_t period = run_clock_period_ns(d);
	double hz = (double)NS_PER_SEC / (double)period;
	double share = periodic_cost_fraction(0, 0, hz, c->clock_sample_ns > 0 ? c->clock_sample_ns : 0);

	if (c->clock_sample_ns < 0) {
		log_info("periodic mode samples at %.0f Hz per CPU (%s); its cost here is %s", hz,
			 d->cfg.periodic_hz > 0 ? "periodic_hz" : "the default", c->clock_method);
		return;
	}
	log_info("periodic mode's costs here: %.1f us per clock sample, %.0f ns per counted "
		 "switch (%s)", c->clock_sample_ns / 1e3, c->switch_count_ns, c->clock_method);
	/* share: stackd's own samples, about twice the bare one timed */
	if (period < run_unclamped_period_ns(d))
		log_info("periodic mode samples at %.1f Hz per CPU, faster than %s, so that a "
			 "group's turn of rotate_period holds a clock sample: about %.2f%% of a "
			 "CPU in clock samples", hz, d->cfg.periodic_hz > 0 ? "periodic_hz"
			 : "its cost allows", 100.0 * share);
	else if (d->cfg.periodic_hz > 0 && d->cfg.max_sampling_cost > 0 &&
		 share > d->cfg.max_sampling_cost * COST_BUDGET_CLOCK_SHARE)
		log_warning("periodic mode samples at %.1f Hz per CPU (periodic_hz): about %.2f%% "
			    "of a CPU in clock samples, over half of max_sampling_cost (%.2f%%): "
			    "a periodic CPU may cost more than the budget", hz, 100.0 * share,
			    100.0 * d->cfg.max_sampling_cost);
	else if (d->cfg.periodic_hz > 0)
		log_info("periodic mode samples at %.1f Hz per CPU (periodic_hz): about %.2f%% of "
			 "a CPU in clock samples", hz, 100.0 * share);
	else if (period == COST_BUDGET_SLOWEST_CLOCK_NS &&
		 share > d->cfg.max_sampling_cost * COST_BUDGET_CLOCK_SHARE)
		log_warning("periodic mode samples at its slowest, %.1f Hz per CPU, and its clock "
			    "samples still cost about %.2f%% of a CPU, over half of max_sampling_cost",
			    hz, 100.0 * share);
	else
		log_info("periodic mode samples at %.1f Hz per CPU: about %.2f%% of a CPU in clock "
			 "samples, half of max_sampling_cost at most", hz, 100.0 * share);
}

static void log_budget(const struct daemon *d)
{
	double ns = budget_cost_ns(d);

	if (d->cfg.max_sampling_cost <= 0) {
		log_info("max_sampling_cost off: every context switch is sampled whatever it costs");
		return;
	}
	log_info("max_sampling_cost %.2f%%: a CPU over %.0f context switches/s (at %.0f ns "
		 "each%s) samples periodically instead", 100.0 * d->cfg.max_sampling_cost,
		 d->cfg.max_sampling_cost * (double)NS_PER_SEC / ns, ns,
		 run_sampling_cost_ns(d) > 0 ? "" : ", the development VM's figure: the "
		 "measured one is below what the calibration resolves");
	log_periodic_rate(d);
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
	log_budget(d);
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
	char err[512];
	pid_t holder;
	int r;

	r = instance_claim(d->cfg.allow_second, pw != NULL ? pw->pw_uid : (uid_t)-1,
			   &d->instance_fd, &holder, err, sizeof(err));
	if (r < 0)
		log_error("%s", err);
	else if (holder != 0 || d->instance_fd < 0)
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
 * failure the error is logged and run_close() undoes what was made. */
static int run_open(struct daemon *d, const struct config *cfg, config_reload_fn reload_fn)
{
	char err[2048];
	int r, drop;

	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->reload = reload_fn;
	d->sfd = d->tfd = d->instance_fd = -1;
	writer_init(&d->w, &d->cfg, reopened, d);
	r = notify_init(&d->notify);
	if (r < 0)
		log_warning("NOTIFY_SOCKET='%s' cannot be used (%s); not telling systemd",
			    getenv("NOTIFY_SOCKET"), strerror(-r));
	r = run_pick_model(cfg->model, &d->model, d->model_why, sizeof(d->model_why));
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
		r = setup_signals(d);
		if (r < 0)
			log_error_r(r, "cannot set up signal handling and the flush timer");
	}
	if (r >= 0)
		r = open_http(d);
	if (r < 0)
		return r;
	run_write_meta(d);
	if (drop > 0) {
		r = become_user(d);
		if (r < 0)
			return r;
	}
	r = start_collecting(d);
	if (r < 0)
		return r;
	run_write_meta(d);   /* again: now with the measured sampling cost */
	announce(d, drop);
	return 0;
}

/* Collect until SIGTERM/SIGINT, then write what is in flight; the exit
 * status says whether everything reached the database. */
static int run_serve(struct daemon *d)
{
	bool all_written;
	int r;

	r = loop(d);
	if (d->col != NULL)   /* else a failed re-plan left nothing to flush */
		run_flush(d, true);
	all_written = writer_final_report(&d->w);
	return r < 0 || !all_written ? EXIT_FAILURE : EXIT_SUCCESS;
}

int run_daemon(const struct config *cfg, config_reload_fn reload_fn)
{
	struct daemon d;
	int status = EXIT_FAILURE;

	if (run_open(&d, cfg, reload_fn) == 0)
		status = run_serve(&d);
	run_close(&d);
	return status;
}
