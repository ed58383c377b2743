/*
 * perfstat_printed.c - what a recording says besides its counts: perf's
 * own metric figures (kept to check ours against), the lines it skipped,
 * the CPU a comment names.
 */
#include "cli/perfstat.h"
#include "cli/perfstat_line.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *q;

	if (n < *cap)
		return p;
	c = *cap ? *cap * 2 : 16;
	q = realloc(p, c * size);
	if (q != NULL)
		*cap = c;
	return q;
}

int perfstat_add_printed(struct ps_recording *rec, size_t interval, unsigned line,
			 const char *row, const char *pmu, const char *event, const char *mvalue,
			 const char *mtext)
{
	struct ps_printed *p, pr = { .interval = interval, .line = line };
	char figure[48];
	const char *dot, *sep;
	size_t n;

	snprintf(figure, sizeof(figure), "%s", mvalue);
	n = strlen(figure);
	if (n > 0 && figure[n - 1] == '%') {
		figure[--n] = '\0';
		pr.percent = true;
	}
	if (!perfstat_number(figure, true, &pr.value))
		return 0;
	dot = strchr(figure, '.');
	pr.decimals = dot != NULL ? (int)strlen(dot + 1) : 0;
	mtext += strspn(mtext, " ");
	/* a table metric's unit, two blanks, its name: "%  tma_retiring",
	 * "percent of slots  frontend_bound" (stat-shadow.c's "%s  %s") */
	sep = strstr(mtext, "  ");
	while (sep != NULL && strstr(sep + 2, "  ") != NULL)
		sep = strstr(sep + 2, "  ");
	if (mtext[0] == '%' || (sep != NULL && strncmp(mtext, "percent", 7) == 0))
		pr.percent = true;
	if (sep != NULL)
		mtext = sep + strspn(sep, " ");
	else if (*mtext == '%')
		mtext += 1 + strspn(mtext + 1, " ");
	snprintf(pr.name, sizeof(pr.name), "%s", mtext);
	snprintf(pr.row, sizeof(pr.row), "%s", row ? row : "");
	snprintf(pr.pmu, sizeof(pr.pmu), "%s", pmu);
	snprintf(pr.event, sizeof(pr.event), "%s", event);
	p = grow(rec->printed, &rec->cap_printed, rec->n_printed, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	rec->printed = p;
	rec->printed[rec->n_printed++] = pr;
	return 0;
}

int perfstat_add_skipped(struct ps_recording *rec, unsigned line, const char *why)
{
	struct ps_skipped *p = grow(rec->skipped, &rec->cap_skipped, rec->n_skipped, sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	rec->skipped = p;
	p[rec->n_skipped].line = line;
	snprintf(p[rec->n_skipped].why, sizeof(p->why), "%s", why);
	rec->n_skipped++;
	return 0;
}

/* perf's CPU id spellings (tools/perf/arch/x86/util/header.c prints
 * "GenuineIntel-6-8F-8", "AuthenticAMD-25-17-1"; arm64 the MIDR as
 * "0x00000000410fd490"). */
static bool is_cpuid(const char *t, size_t n)
{
	return (n > 13 && (strncmp(t, "GenuineIntel-", 13) == 0 ||
			   strncmp(t, "AuthenticAMD-", 13) == 0 ||
			   strncmp(t, "HygonGenuine-", 13) == 0)) ||
	       (n == 18 && strncmp(t, "0x", 2) == 0 && strspn(t + 2, "0123456789abcdefABCDEF") == 16);
}

void perfstat_note_cpuid(struct ps_recording *rec, const char *comment)
{
	const char *p = comment;

	while (rec->cpuid[0] == '\0' && *p != '\0') {
		size_t n;

		p += strspn(p, " \t#:,;()=\"'");
		n = strcspn(p, " \t,;()=\"'");
		if (n > 0 && n < sizeof(rec->cpuid) && is_cpuid(p, n))
			snprintf(rec->cpuid, sizeof(rec->cpuid), "%.*s", (int)n, p);
		p += n;
	}
}
