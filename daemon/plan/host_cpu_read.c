/*
 * host_cpu_read.c - host_cpu_read(): the CPU and its core PMUs from the
 * files a Linux host has, under a root directory ("" = this host).
 *
 * - x86: /proc/cpuinfo's first processor block: vendor_id, cpu family,
 *   model, stepping (decimal, extended fields already folded in by the
 *   kernel) and model name.  All logical CPUs of one x86 package show the
 *   same CPUID signature, hybrids included, so the first block speaks for
 *   all (perf's x86 get_cpuid_str() ignores the CPU it is asked about).
 * - Arm: sys/devices/system/cpu/cpuN/regs/identification/midr_el1 of the
 *   first online CPU, as perf reads it; when that file is missing (old
 *   kernels, a masked /sys), the MIDR is rebuilt from /proc/cpuinfo's
 *   "CPU implementer/variant/part/revision" of that CPU: implementer
 *   [31:24], variant [23:20], architecture [19:16] = 0xf ("defined by
 *   CPUID scheme", what every Armv8 core reports; cpuinfo's "CPU
 *   architecture: 8" is a constant the kernel prints, not this field),
 *   part [15:4], revision [3:0] (arch/arm64/include/asm/cputype.h).
 * - Core PMUs: the entries of sys/bus/event_source/devices that perf calls
 *   core (tools/perf/util/pmu.c is_pmu_core()): the one named "cpu" (x86's
 *   PMU, registered as PERF_TYPE_RAW by arch/x86/events/core.c) or any with
 *   a "cpus" file, which only CPU PMUs publish: Intel's hybrid cpu_core,
 *   cpu_atom, cpu_lowpower (arch/x86/events/intel/core.c) and every
 *   arm_pmu (drivers/perf/arm_pmu.c), whatever its name: armv8_pmuv3_0 on
 *   ACPI hosts, armv8_neoverse_v2 and the like on devicetree ones
 *   (drivers/perf/arm_pmuv3.c, arm_pmu_acpi.c).  Uncore PMUs publish a
 *   "cpumask" instead and are left out.
 */
#include "daemon/plan/host_cpu_read.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EVENT_SOURCE "sys/bus/event_source/devices"

/* The fields of one /proc/cpuinfo processor block that we read. */
struct cpuinfo_block {
	bool found;
	char vendor_id[16], family[16], model[16], stepping[16], model_name[128];
	char implementer[16], variant[16], part[16], revision[16];
};

static const struct {
	const char *key;
	size_t off, size;
} cpuinfo_keys[] = {
#define KEY(k, f) { k, offsetof(struct cpuinfo_block, f), sizeof(((struct cpuinfo_block *)0)->f) }
	KEY("vendor_id", vendor_id),
	KEY("cpu family", family),
	KEY("model", model),
	KEY("stepping", stepping),
	KEY("model name", model_name),
	KEY("CPU implementer", implementer),
	KEY("CPU variant", variant),
	KEY("CPU part", part),
	KEY("CPU revision", revision),
#undef KEY
};

/* The length of root without its trailing slashes. */
static int root_len(const char *root)
{
	size_t n = strlen(root);

	while (n > 0 && root[n - 1] == '/')
		n--;
	return (int)n;
}

/* root/rel; 0, or -ENAMETOOLONG (then no such file is read). */
static int path_of(char *buf, size_t len, const char *root, const char *rel)
{
	int w = snprintf(buf, len, "%.*s/%s", root_len(root), root, rel);

	return w >= 0 && (size_t)w < len ? 0 : -ENAMETOOLONG;
}

static bool exists(const char *root, const char *rel)
{
	char path[PATH_MAX];

	return path_of(path, sizeof(path), root, rel) == 0 && access(path, F_OK) == 0;
}

/* A one-value sysfs file, without its trailing newline; 0 or -errno. */
static int read_value(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;
	FILE *f;

	if (path_of(path, sizeof(path), root, rel) < 0)
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

/* "key<tabs>: value" -> the field of b it names, if we read it. */
static void cpuinfo_line(struct cpuinfo_block *b, char *line)
{
	char *colon = strchr(line, ':'), *end, *value;
	size_t i, klen;

	if (colon == NULL)
		return;
	end = colon;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	klen = (size_t)(end - line);
	value = colon + 1;
	while (*value == ' ' || *value == '\t')
		value++;
	value[strcspn(value, "\n")] = '\0';
	for (i = 0; i < sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]); i++)
		if (strlen(cpuinfo_keys[i].key) == klen &&
		    strncmp(cpuinfo_keys[i].key, line, klen) == 0)
			snprintf((char *)b + cpuinfo_keys[i].off, cpuinfo_keys[i].size, "%s", value);
}

/* The block of processor cpu, or the first block when cpu < 0. */
static int cpuinfo_read(const char *root, int cpu, struct cpuinfo_block *b)
{
	char path[PATH_MAX], *line = NULL;
	bool in = cpu < 0;
	size_t cap = 0;
	FILE *f;

	memset(b, 0, sizeof(*b));
	if (path_of(path, sizeof(path), root, "proc/cpuinfo") < 0)
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "processor", 9) == 0 && cpu >= 0) {
			const char *colon = strchr(line, ':');

			in = colon != NULL && atoi(colon + 1) == cpu;
		}
		if (line[0] == '\n') {
			if (b->found)
				break;
			continue;
		}
		if (in) {
			b->found = true;
			cpuinfo_line(b, line);
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* A number of the given base filling all of s. */
static bool to_unsigned(const char *s, int base, unsigned *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, base);
	if (s[0] == '\0' || *end != '\0' || errno != 0 || v > UINT32_MAX)
		return false;
	*out = (unsigned)v;
	return true;
}

static unsigned first_cpu(const char *list)
{
	return (unsigned)strtoul(list, NULL, 10);
}

/* The MIDR of one CPU: its sysfs file, else its cpuinfo block. */
static int arm_midr_of(const char *root, unsigned cpu, uint64_t *midr)
{
	unsigned impl, var, part, rev;
	struct cpuinfo_block b;
	char rel[128], buf[64], *end;

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/regs/identification/midr_el1",
		 cpu);
	if (read_value(root, rel, buf, sizeof(buf)) == 0 && strncmp(buf, "0x", 2) == 0) {
		errno = 0;
		*midr = strtoull(buf, &end, 16);
		if (*end == '\0' && errno == 0)
			return 0;
	}
	if (cpuinfo_read(root, (int)cpu, &b) < 0 || !b.found)
		return -ENOENT;
	if (!to_unsigned(b.implementer, 0, &impl) || !to_unsigned(b.variant, 0, &var) ||
	    !to_unsigned(b.part, 0, &part) || !to_unsigned(b.revision, 0, &rev) ||
	    impl > 0xff || var > 0xf || part > 0xfff || rev > 0xf)
		return -EINVAL;
	*midr = (uint64_t)impl << 24 | var << 20 | 0xfu << 16 | part << 4 | rev;
	return 0;
}

static int read_x86(const struct cpuinfo_block *b, struct host_cpu *c, char *err, size_t len)
{
	unsigned family, model, stepping = 0;

	if (!to_unsigned(b->family, 10, &family) || !to_unsigned(b->model, 10, &model)) {
		snprintf(err, len, "proc/cpuinfo: vendor_id '%s' but cpu family '%s', model '%s'",
			 b->vendor_id, b->family, b->model);
		return -EINVAL;
	}
	/* "unknown" when the CPU has no CPUID level 1 (proc.c): 0 as perf. */
	(void)to_unsigned(b->stepping, 10, &stepping);
	host_cpu_set_x86(c, b->vendor_id, family, model, stepping);
	snprintf(c->model_name, sizeof(c->model_name), "%s", b->model_name);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(((const struct host_pmu *)a)->name, ((const struct host_pmu *)b)->name);
}

/* The names of the core PMUs, sorted (readdir's order is the disk's). */
static int core_pmu_names(const char *root, struct host_cpu *c, char *err, size_t len)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	if (path_of(path, sizeof(path), root, EVENT_SOURCE) < 0)
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (dir == NULL)
		return errno == ENOENT ? 0 : -errno;   /* no perf_events at all */
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.' || strlen(d->d_name) >= sizeof(c->pmus[0].name))
			continue;
		snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/cpus", d->d_name);
		if (strcmp(d->d_name, "cpu") != 0 && !exists(root, rel))
			continue;
		if (c->n_pmus == HOST_CPU_MAX_PMUS) {
			closedir(dir);
			snprintf(err, len, "%s: more than %d core PMUs", path, HOST_CPU_MAX_PMUS);
			return -E2BIG;
		}
		/* the length was checked above */
		memcpy(c->pmus[c->n_pmus++].name, d->d_name, strlen(d->d_name) + 1);
	}
	closedir(dir);
	qsort(c->pmus, c->n_pmus, sizeof(c->pmus[0]), cmp_names);
	return 0;
}

static int read_pmu(const char *root, const struct host_cpu *c, const char *online,
		    struct host_pmu *p, char *err, size_t len)
{
	char rel[PATH_MAX], buf[64];
	uint64_t midr;

	snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/type", p->name);
	if (read_value(root, rel, buf, sizeof(buf)) < 0 || !to_unsigned(buf, 10, &p->type)) {
		snprintf(err, len, "%s: no PMU type number", rel);
		return -EINVAL;
	}
	snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/cpus", p->name);
	if (read_value(root, rel, p->cpus, sizeof(p->cpus)) < 0)
		snprintf(p->cpus, sizeof(p->cpus), "%s", online);
	snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/caps/pmu_name", p->name);
	if (read_value(root, rel, p->pmu_name, sizeof(p->pmu_name)) < 0)
		p->pmu_name[0] = '\0';
	snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/caps/slots", p->name);
	if (read_value(root, rel, buf, sizeof(buf)) < 0 || !to_unsigned(buf, 0, &p->slots))
		p->slots = 0;
	snprintf(rel, sizeof(rel), EVENT_SOURCE "/%s/events/slots", p->name);
	p->perf_metrics = exists(root, rel);
	if (c->vendor == PERFDB_ARM && arm_midr_of(root, first_cpu(p->cpus), &midr) == 0)
		snprintf(p->cpuid, sizeof(p->cpuid), "0x%016" PRIx64, midr);
	else
		snprintf(p->cpuid, sizeof(p->cpuid), "%s", c->cpuid);
	return 0;
}

static int read_pmus(const char *root, struct host_cpu *c, const char *online,
		     char *err, size_t len)
{
	unsigned i;
	int r;

	r = core_pmu_names(root, c, err, len);
	for (i = 0; r == 0 && i < c->n_pmus; i++)
		r = read_pmu(root, c, online, &c->pmus[i], err, len);
	c->has_core_pmu = c->n_pmus > 0;
	c->hybrid = c->n_pmus > 1;
	return r;
}

int host_cpu_read(const char *root, struct host_cpu *out, char *err, size_t len)
{
	struct cpuinfo_block b;
	char online[256];
	struct host_cpu c;
	uint64_t midr;
	int r;

	memset(&c, 0, sizeof(c));
	if (read_value(root, "sys/devices/system/cpu/online", online, sizeof(online)) < 0)
		online[0] = '\0';
	r = cpuinfo_read(root, -1, &b);
	if (r < 0) {
		snprintf(err, len, "cannot read %.*s/proc/cpuinfo: %s", root_len(root), root,
			 strerror(-r));
		return -ENOENT;
	}
	if (b.vendor_id[0] != '\0') {
		r = read_x86(&b, &c, err, len);
		if (r < 0)
			return r;
	} else if (arm_midr_of(root, first_cpu(online), &midr) == 0) {
		host_cpu_set_midr(&c, midr);
	} else {
		snprintf(err, len, "%.*s/proc/cpuinfo names no CPU we know: neither an x86 "
			 "vendor_id nor an Arm MIDR (midr_el1, CPU implementer/part)",
			 root_len(root), root);
		return -EINVAL;
	}
	r = read_pmus(root, &c, online, err, len);
	if (r < 0)
		return r;
	*out = c;
	return 0;
}
