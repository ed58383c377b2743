/*
 * log.c - see log.h.  Under systemd (JOURNAL_STREAM names our stderr) each
 * line starts with its syslog priority, "<4>", so the journal keeps levels
 * and adds its own timestamp and program name; elsewhere lines read
 * "stackd: warning: ...".
 */
#include "daemon/base/log.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Set by log_init() alone, which main() calls before any thread starts
 * (pthread_create orders that write before every thread's reads), and
 * only read afterwards: plain variables suffice. */
static const char *log_prog = "stackd";
static bool log_journal;
/* Read by every thread (log_enabled) and written by the main thread at a
 * reload (log_set_level): atomic, so that is no data race and no read is
 * torn.  Relaxed is enough: the level guards no other data, so nothing
 * needs ordering against it, and a thread that sees a new level a moment
 * late only logs, or skips, a line or two more. */
static atomic_int log_level = LOG_LEVEL_INFO;

static const char *const level_names[_LOG_LEVEL_MAX] = {
	[LOG_LEVEL_ERROR] = "error",
	[LOG_LEVEL_WARNING] = "warning",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

static const int syslog_priority[_LOG_LEVEL_MAX] = { 3, 4, 6, 7 };

static bool stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (js == NULL || sscanf(js, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(2, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void log_init(const char *prog, enum log_level level)
{
	log_prog = prog;
	atomic_store_explicit(&log_level, (int)level, memory_order_relaxed);
	log_journal = stderr_is_journal();
}

void log_set_level(enum log_level level)
{
	atomic_store_explicit(&log_level, (int)level, memory_order_relaxed);
}

bool log_enabled(enum log_level level)
{
	return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

const char *log_level_name(enum log_level level)
{
	return level < _LOG_LEVEL_MAX ? level_names[level] : "?";
}

int log_level_parse(const char *name, enum log_level *ret)
{
	int i;

	for (i = 0; i < _LOG_LEVEL_MAX; i++) {
		if (strcmp(name, level_names[i]) == 0) {
			*ret = (enum log_level)i;
			return 0;
		}
	}
	return -EINVAL;
}

static void vlog(enum log_level level, const char *fmt, va_list ap, const char *suffix)
{
	char line[2048];
	int saved = errno;

	vsnprintf(line, sizeof(line), fmt, ap);
	if (log_journal)
		fprintf(stderr, "<%d>%s%s\n", syslog_priority[level], line, suffix);
	else if (level == LOG_LEVEL_INFO)
		fprintf(stderr, "%s: %s%s\n", log_prog, line, suffix);
	else
		fprintf(stderr, "%s: %s: %s%s\n", log_prog, level_names[level], line, suffix);
	errno = saved;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vlog(level, fmt, ap, "");
	va_end(ap);
}

int log_error_r(int r, const char *fmt, ...)
{
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), ": %s", strerror(r < 0 ? -r : r));
	va_start(ap, fmt);
	vlog(LOG_LEVEL_ERROR, fmt, ap, suffix);
	va_end(ap);
	return r;
}

#define LOG_THROTTLE_NS (60ULL * NS_PER_SEC)

bool log_throttle(uint64_t *last, uint64_t now)
{
	if (*last != 0 && now - *last < LOG_THROTTLE_NS)
		return false;
	*last = now;
	return true;
}
