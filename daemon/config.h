/*
 * config.h - stackd's settings: built-in defaults, then the config file,
 * then command-line flags.  One table (config.c) names every key, its
 * parser, its limits and its help, and serves the file, the flags and the
 * `stackd -n` printout alike.
 */
#ifndef STACKD_CONFIG_H
#define STACKD_CONFIG_H

#include "collector.h"
#include "log.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define STACKD_DEFAULT_CONFIG "/etc/stackd/stackd.conf"

struct config {
	char database[PATH_MAX];
	uint64_t interval_ns;            /* flush: one stored interval each */
	uint64_t rotate_period_ns;       /* group rotation and per-CPU read point */
	unsigned ring_pages;             /* ring data pages per CPU */
	char model[32];                  /* "auto" or a model name */
	enum switch_position switch_event;
	enum log_level log_level;
	unsigned retry_buffer;           /* intervals kept while the database fails */
	uint64_t switch_rate_warning;    /* switches/s on one CPU that earn a warning */
};

/* Keys that only take effect at start (SIGHUP cannot change them). */
#define CONFIG_RESTART_KEYS "database, model, ring_pages, switch_event"

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

#endif
