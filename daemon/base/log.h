/*
 * log.h - the daemon's messages, to stderr (the journal under systemd).
 * Only main-program code logs; library-like modules return -errno and a
 * message for their caller to log once.
 */
#ifndef STACKD_LOG_H
#define STACKD_LOG_H

#include <stdbool.h>
#include <stdint.h>

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARNING,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
	_LOG_LEVEL_MAX,
};

void log_init(const char *prog, enum log_level level);
void log_set_level(enum log_level level);
bool log_enabled(enum log_level level);
const char *log_level_name(enum log_level level);
int log_level_parse(const char *name, enum log_level *ret);   /* 0 or -EINVAL */

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Log "<message>: <strerror(-r)>" as an error and return r. */
int log_error_r(int r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True at most once a minute per *last (CLOCK_MONOTONIC of the last true,
 * 0: never): a problem that lasts is said once a minute, not at every
 * interval. */
bool log_throttle(uint64_t *last, uint64_t now);

#define log_error(...)   log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_LEVEL_WARNING, __VA_ARGS__)
#define log_info(...)    log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
/* Arguments are not evaluated when debug is off: the collector loop is hot. */
#define log_debug(...) \
	do { if (log_enabled(LOG_LEVEL_DEBUG)) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__); } while (0)

#endif
