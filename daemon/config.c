/*
 * config.c - see config.h.
 */
#include "daemon/config.h"
#include "daemon/attribute/exclude.h"
#include "daemon/plan/families.h"
#include "daemon/attribute/users.h"
#include "daemon/serve/http_host.h"
#include "daemon/serve/http_server.h"
#include "lib/db.h"
#include "lib/duration.h"
#include "lib/clock.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum key_type {
	KEY_PATH, KEY_DURATION, KEY_UINT, KEY_U64, KEY_WORD, KEY_SWITCH, KEY_LOG_LEVEL,
	KEY_TEXT,   /* free text up to the field's size, checked by check() */
	KEY_SHARE,  /* a share of one CPU: 2% or 0.02; 0 or off: none (a double) */
};

struct config_key {
	const char *name;
	enum key_type type;
	size_t offset;
	uint64_t min, max;    /* durations in ns, numbers as is */
	bool power_of_two;
	const char *help;
	size_t size;          /* KEY_TEXT: the field's size */
	int (*check)(const char *value, char *err, size_t errlen);
};

static int check_listen(const char *value, char *err, size_t errlen)
{
	char copy[1024], *save = NULL, *item;
	struct sockaddr_storage addr;
	socklen_t len;
	unsigned n = 0;

	if (strcmp(value, "none") == 0)
		return 0;
	snprintf(copy, sizeof(copy), "%s", value);
	for (item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
		while (*item == ' ')
			item++;
		if (++n > HTTP_MAX_LISTENERS) {
			snprintf(err, errlen, "at most %d addresses (got more in '%s')",
				 HTTP_MAX_LISTENERS, value);
			return -EINVAL;
		}
		if (http_server_parse_listen(item, &addr, &len, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}

static int check_users(const char *value, char *err, size_t errlen)
{
	struct config c;
	uid_t uids[HTTP_MAX_USERS];
	size_t n;

	memset(&c, 0, sizeof(c));
	snprintf(c.http_full_access, sizeof(c.http_full_access), "%s", value);
	return config_full_access_uids(&c, uids, HTTP_MAX_USERS, &n, err, errlen);
}

static int check_anonymous(const char *value, char *err, size_t errlen)
{
	if (strcmp(value, "none") == 0 || strcmp(value, "all") == 0)
		return 0;
	snprintf(err, errlen, "invalid value '%s' (expected none or all)", value);
	return -EINVAL;
}

static int check_hosts(const char *value, char *err, size_t errlen)
{
	struct http_hosts h;

	return http_hosts_parse(value, &h, err, errlen);
}

static int check_web_dir(const char *value, char *err, size_t errlen)
{
	if (strcmp(value, "none") == 0 || strcmp(value, "builtin") == 0 || value[0] == '/')
		return 0;
	snprintf(err, errlen, "invalid directory '%s' (expected builtin, an absolute path, or none)",
		 value);
	return -EINVAL;
}

static int check_families(const char *value, char *err, size_t errlen)
{
	return families_check_syntax(value, err, errlen);
}

static int check_count_modes(const char *value, char *err, size_t errlen)
{
	if (strcmp(value, "user,kernel") == 0 || strcmp(value, "kernel,user") == 0 ||
	    strcmp(value, "user") == 0 || strcmp(value, "kernel") == 0)
		return 0;
	snprintf(err, errlen, "invalid value '%s' (expected user,kernel or user or kernel)", value);
	return -EINVAL;
}

static int check_exclude_comm(const char *value, char *err, size_t errlen)
{
	struct exclusions x;

	return exclude_parse(&x, value, "", "", err, errlen);
}

static int check_exclude_unit(const char *value, char *err, size_t errlen)
{
	struct exclusions x;

	return exclude_parse(&x, "", value, "", err, errlen);
}

static int check_exclude_user(const char *value, char *err, size_t errlen)
{
	struct exclusions x;

	return exclude_parse(&x, "", "", value, err, errlen);
}

static int parse_uint(const char *value, uint64_t *ret);

/* 0 (automatic) or at least PERIODIC_HZ_MIN: a slower clock would fire
 * at most once in a group's turn, or never (each turn redraws its period
 * from the enable on), and the time between would wait for a sample. */
static int check_periodic_hz(const char *value, char *err, size_t errlen)
{
	uint64_t v;

	if (parse_uint(value, &v) == 0 &&
	    (v == 0 || (v >= PERIODIC_HZ_MIN && v <= PERIODIC_HZ_MAX)))
		return 0;
	snprintf(err, errlen, "%s is out of range (0 for automatic, or %u..%u)", value,
		 PERIODIC_HZ_MIN, PERIODIC_HZ_MAX);
	return -EINVAL;
}

#define TEXT(field) KEY_TEXT, offsetof(struct config, field), 0, 0, false
#define RETENTION(level, min_s) KEY_DURATION, offsetof(struct config, retention_ns[level]), \
	(min_s) * NS_PER_SEC, 3650ULL * 86400 * NS_PER_SEC, false

static const struct config_key keys[] = {
	{ "database", KEY_PATH, offsetof(struct config, database), 0, 0, false,
	  "SQLite database file (its directory must exist and be writable)", 0, NULL },
	{ "interval", KEY_DURATION, offsetof(struct config, interval_ns),
	  100 * NS_PER_MSEC, 3600 * NS_PER_SEC, false,
	  "length of one stored interval (100ms..1h)", 0, NULL },
	{ "rotate_period", KEY_DURATION, offsetof(struct config, rotate_period_ns),
	  10 * NS_PER_MSEC, 10 * NS_PER_SEC, false,
	  "time each counter group stays enabled before the next (10ms..10s)", 0, NULL },
	{ "ring_pages", KEY_UINT, offsetof(struct config, ring_pages), 8, 1024, true,
	  "ring buffer data pages per CPU, a power of two (8..1024)", 0, NULL },
	{ "model", KEY_WORD, offsetof(struct config, model), 0, 0, false,
	  "counter model: auto, or a model name (stackd --list-models)", 0, NULL },
	{ "switch_event", KEY_SWITCH, offsetof(struct config, switch_event), 0, 0, false,
	  "where the context-switch sampler sits in each group: leader or member", 0, NULL },
	{ "log_level", KEY_LOG_LEVEL, offsetof(struct config, log_level), 0, 0, false,
	  "error, warning, info or debug", 0, NULL },
	{ "retention_raw", RETENTION(0, 3600), "how long raw intervals are kept (1h..3650d); "
	  "older data is read from the rollups", 0, NULL },
	{ "retention_minute", RETENTION(1, 3600), "how long minute rollups are kept (1h..3650d)",
	  0, NULL },
	{ "retention_hour", RETENTION(2, 3600), "how long per-hour rollups are kept (1h..3650d)",
	  0, NULL },
	{ "retention_day", RETENTION(3, 86400), "how long per-day rollups are kept (1d..3650d)",
	  0, NULL },
	{ "max_database_mb", KEY_UINT, offsetof(struct config, max_database_mb), 0, 10000000,
	  false, "size cap of the stored data in MiB, the oldest dropped first (0: none)", 0,
	  NULL },
	{ "families", TEXT(families),
	  "metric families (counter groups): auto (Top-Down L1, L2 where it fits, >= half the "
	  "time), all, names such as td_l1,flops, or all,-NAME to leave one out (stackd --list-models names them)",
	  sizeof(((struct config *)0)->families), check_families },
	{ "reserved_counters", TEXT(reserved_counters),
	  "general counters per thread stackd leaves free for other tools (perf stat, "
	  "profilers): a number, or auto: one where that costs the plan no group, else none",
	  sizeof(((struct config *)0)->reserved_counters), families_check_reserved },
	{ "count_modes", TEXT(count_modes),
	  "what the model's events count: user,kernel, user (as perf's :u) or kernel (:k)",
	  sizeof(((struct config *)0)->count_modes), check_count_modes },
	{ "exclude_comm", TEXT(exclude_comm),
	  "command names (patterns such as kworker/*, comma-separated) whose counts add up "
	  "in one [excluded] row instead of a row each", sizeof(((struct config *)0)->exclude_comm),
	  check_exclude_comm },
	{ "exclude_unit", TEXT(exclude_unit),
	  "systemd units (patterns such as *.scope) folded into [excluded] likewise",
	  sizeof(((struct config *)0)->exclude_unit), check_exclude_unit },
	{ "exclude_user", TEXT(exclude_user),
	  "users (names or uids) whose processes are folded into [excluded] likewise",
	  sizeof(((struct config *)0)->exclude_user), check_exclude_user },
	{ "kubelet_pods_dir", KEY_PATH, offsetof(struct config, kubelet_pods_dir), 0, 0, false,
	  "the kubelet's pod logs (NAMESPACE_POD_UID/CONTAINER/): pods' names", 0, NULL },
	{ "retry_buffer", KEY_UINT, offsetof(struct config, retry_buffer), 1, 100000, false,
	  "intervals kept in memory while the database cannot be written (1..100000)", 0, NULL },
	{ "switch_rate_warning", KEY_U64, offsetof(struct config, switch_rate_warning), 0,
	  10000000, false,
	  "context switches per second on one CPU above which sampling cost is reported "
	  "(0: never)", 0, NULL },
	{ "max_sampling_cost", KEY_SHARE, offsetof(struct config, max_sampling_cost), 0, 0, false,
	  "share of each CPU that sampling every context switch may cost (2% or 0.02); above "
	  "it the CPU samples periodically, at periodic_hz (statistical), until its "
	  "switch rate falls (0 or off: sample every switch whatever it costs)", 0, NULL },
	{ "periodic_hz", KEY_UINT, offsetof(struct config, periodic_hz), 0, PERIODIC_HZ_MAX,
	  false,
	  "clock samples per second of run time on a CPU in periodic mode, 100..10000; 0 "
	  "(automatic): 1000, fewer (down to 100) where a clock sample is dear (on a VM), so "
	  "that they cost at most half of max_sampling_cost", 0, check_periodic_hz },
	{ "listen", TEXT(listen),
	  "HTTP API addresses, comma-separated (at most 4): 127.0.0.1:PORT, [::1]:PORT, "
	  "unix:/PATH, or none",
	  sizeof(((struct config *)0)->listen), check_listen },
	{ "user", TEXT(user), "started as root: the user to run as, keeping only CAP_PERFMON "
	  "(root: stay root)", sizeof(((struct config *)0)->user), NULL },
	{ "web_dir", TEXT(web_dir), "the web dashboard: builtin (the copy built into stackd), a directory of its files, or none",
	  sizeof(((struct config *)0)->web_dir), check_web_dir },
	{ "http_full_access", TEXT(http_full_access),
	  "users (names or uids, comma-separated) whose API requests see every process; "
	  "root always does, others see their own", sizeof(((struct config *)0)->http_full_access),
	  check_users },
	{ "http_anonymous", TEXT(http_anonymous),
	  "what peers stackd cannot identify (a non-loopback address) see: none or all",
	  sizeof(((struct config *)0)->http_anonymous), check_anonymous },
	{ "http_max_connections", KEY_UINT, offsetof(struct config, http_max_connections), 4, 4096,
	  false, "HTTP connections at once (4..4096; fewer if the open-file limit allows fewer)",
	  0, NULL },
	{ "http_allowed_hosts", TEXT(http_allowed_hosts),
	  "names a request's Host header may carry beside localhost and the addresses listened "
	  "on, comma-separated (any other Host is refused: DNS rebinding)",
	  sizeof(((struct config *)0)->http_allowed_hosts), check_hosts },
	{ "http_query_cpu_limit", KEY_DURATION, offsetof(struct config, http_query_cpu_ns),
	  10 * NS_PER_MSEC, 3600 * NS_PER_SEC, false,
	  "CPU time one uncached API answer may take before it is given up (10ms..1h)", 0, NULL },
	{ "prometheus_max_keys", KEY_UINT, offsetof(struct config, prometheus_max_keys), 1, 10000,
	  false, "command names and units followed in /metrics, each, before [other]", 0, NULL },
	{ "prometheus_top_processes", KEY_UINT, offsetof(struct config, prometheus_top_processes),
	  0, 1000, false, "processes in /metrics: the busiest by CPU time smoothed over intervals, "
	  "each kept until another is 1.5x busier (0: none)", 0, NULL },
	{ "prometheus_top_comms", KEY_UINT, offsetof(struct config, prometheus_top_comms), 0,
	  1000, false, "command names in /metrics besides [other], chosen as processes", 0, NULL },
	{ "prometheus_top_units", KEY_UINT, offsetof(struct config, prometheus_top_units), 0,
	  1000, false, "units (and containers) in /metrics besides [other], each", 0, NULL },
	{ "prometheus_per_cpu", KEY_UINT, offsetof(struct config, prometheus_per_cpu), 0, 1, false,
	  "1: each CPU's sampling mode in /metrics (a series per CPU)", 0, NULL },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))
/* The longest line read: a path value and its key. */
#define CONFIG_MAX_LINE (PATH_MAX + 256)

static const char *const switch_names[_SWITCH_POSITION_MAX] = {
	[SWITCH_LEADER] = "leader",
	[SWITCH_MEMBER] = "member",
};

void config_defaults(struct config *c)
{
	*c = (struct config){
		.database = STACKD_DEFAULT_DB,
		.interval_ns = 1 * NS_PER_SEC,
		.rotate_period_ns = 100 * NS_PER_MSEC,
		.ring_pages = 128,
		.model = "auto",
		.switch_event = SWITCH_LEADER,
		.log_level = LOG_LEVEL_INFO,
		.retry_buffer = 600,
		.user = "stackd",
		.retention_ns = { 24ULL * 3600 * NS_PER_SEC, 7ULL * 86400 * NS_PER_SEC,
				  400ULL * 86400 * NS_PER_SEC, 400ULL * 86400 * NS_PER_SEC },
		.max_database_mb = 4096,
		.families = "auto",
		.reserved_counters = "auto",
		.count_modes = "user,kernel",
		.kubelet_pods_dir = "/var/log/pods",
		.switch_rate_warning = 20000,
		.max_sampling_cost = 0.02,
		.listen = STACKD_DEFAULT_LISTEN,
		.web_dir = STACKD_DEFAULT_WEB_DIR,
		.http_full_access = "",
		.http_anonymous = "none",
		.http_max_connections = 64,
		.http_allowed_hosts = "",
		.http_query_cpu_ns = HTTP_QUERY_CPU_DEFAULT_NS,
		.prometheus_max_keys = 100,
		.prometheus_top_processes = 0,
		.prometheus_top_comms = 12,
		.prometheus_top_units = 12,
	};
}

static const struct config_key *find_key(const char *name)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static int parse_uint(const char *value, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)value[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	*ret = v;
	return 0;
}

static int set_duration(const struct config_key *k, char *field, const char *value, char *err,
			size_t errlen)
{
	uint64_t v;

	if (duration_parse(value, &v) < 0) {
		snprintf(err, errlen, "invalid duration '%s' (expected e.g. 1s, 500ms)", value);
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		char lo[32], hi[32];

		duration_format(k->min, lo, sizeof(lo));
		duration_format(k->max, hi, sizeof(hi));
		snprintf(err, errlen, "%s is out of range (%s..%s)", value, lo, hi);
		return -EINVAL;
	}
	memcpy(field, &v, sizeof(v));
	return 0;
}

/* KEY_UINT (an unsigned field) and KEY_U64. */
static int set_number(const struct config_key *k, char *field, const char *value, char *err,
		      size_t errlen)
{
	uint64_t v;

	if (parse_uint(value, &v) < 0) {
		snprintf(err, errlen, "invalid number '%s'", value);
		return -EINVAL;
	}
	/* a key's own check first: it states the range as it really is */
	if (k->check != NULL && k->check(value, err, errlen) < 0)
		return -EINVAL;
	if (v < k->min || v > k->max) {
		snprintf(err, errlen, "%s is out of range (%llu..%llu)", value,
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return -EINVAL;
	}
	if (k->power_of_two && (v & (v - 1)) != 0) {
		snprintf(err, errlen, "%s is not a power of two", value);
		return -EINVAL;
	}
	if (k->type == KEY_U64) {
		memcpy(field, &v, sizeof(v));
	} else {
		unsigned u = (unsigned)v;

		memcpy(field, &u, sizeof(u));
	}
	return 0;
}

/* "2%", "0.02", "0" or "off" into a share of one CPU (0..1). */
static int set_share(char *field, const char *value, char *err, size_t errlen)
{
	double v;
	char *end;

	if (strcmp(value, "off") == 0) {
		v = 0;
	} else {
		if (!isdigit((unsigned char)value[0]) && value[0] != '.')
			goto bad;
		errno = 0;
		v = strtod(value, &end);
		if (errno != 0 || end == value)
			goto bad;
		if (strcmp(end, "%") == 0)
			v /= 100;
		else if (*end != '\0')
			goto bad;
		if (!(v >= 0 && v <= 1)) {
			snprintf(err, errlen, "%s is out of range (0..100%%)", value);
			return -EINVAL;
		}
	}
	memcpy(field, &v, sizeof(v));
	return 0;
bad:
	snprintf(err, errlen, "invalid share '%s' (expected e.g. 2%%, 0.02, or off)", value);
	return -EINVAL;
}

static int set_text(const struct config_key *k, char *field, const char *value, char *err,
		    size_t errlen)
{
	const char *p;

	for (p = value; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20) {
			snprintf(err, errlen, "control character in the value");
			return -EINVAL;
		}
	if (strlen(value) >= k->size) {
		snprintf(err, errlen, "value too long (at most %zu characters)", k->size - 1);
		return -EINVAL;
	}
	if (k->check != NULL && k->check(value, err, errlen) < 0)
		return -EINVAL;
	memcpy(field, value, strlen(value) + 1);
	return 0;
}

int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const struct config_key *k = find_key(key);
	char *field;
	int i;

	if (k == NULL) {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -ENOENT;
	}
	field = (char *)c + k->offset;
	switch (k->type) {
	case KEY_PATH:
		if (value[0] == '\0' || strlen(value) >= PATH_MAX) {
			snprintf(err, errlen, "invalid path '%s'", value);
			return -EINVAL;
		}
		memcpy(field, value, strlen(value) + 1);
		return 0;
	case KEY_WORD:
		if (value[0] == '\0' || strlen(value) >= sizeof(c->model)) {
			snprintf(err, errlen, "invalid name '%s'", value);
			return -EINVAL;
		}
		memcpy(field, value, strlen(value) + 1);
		return 0;
	case KEY_DURATION:
		return set_duration(k, field, value, err, errlen);
	case KEY_UINT:
	case KEY_U64:
		return set_number(k, field, value, err, errlen);
	case KEY_SWITCH:
		for (i = 0; i < _SWITCH_POSITION_MAX; i++) {
			if (strcmp(value, switch_names[i]) == 0) {
				c->switch_event = (enum switch_position)i;
				return 0;
			}
		}
		snprintf(err, errlen, "invalid value '%s' (expected leader or member)", value);
		return -EINVAL;
	case KEY_TEXT:
		return set_text(k, field, value, err, errlen);
	case KEY_SHARE:
		return set_share(field, value, err, errlen);
	case KEY_LOG_LEVEL:
		if (log_level_parse(value, &c->log_level) < 0) {
			snprintf(err, errlen,
				 "invalid level '%s' (expected error, warning, info or debug)", value);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A line that is not text: a NUL or another control byte (tab is text; a
 * CR before the newline is allowed, for files edited on Windows).  Returns
 * a phrase naming the byte, or NULL for text. */
static const char *not_text(const char *line, size_t len, char *buf, size_t buflen)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];

		if (ch == '\t' || ch == '\n' || (ch == '\r' && i + 2 == len && line[i + 1] == '\n'))
			continue;
		if (ch == '\0')
			return "a NUL byte";
		if (ch < 0x20 || ch == 0x7f) {
			snprintf(buf, buflen, "control byte 0x%02x", ch);
			return buf;
		}
	}
	return NULL;
}

/* One "key = value" line (already known to be text) into c; set_on[] holds
 * the line that set each key, so a second setting is an error. */
static int load_line(struct config *c, const char *path, unsigned lineno, char *line,
		     unsigned set_on[], char *err, size_t errlen)
{
	const struct config_key *k;
	char why[512];
	char *key, *value, *eq;
	size_t len;

	key = trim(line);
	if (*key == '\0' || *key == '#')
		return 0;
	eq = strchr(key, '=');
	if (eq == NULL) {
		snprintf(err, errlen, "%s:%u: expected 'key = value', got '%s'", path, lineno, key);
		return -EINVAL;
	}
	*eq = '\0';
	key = trim(key);
	value = trim(eq + 1);
	len = strlen(value);
	if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
		value[len - 1] = '\0';
		value++;
	}
	k = find_key(key);
	if (k != NULL && set_on[k - keys] != 0) {
		snprintf(err, errlen, "%s:%u: %s: already set on line %u", path, lineno, key,
			 set_on[k - keys]);
		return -EINVAL;
	}
	if (config_set(c, key, value, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s:%u: %s: %s", path, lineno, key, why);
		return -EINVAL;
	}
	set_on[k - keys] = lineno;
	return 0;
}

int config_load_file(struct config *c, const char *path, char *err, size_t errlen)
{
	unsigned set_on[N_KEYS] = { 0 };
	unsigned lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	ssize_t n;
	FILE *f;
	int r = 0;

	f = fopen(path, "re");
	if (f == NULL) {
		int e = errno;

		snprintf(err, errlen, "cannot read config file '%s': %s", path, strerror(e));
		return -e;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot read config file '%s': %s", path, strerror(EISDIR));
		fclose(f);
		return -EISDIR;
	}
	/* getline, not fgets: it counts the bytes, so a NUL inside a line
	 * is seen instead of silently ending it. */
	while (r == 0 && (n = getline(&line, &cap, f)) >= 0) {
		char byte[32];
		const char *garbage;

		lineno++;
		if ((size_t)n > CONFIG_MAX_LINE) {
			snprintf(err, errlen, "%s:%u: line too long", path, lineno);
			r = -EINVAL;
			break;
		}
		garbage = not_text(line, (size_t)n, byte, sizeof(byte));
		if (garbage != NULL) {
			snprintf(err, errlen, "%s:%u: not text (%s)", path, lineno, garbage);
			r = -EINVAL;
			break;
		}
		r = load_line(c, path, lineno, line, set_on, err, errlen);
	}
	if (r == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		r = -EIO;
	}
	free(line);
	fclose(f);
	return r;
}

static void format_value(const struct config *c, const struct config_key *k, char *buf,
			 size_t len)
{
	const char *field = (const char *)c + k->offset;
	uint64_t v;
	unsigned u;

	switch (k->type) {
	case KEY_PATH:
	case KEY_WORD:
	case KEY_TEXT:
		snprintf(buf, len, "%s", field);
		return;
	case KEY_DURATION:
		memcpy(&v, field, sizeof(v));
		duration_format(v, buf, len);
		return;
	case KEY_UINT:
		memcpy(&u, field, sizeof(u));
		snprintf(buf, len, "%u", u);
		return;
	case KEY_U64:
		memcpy(&v, field, sizeof(v));
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	case KEY_SWITCH:
		snprintf(buf, len, "%s", switch_names[c->switch_event]);
		return;
	case KEY_SHARE: {
		double d;

		memcpy(&d, field, sizeof(d));
		if (d <= 0)
			snprintf(buf, len, "off");
		else   /* %g: 2%, 0.1%, 0.05%, as typed */
			snprintf(buf, len, "%g%%", d * 100);
		return;
	}
	case KEY_LOG_LEVEL:
		snprintf(buf, len, "%s", log_level_name(c->log_level));
		return;
	}
}

void config_print(const struct config *c, FILE *f)
{
	char buf[PATH_MAX + 2];
	size_t i;

	for (i = 0; i < N_KEYS; i++) {
		format_value(c, &keys[i], buf, sizeof(buf));
		fprintf(f, "%s = %s\n", keys[i].name, buf);
	}
}

void config_print_keys(FILE *f)
{
	struct config def;
	char buf[PATH_MAX + 2];
	size_t i;

	config_defaults(&def);
	for (i = 0; i < N_KEYS; i++) {
		format_value(&def, &keys[i], buf, sizeof(buf));
		fprintf(f, "  %-20s %s (default: %s)\n", keys[i].name, keys[i].help, buf);
	}
}

void config_count_modes(const struct config *c, bool *user, bool *kernel)
{
	*user = strstr(c->count_modes, "user") != NULL;
	*kernel = strstr(c->count_modes, "kernel") != NULL;
}

int config_full_access_uids(const struct config *c, uid_t *uids, size_t max, size_t *n,
			    char *err, size_t errlen)
{
	return users_parse_list(c->http_full_access, uids, max, n, err, errlen);
}

void config_writer_options(const struct config *c, struct writer_options *o)
{
	_Static_assert(sizeof(o->retention_ns) == sizeof(c->retention_ns),
		       "the writer keeps as many retention levels as the configuration");
	memset(o, 0, sizeof(*o));
	o->database = c->database;
	o->retry_buffer = c->retry_buffer;
	o->max_database_mb = c->max_database_mb;
	memcpy(o->retention_ns, c->retention_ns, sizeof(o->retention_ns));
}
