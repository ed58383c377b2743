/*
 * host_cpu.c - PERF_CPUID strings: building them, parsing perf's spelling
 * of them, and matching them against perf's mapfile rows as perf does.
 * Reading a host's files is daemon/plan/host_cpu_read.c's job.
 *
 * The facts, from Linux 7.2.12:
 * - x86 (tools/perf/arch/x86/util/header.c get_cpuid_str()): the format is
 *   "%s-%u-%X-%X", CPUID vendor, family in decimal, model and stepping in
 *   upper-case hex without leading zeros.  Family is the base family plus
 *   the extended family when the base is 0xf; model takes the extended
 *   model as its high nibble when the family is >= 6 (arch/x86/lib/cpu.c
 *   x86_family()/x86_model(), the same arithmetic).  /proc/cpuinfo prints
 *   those folded values (arch/x86/kernel/cpu/proc.c shows c->x86 and
 *   c->x86_model, set by x86_family()/x86_model() in common.c), so a host's
 *   numbers are taken from it as they are: no arithmetic is redone here.
 * - Matching (same header.c, strcmp_cpuid_str()): the mapfile row is a
 *   POSIX extended regex; it serves an id when regexec's match is exactly
 *   as long as the id, or as the id without its "-stepping" when the row
 *   has fewer than three dashes.  A row with three dashes needs an id with
 *   three.  Rows are tried in mapfile order; the first match wins.
 * - Arm (tools/perf/arch/arm64/util/header.c): the id is the text of
 *   sysfs .../regs/identification/midr_el1, which the kernel writes as
 *   "0x%016llx" (arch/arm64/kernel/cpuinfo.c).  A row serves an id when all
 *   bits but variant [23:20] and revision [3:0] agree and the id's
 *   variant.revision is at least the row's.
 */
#include "lib/perfdb/host_cpu.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIDR_REVISION_MASK 0xfULL
#define MIDR_VARIANT_MASK (0xfULL << 20)

static bool is_midr_id(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

static unsigned count_dashes(const char *s)
{
	unsigned n = 0;

	for (; *s != '\0'; s++)
		n += *s == '-';
	return n;
}

static bool x86_id_matches(const char *map_cpuid, const char *cpuid)
{
	bool full_map = count_dashes(map_cpuid) == 3;
	bool full_id = count_dashes(cpuid) == 3;
	regmatch_t m[1];
	size_t want;
	regex_t re;
	int r;

	if (full_map && !full_id)
		return false;
	if (regcomp(&re, map_cpuid, REG_EXTENDED) != 0)
		return false;
	r = regexec(&re, cpuid, 1, m, 0);
	regfree(&re);
	if (r != 0)
		return false;
	/* perf compares lengths only, not where the match starts. */
	want = !full_map && full_id ? (size_t)(strrchr(cpuid, '-') - cpuid) : strlen(cpuid);
	return (size_t)(m[0].rm_eo - m[0].rm_so) == want;
}

static bool midr_id_matches(const char *map_cpuid, const char *cpuid)
{
	uint64_t map = strtoull(map_cpuid, NULL, 16);
	uint64_t id = strtoull(cpuid, NULL, 16);
	uint64_t model = ~(MIDR_VARIANT_MASK | MIDR_REVISION_MASK);
	unsigned map_var = (map & MIDR_VARIANT_MASK) >> 20, id_var = (id & MIDR_VARIANT_MASK) >> 20;
	unsigned map_rev = map & MIDR_REVISION_MASK, id_rev = id & MIDR_REVISION_MASK;

	if ((map & model) != (id & model))
		return false;
	return id_var > map_var || (id_var == map_var && id_rev >= map_rev);
}

bool host_cpu_id_matches(const char *map_cpuid, const char *cpuid)
{
	if (map_cpuid == NULL || cpuid == NULL || cpuid[0] == '\0')
		return false;
	if (is_midr_id(map_cpuid) != is_midr_id(cpuid))
		return false;
	if (is_midr_id(cpuid))
		return midr_id_matches(map_cpuid, cpuid);
	return x86_id_matches(map_cpuid, cpuid);
}

const struct perfdb_map *host_cpu_match_id_in(const struct perfdb_map *maps, unsigned n,
					      const char *cpuid)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (host_cpu_id_matches(maps[i].cpuid, cpuid))
			return &maps[i];
	return NULL;
}

const struct perfdb_map *host_cpu_match_in(const struct perfdb_map *maps, unsigned n,
					   const struct host_cpu *c)
{
	return host_cpu_match_id_in(maps, n, c->cpuid);
}

/* ---- building and parsing ids ------------------------------------------ */

uint8_t host_cpu_x86_vendor(const char *vendor_id)
{
	if (strcmp(vendor_id, "GenuineIntel") == 0)
		return PERFDB_INTEL;
	if (strcmp(vendor_id, "AuthenticAMD") == 0)
		return PERFDB_AMD;
	return 0;
}

void host_cpu_set_x86(struct host_cpu *c, const char *vendor_id, unsigned family,
		      unsigned model, unsigned stepping)
{
	snprintf(c->vendor_id, sizeof(c->vendor_id), "%s", vendor_id);
	c->vendor = host_cpu_x86_vendor(vendor_id);
	c->family = family;
	c->model = model;
	c->stepping = stepping;
	snprintf(c->cpuid, sizeof(c->cpuid), "%s-%u-%X-%X", c->vendor_id, family, model, stepping);
}

void host_cpu_set_midr(struct host_cpu *c, uint64_t midr)
{
	c->vendor = PERFDB_ARM;
	c->vendor_id[0] = '\0';
	c->midr = midr;
	c->implementer = (midr >> 24) & 0xff;
	c->variant = (midr >> 20) & 0xf;
	c->part = (midr >> 4) & 0xfff;
	c->revision = midr & 0xf;
	snprintf(c->cpuid, sizeof(c->cpuid), "0x%016" PRIx64, midr);
}

/* s is all digits of base (10 or 16), 1 to 8 of them; *out its value. */
static bool parse_number(const char *s, size_t n, int base, unsigned *out)
{
	char buf[16];
	size_t i;

	if (n == 0 || n > 8)
		return false;
	for (i = 0; i < n; i++)
		if (base == 10 ? !isdigit((unsigned char)s[i]) : !isxdigit((unsigned char)s[i]))
			return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = (unsigned)strtoul(buf, NULL, base);
	return true;
}

static int parse_midr(const char *id, struct host_cpu *out, char *err, size_t len)
{
	size_t n = strlen(id + 2);
	unsigned hi = 0, lo = 0;

	if (n > 16 || !parse_number(id + 2 + (n > 8 ? n - 8 : 0), n > 8 ? 8 : n, 16, &lo) ||
	    (n > 8 && !parse_number(id + 2, n - 8, 16, &hi))) {
		snprintf(err, len, "'%s' is not an Arm MIDR: want 0x and up to 16 hex digits, "
			 "as in 0x00000000410fd4f0", id);
		return -EINVAL;
	}
	if (hi != 0) {
		snprintf(err, len, "'%s' is not an Arm MIDR: MIDR_EL1 bits 63:32 are zero", id);
		return -EINVAL;
	}
	host_cpu_set_midr(out, lo);
	return 0;
}

static int parse_x86(const char *id, struct host_cpu *out, char *err, size_t len)
{
	const char *f, *m, *s;
	unsigned family, model, stepping = 0;
	char vendor[16];

	f = strchr(id, '-');
	m = f ? strchr(f + 1, '-') : NULL;
	s = m ? strchr(m + 1, '-') : NULL;
	if (f == NULL || m == NULL || (size_t)(f - id) >= sizeof(vendor)) {
		snprintf(err, len, "'%s' is not a CPU id: want perf's PERF_CPUID, "
			 "VENDOR-FAMILY-MODEL-STEPPING (GenuineIntel-6-AD-1) or an Arm MIDR "
			 "(0x00000000410fd4f0)", id);
		return -EINVAL;
	}
	snprintf(vendor, sizeof(vendor), "%.*s", (int)(f - id), id);
	if (host_cpu_x86_vendor(vendor) == 0) {
		snprintf(err, len, "'%s': unknown CPU vendor '%s': perf's tables know "
			 "GenuineIntel, AuthenticAMD and Arm MIDRs (0x...)", id, vendor);
		return -EINVAL;
	}
	if (!parse_number(f + 1, (size_t)(m - f - 1), 10, &family) || family > 0xff + 0xf) {
		snprintf(err, len, "'%s': the family '%.*s' is not a decimal CPUID family "
			 "(6, 25, 26)", id, (int)(m - f - 1), f + 1);
		return -EINVAL;
	}
	if (!parse_number(m + 1, s ? (size_t)(s - m - 1) : strlen(m + 1), 16, &model) ||
	    model > 0xff) {
		snprintf(err, len, "'%s': the model is not a hex CPUID model (AD, 8F, 2)", id);
		return -EINVAL;
	}
	if (s != NULL && (!parse_number(s + 1, strlen(s + 1), 16, &stepping) || stepping > 0xf)) {
		snprintf(err, len, "'%s': the stepping is not one hex digit", id);
		return -EINVAL;
	}
	host_cpu_set_x86(out, vendor, family, model, stepping);
	if (s == NULL)   /* keep it short: perf's rows with a stepping need one */
		*strrchr(out->cpuid, '-') = '\0';
	return 0;
}

int host_cpu_parse_cpuid(const char *perf_cpuid, struct host_cpu *out, char *err, size_t len)
{
	struct host_cpu c;
	int r;

	memset(&c, 0, sizeof(c));
	c.hypothetical = true;
	if (perf_cpuid == NULL || perf_cpuid[0] == '\0') {
		snprintf(err, len, "empty CPU id");
		return -EINVAL;
	}
	r = is_midr_id(perf_cpuid) ? parse_midr(perf_cpuid, &c, err, len)
				   : parse_x86(perf_cpuid, &c, err, len);
	if (r < 0)
		return r;
	*out = c;
	return 0;
}
