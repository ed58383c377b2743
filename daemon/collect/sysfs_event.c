/*
 * sysfs_event.c - resolve "pmu/event/" pseudo events from sysfs.
 *
 * An event file holds terms, "event=0x00,umask=0x4"; a term without a value
 * means 1.  Each term's format file says which attr field and bits it fills:
 * "config:0-7", "config1:0-63", "config:0-7,32-35" (bits split over ranges,
 * low bits of the value first).
 */
#include "daemon/collect/sysfs_event.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_MAX_FILE 512

bool sysfs_event_is_spec(const char *spec)
{
	const char *slash = strchr(spec, '/');
	size_t len = strlen(spec);

	return slash != NULL && slash != spec && len >= 4 && spec[len - 1] == '/' &&
	       slash + 1 < spec + len - 1;
}

static int read_small_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static uint64_t *attr_field(struct perf_event_attr *attr, const char *name)
{
	if (strcmp(name, "config") == 0)
		return (uint64_t *)&attr->config;
	if (strcmp(name, "config1") == 0)
		return (uint64_t *)&attr->config1;
	if (strcmp(name, "config2") == 0)
		return (uint64_t *)&attr->config2;
	return NULL;
}

/* Place value into attr as format ("config:0-7,32-35") says. */
static int apply_format(struct perf_event_attr *attr, const char *format, uint64_t value)
{
	char buf[SYSFS_MAX_FILE];
	char *colon, *range, *save = NULL;
	uint64_t *field;

	snprintf(buf, sizeof(buf), "%s", format);
	colon = strchr(buf, ':');
	if (colon == NULL)
		return -EINVAL;
	*colon = '\0';
	field = attr_field(attr, buf);
	if (field == NULL)
		return -EINVAL;
	for (range = strtok_r(colon + 1, ",", &save); range != NULL;
	     range = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long lo, hi, bit;

		lo = strtoul(range, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (*end != '\0' || hi < lo || hi > 63)
			return -EINVAL;
		for (bit = lo; bit <= hi; bit++) {
			if (value & 1)
				*field |= 1ULL << bit;
			value >>= 1;
		}
	}
	return value == 0 ? 0 : -ERANGE;  /* bits left over: the value does not fit */
}

int sysfs_event_resolve(const char *root, const char *spec, struct perf_event_attr *attr,
			char *err, size_t errlen)
{
	char pmu[128], name[128], path[512], buf[SYSFS_MAX_FILE];
	char *term, *save = NULL;
	const char *slash;
	unsigned long type;
	char *end;
	int r;

	if (!sysfs_event_is_spec(spec)) {
		snprintf(err, errlen, "'%s' is not of the form pmu/event/", spec);
		return -EINVAL;
	}
	slash = strchr(spec, '/');
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - spec), spec);
	snprintf(name, sizeof(name), "%.*s", (int)(strlen(slash + 1) - 1), slash + 1);
	if (strchr(name, '/') != NULL || strstr(pmu, "..") != NULL || strstr(name, "..") != NULL) {
		snprintf(err, errlen, "'%s' is not of the form pmu/event/", spec);
		return -EINVAL;
	}

	snprintf(path, sizeof(path), "%s/%s/type", root, pmu);
	r = read_small_file(path, buf, sizeof(buf));
	if (r < 0) {
		snprintf(err, errlen, "no PMU '%s' on this machine (%s)", pmu, path);
		return -ENOENT;
	}
	type = strtoul(buf, &end, 10);
	if (*end != '\0') {
		snprintf(err, errlen, "%s: not a number: '%s'", path, buf);
		return -EINVAL;
	}
	/* perf's own spelling of a raw event, "cpu/event=0xc2,umask=0x2/": the
	 * terms themselves, placed by the same format files (how events from
	 * perf's tables are opened, lib/model/model_table.c). */
	if (strchr(name, '=') != NULL) {
		snprintf(buf, sizeof(buf), "%s", name);
	} else {
		snprintf(path, sizeof(path), "%s/%s/events/%s", root, pmu, name);
		r = read_small_file(path, buf, sizeof(buf));
		if (r < 0) {
			snprintf(err, errlen, "PMU '%s' has no event '%s' (%s)", pmu, name,
				 path);
			return -ENOENT;
		}
	}

	attr->type = (uint32_t)type;
	attr->config = attr->config1 = attr->config2 = 0;
	for (term = strtok_r(buf, ",", &save); term != NULL; term = strtok_r(NULL, ",", &save)) {
		char format[SYSFS_MAX_FILE];
		char *eq = strchr(term, '=');
		uint64_t value = 1;

		if (eq != NULL) {
			*eq = '\0';
			errno = 0;
			value = strtoull(eq + 1, &end, 0);
			if (errno != 0 || *end != '\0' || end == eq + 1) {
				snprintf(err, errlen, "%s/%s/events/%s: bad value for '%s'", root,
					 pmu, name, term);
				return -EINVAL;
			}
		}
		snprintf(path, sizeof(path), "%s/%s/format/%s", root, pmu, term);
		r = read_small_file(path, format, sizeof(format));
		if (r < 0) {
			snprintf(err, errlen, "PMU '%s' has no format for term '%s' (%s)", pmu,
				 term, path);
			return -EINVAL;
		}
		r = apply_format(attr, format, value);
		if (r < 0) {
			snprintf(err, errlen, "%s: cannot place %s=0x%" PRIx64 " by '%s'", spec,
				 term, value, format);
			return -EINVAL;
		}
	}
	return 0;
}
