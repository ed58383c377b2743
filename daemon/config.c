/*
 * config.c - see config.h.
 */
#include "config.h"
#include "lib/db.h"
#include "lib/duration.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum key_type { KEY_PATH, KEY_DURATION, KEY_UINT, KEY_U64, KEY_WORD, KEY_SWITCH, KEY_LOG_LEVEL };

struct config_key {
	const char *name;
	enum key_type type;
	size_t offset;
	uint64_t min, max;    /* durations in ns, numbers as is */
	bool power_of_two;
	const char *help;
};

static const struct config_key keys[] = {
	{ "database", KEY_PATH, offsetof(struct config, database), 0, 0, false,
	  "SQLite database file (its directory must exist and be writable)" },
	{ "interval", KEY_DURATION, offsetof(struct config, interval_ns),
	  100 * NSEC_PER_MSEC, 3600 * NSEC_PER_SEC, false,
	  "length of one stored interval (100ms..1h)" },
	{ "rotate_period", KEY_DURATION, offsetof(struct config, rotate_period_ns),
	  10 * NSEC_PER_MSEC, 10 * NSEC_PER_SEC, false,
	  "time each counter group stays enabled before the next (10ms..10s)" },
	{ "ring_pages", KEY_UINT, offsetof(struct config, ring_pages), 8, 1024, true,
	  "ring buffer data pages per CPU, a power of two (8..1024)" },
	{ "model", KEY_WORD, offsetof(struct config, model), 0, 0, false,
	  "counter model: auto, or a model name (stackd --list-models)" },
	{ "switch_event", KEY_SWITCH, offsetof(struct config, switch_event), 0, 0, false,
	  "where the context-switch sampler sits in each group: leader or member" },
	{ "log_level", KEY_LOG_LEVEL, offsetof(struct config, log_level), 0, 0, false,
	  "error, warning, info or debug" },
	{ "retry_buffer", KEY_UINT, offsetof(struct config, retry_buffer), 1, 100000, false,
	  "intervals kept in memory while the database cannot be written (1..100000)" },
	{ "switch_rate_warning", KEY_U64, offsetof(struct config, switch_rate_warning), 0,
	  10000000, false,
	  "context switches per second on one CPU above which sampling cost is reported "
	  "(0: never)" },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const switch_names[_SWITCH_POSITION_MAX] = {
	[SWITCH_LEADER] = "leader",
	[SWITCH_MEMBER] = "member",
};

void config_defaults(struct config *c)
{
	*c = (struct config){
		.database = STACKD_DEFAULT_DB,
		.interval_ns = 1 * NSEC_PER_SEC,
		.rotate_period_ns = 100 * NSEC_PER_MSEC,
		.ring_pages = 128,
		.model = "auto",
		.switch_event = SWITCH_LEADER,
		.log_level = LOG_LEVEL_INFO,
		.retry_buffer = 600,
		.switch_rate_warning = 20000,
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

int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const struct config_key *k = find_key(key);
	char *field;
	uint64_t v;
	int r;

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
		r = duration_parse(value, &v);
		if (r < 0) {
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
	case KEY_UINT:
	case KEY_U64:
		if (parse_uint(value, &v) < 0) {
			snprintf(err, errlen, "invalid number '%s'", value);
			return -EINVAL;
		}
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
	case KEY_SWITCH:
		for (r = 0; r < _SWITCH_POSITION_MAX; r++) {
			if (strcmp(value, switch_names[r]) == 0) {
				c->switch_event = (enum switch_position)r;
				return 0;
			}
		}
		snprintf(err, errlen, "invalid value '%s' (expected leader or member)", value);
		return -EINVAL;
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

int config_load_file(struct config *c, const char *path, char *err, size_t errlen)
{
	char line[PATH_MAX + 256];
	unsigned lineno = 0;
	struct stat st;
	FILE *f;

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
	while (fgets(line, sizeof(line), f) != NULL) {
		char why[512];
		char *key, *value, *eq;
		size_t len;

		lineno++;
		len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			snprintf(err, errlen, "%s:%u: line too long", path, lineno);
			fclose(f);
			return -EINVAL;
		}
		key = trim(line);
		if (*key == '\0' || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL) {
			snprintf(err, errlen, "%s:%u: expected 'key = value', got '%s'", path, lineno,
				 key);
			fclose(f);
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
		if (config_set(c, key, value, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%u: %s: %s", path, lineno, key, why);
			fclose(f);
			return -EINVAL;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return 0;
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
