/*
 * config.h - stackd's settings: built-in defaults, then the config file,
 * then command-line flags.  One table (config.c) names every key, its
 * parser, its limits and its help, and serves the file, the flags and the
 * `stackd -n` printout alike.
 */
#ifndef STACKD_CONFIG_H
#define STACKD_CONFIG_H

#include "daemon/store/writer.h"
#include "lib/paths.h"

#include "daemon/collect/collector.h"
#include "daemon/base/log.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define STACKD_DEFAULT_CONFIG "/etc/stackd/stackd.conf"

/* periodic_hz's range when pinned: no slower than the automatic rate's
 * floor (cost_budget.h's slowest clock), no faster than 10 kHz. */
#define PERIODIC_HZ_MIN 100u
#define PERIODIC_HZ_MAX 10000u

struct config {
	bool allow_second;               /* --allow-second (a flag, not a key) */
	char database[PATH_MAX];
	uint64_t interval_ns;            /* flush: one stored interval each */
	uint64_t rotate_period_ns;       /* group rotation and per-CPU read point */
	unsigned ring_pages;             /* ring data pages per CPU */
	char model[32];                  /* "auto" or a model name */
	enum switch_position switch_event;
	enum log_level log_level;
	unsigned retry_buffer;           /* intervals kept while the database fails */
	uint64_t switch_rate_warning;    /* switches/s on one CPU that earn a warning */
	unsigned periodic_hz;            /* periodic mode's clock rate; 0: from its cost,
					  * else PERIODIC_HZ_MIN..PERIODIC_HZ_MAX */
	double max_sampling_cost;        /* share of one CPU sampling switches may take
					  * before the CPU samples periodically; 0: no cap */
	uint64_t retention_ns[4];        /* raw intervals, minute, hour and day rollups kept */
	unsigned max_database_mb;        /* size cap: oldest data goes first; 0: none */
	char families[512];              /* "auto", "all", or families to collect (families.h) */
	char reserved_counters[8];       /* "auto", or general counters left to other tools */
	char count_modes[32];            /* "user,kernel", "user" or "kernel" */
	char exclude_comm[1024];         /* processes folded into [excluded] (exclude.h) */
	char exclude_unit[1024];
	char exclude_user[1024];
	char kubelet_pods_dir[PATH_MAX];  /* pods' and containers' names (container.h) */
	/* HTTP (http_server.h) */
	char listen[1024];               /* comma-separated addresses, or "none" */
	char web_dir[PATH_MAX];          /* the dashboard's files; "builtin": stackd's own copy; "none": no page */
	char user[64];                   /* started as root: become this user ("root": stay) */
	char http_full_access[1024];     /* users (names or uids) who see every process */
	char http_anonymous[8];          /* "none" or "all": peers that cannot be identified */
	unsigned http_max_connections;
	char http_allowed_hosts[1024];   /* Host names besides localhost and our addresses */
	uint64_t http_query_cpu_ns;      /* CPU time one uncached answer may take */
	unsigned prometheus_max_keys;    /* command names and units each, before "[other]" */
	unsigned prometheus_top_processes;
	unsigned prometheus_top_comms;   /* printed in /metrics, besides [other] */
	unsigned prometheus_top_units;
	unsigned prometheus_per_cpu;     /* 1: stackd_cpu_sampling_periodic{cpu} */
};

#define STACKD_DEFAULT_LISTEN STACKD_DEFAULT_TCP ",unix:" STACKD_DEFAULT_SOCKET
#define STACKD_DEFAULT_WEB_DIR "builtin"

/* Keys that only take effect at start (SIGHUP cannot change them). */
#define CONFIG_RESTART_KEYS "database, model, ring_pages, switch_event, listen, user, web_dir, kubelet_pods_dir, http_*, prometheus_*"

void config_defaults(struct config *c);

/* Set key from text.  Returns 0, or -EINVAL/-ENOENT with a one-line reason
 * in err ("invalid duration 'x' (expected e.g. 1s, 500ms)"). */
int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen);

/* Read "key = value" lines (# comments).  On error err says
 * "FILE:LINE: key: reason" and c may be partly changed (use a copy). */
int config_load_file(struct config *c, const char *path, char *err, size_t errlen);

/* The effective configuration, in the file's own syntax. */
void config_print(const struct config *c, FILE *f);

/* One line per key for --help and the man page: "key  help (default)". */
void config_print_keys(FILE *f);

/* count_modes as two flags. */
void config_count_modes(const struct config *c, bool *user, bool *kernel);

/* http_full_access as uids; -EINVAL with err naming an unknown user. */
int config_full_access_uids(const struct config *c, uid_t *uids, size_t max, size_t *n,
			    char *err, size_t errlen);

/* The writer's settings from c (whose database path must outlive it). */
void config_writer_options(const struct config *c, struct writer_options *o);

#endif
