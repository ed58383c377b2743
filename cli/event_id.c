/*
 * event_id.c - event names -> what they count (see event_id.h).
 *
 * The raw layout is the kernel's x86 "cpu" PMU format (sysfs
 * /sys/bus/event_source/devices/cpu/format): event 0-7 (AMD also 32-35),
 * umask 8-15, edge 18, any 21 (Intel), inv 23, cmask 24-31.  perf spells
 * the same terms in "cpu/event=0x1a0,umask=0x1,cmask=0x6/".
 *
 * libpfm4 keeps its PMU tables in process-wide state, so the PMU chosen
 * here is too (the one static below mirrors it).
 */
#include <linux/perf_event.h>  /* before libpfm4's copy, which then defers to it */
#include <perfmon/pfmlib_perf_event.h>

#include "cli/event_id.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The PMU whose table symbolic names resolve in; "" when none. */
static char pfm_pmu[64];

/* Generic names that mean the same count across vendors and tools. */
static const char *const synonyms[][2] = {
	{ "cpu-cycles", "cycles" },
	{ "cpu_clk_unhalted.thread", "cycles" },
	{ "cpu_clk_unhalted.thread_p", "cycles" },
	{ "cpu_clk_unhalted.core", "cycles" },
	{ "ls_not_halted_cyc", "cycles" },
	{ "cycles_not_in_halt", "cycles" },
	{ "inst_retired.any", "instructions" },
	{ "inst_retired.any_p", "instructions" },
	{ "ex_ret_instr", "instructions" },
	{ "retired_instructions", "instructions" },
	{ "topdown.slots", "slots" },
	{ "cpu_cycles", "cycles" },        /* Arm */
	{ "inst_retired", "instructions" },
};

/* perf's privilege and sampling modifiers ("cycles:u", "cpu/.../ku"). */
static bool all_modifiers(const char *s)
{
	return *s != '\0' && strspn(s, "ukhpsGH") == strlen(s);
}

void event_id_use_pmu(const char *pmu)
{
	const char *old;
	char saved[128];
	bool had;

	if (pmu == NULL || *pmu == '\0') {
		pfm_pmu[0] = '\0';
		return;
	}
	if (strcmp(pmu, pfm_pmu) == 0)
		return;
	/* LIBPFM_FORCE_PMU is read by pfm_initialize() only: activate the
	 * PMU (absent on this host, maybe) and put the variable back. */
	old = getenv("LIBPFM_FORCE_PMU");
	had = old != NULL;
	snprintf(saved, sizeof(saved), "%s", had ? old : "");
	pfm_terminate();
	(void)setenv("LIBPFM_FORCE_PMU", pmu, 1);
	if (pfm_initialize() == PFM_SUCCESS)
		snprintf(pfm_pmu, sizeof(pfm_pmu), "%s", pmu);
	else
		pfm_pmu[0] = '\0';
	if (had)
		(void)setenv("LIBPFM_FORCE_PMU", saved, 1);
	else
		(void)unsetenv("LIBPFM_FORCE_PMU");
}

/* perf's metric-expression spelling "cpu@EV\,cmask\=1@" as "cpu/EV,cmask=1/". */
static void unescape(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in != '\0' && n + 1 < len; in++) {
		if (*in == '\\')
			continue;
		out[n++] = *in == '@' ? '/' : *in;
	}
	out[n] = '\0';
}

/* "pmu/inside/mods": the three parts, in buf (modified); false when the
 * name has no PMU part. */
static bool split_pmu(char *buf, char **pmu, char **inside, char **mods)
{
	char *first = strchr(buf, '/'), *last = strrchr(buf, '/');

	if (first == NULL || first == last)
		return false;
	*first = '\0';
	*last = '\0';
	*pmu = buf;
	*inside = first + 1;
	*mods = last + 1;
	return true;
}

void event_id_modifiers(const char *name, char *out, size_t len)
{
	char buf[256], *pmu, *inside, *mods, *colon;

	unescape(name, buf, sizeof(buf));
	if (split_pmu(buf, &pmu, &inside, &mods)) {
		snprintf(out, len, "%s", mods);
		return;
	}
	colon = strrchr(buf, ':');
	snprintf(out, len, "%s", colon != NULL && all_modifiers(colon + 1) ? colon + 1 : "");
}

void event_id_normalise(const char *in, char *out, size_t len)
{
	char buf[256], *pmu, *inside, *mods;
	bool terms = false;
	size_t i;

	unescape(in, buf, sizeof(buf));
	if (split_pmu(buf, &pmu, &inside, &mods)) {
		/* "cpu/topdown-fe-bound/" is topdown-fe-bound; a name with
		 * terms keeps its PMU, minus the modifiers. */
		terms = strpbrk(inside, "=,") != NULL;
		if (terms)
			snprintf(out, len, "%s/%s/", pmu, inside);
		else
			snprintf(out, len, "%s", inside);
	} else {
		char *colon = strrchr(buf, ':');

		if (colon != NULL && all_modifiers(colon + 1))
			*colon = '\0';
		snprintf(out, len, "%s", buf);
	}
	for (i = 0; out[i] != '\0'; i++) {
		out[i] = (char)tolower((unsigned char)out[i]);
		if (!terms && out[i] == ':')
			out[i] = '.';  /* libpfm4's EVENT:UMASK is perf's EVENT.UMASK */
	}
	for (i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (strcmp(out, synonyms[i][0]) == 0) {
			snprintf(out, len, "%s", synonyms[i][1]);
			break;
		}
}

static void decode_config(uint64_t config, struct event_id *id)
{
	id->kind = EVENT_ID_CORE;
	id->event = (uint16_t)((config & 0xff) | ((config >> 32) & 0xf) << 8);
	id->umask = (uint8_t)(config >> 8);
	id->edge = (config >> 18) & 1;
	id->any = (config >> 21) & 1;
	id->inv = (config >> 23) & 1;
	id->cmask = (uint8_t)(config >> 24);
}

/* "rNNN": perf's raw config in hex. */
static bool parse_raw(const char *s, uint64_t *config)
{
	char *end;

	if (s[0] != 'r' || !isxdigit((unsigned char)s[1]) || strlen(s) > 17)
		return false;
	*config = strtoull(s + 1, &end, 16);
	return *end == '\0';
}

/* A libpfm4 string in the chosen PMU's table.  true: encoded into id. */
static bool pfm_encode(const char *name, struct event_id *id)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr attr;
	char full[256];

	if (pfm_pmu[0] == '\0')
		return false;
	snprintf(full, sizeof(full), "%s::%s", pfm_pmu, name);
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	if (pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) !=
	    PFM_SUCCESS || attr.type != PERF_TYPE_RAW)
		return false;
	decode_config(attr.config, id);
	id->config1 = attr.config1;
	return true;
}

/* A symbolic name (UOPS_ISSUED.ANY, UOPS_ISSUED:ANY, a model's alias);
 * true: encoded into id. */
/* perf's combined FP events (Linux tools/perf/pmu-events/arch/x86/
 * skylake/floating-point.json and later models: event 0xc7), which
 * libpfm4 4.13 knows for Ice Lake and later but not for Skylake, whose
 * recordings by newer perf (-M FLOPS) carry them too. */
static bool resolve_combined_fp(const char *key, struct event_id *id)
{
	static const struct { const char *name; uint8_t umask; } fp[] = {
		{ "fp_arith_inst_retired.scalar", 0x03 },
		{ "fp_arith_inst_retired.4_flops", 0x18 },
		{ "fp_arith_inst_retired.8_flops", 0x60 },
		{ "fp_arith_inst_retired.vector", 0xfc },
	};
	size_t i;

	for (i = 0; i < sizeof(fp) / sizeof(fp[0]); i++)
		if (strcmp(key, fp[i].name) == 0) {
			id->kind = EVENT_ID_CORE;
			id->event = 0xc7;
			id->umask = fp[i].umask;
			return true;
		}
	return false;
}

static bool resolve_symbol(const char *sym, const struct event_id_alias *aliases,
			   size_t n_aliases, struct event_id *id)
{
	char key[160], other[160], pfm[160];
	uint64_t config;
	size_t i;
	char *dot;

	event_id_normalise(sym, key, sizeof(key));
	for (i = 0; i < n_aliases; i++) {
		event_id_normalise(aliases[i].perf_name, other, sizeof(other));
		if (strcmp(key, other) == 0) {
			event_id_resolve(aliases[i].pfm_name, NULL, 0, id);
			return id->kind == EVENT_ID_CORE;
		}
	}
	if (parse_raw(sym, &config)) {
		decode_config(config, id);
		return true;
	}
	/* perf's JSON names: EVENT.UMASK, where the umask may hold more
	 * dots (IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE is libpfm4's
	 * IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE). */
	snprintf(pfm, sizeof(pfm), "%s", sym);
	dot = strchr(pfm, '.');
	if (dot != NULL)
		*dot = ':';
	if (pfm_encode(pfm, id))
		return true;
	for (i = 0; pfm[i] != '\0'; i++)
		if (pfm[i] == '.')
			pfm[i] = '_';
	if (pfm_encode(pfm, id))
		return true;
	return resolve_combined_fp(key, id);
}

/* One perf term ("cmask=0x6", "edge", "INT_MISC.RECOVERY_CYCLES") into id.
 * A term for something other than the count (period=, name=) is left. */
static void apply_term(char *term, struct event_id *id)
{
	char *eq = strchr(term, '=');
	uint64_t v = 1;

	if (eq != NULL) {
		*eq = '\0';
		v = strtoull(eq + 1, NULL, 0);
	}
	if (strcmp(term, "event") == 0)
		id->event = (uint16_t)v;
	else if (strcmp(term, "umask") == 0)
		id->umask = (uint8_t)v;
	else if (strcmp(term, "cmask") == 0)
		id->cmask = (uint8_t)v;
	else if (strcmp(term, "inv") == 0)
		id->inv = v != 0;
	else if (strcmp(term, "edge") == 0)
		id->edge = v != 0;
	else if (strcmp(term, "any") == 0)
		id->any = v != 0;
	else if (strcmp(term, "config") == 0)
		decode_config(v, id);
	else if (strcmp(term, "config1") == 0 || strcmp(term, "offcore_rsp") == 0 ||
		 strcmp(term, "ldlat") == 0 || strcmp(term, "frontend") == 0)
		id->config1 = v;
}

static bool is_field_term(const char *t)
{
	static const char *const fields[] = { "event", "umask", "cmask", "inv", "edge", "any",
		"config", "config1", "offcore_rsp", "ldlat", "frontend" };
	size_t n = strcspn(t, "="), i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i]) == n && strncmp(t, fields[i], n) == 0)
			return true;
	return false;
}

/* "cpu/EVENT,cmask=1,edge/" or "cpu/event=0x1a0,umask=0x1/" into id:
 * the symbolic event (if any) first, then the terms over it. */
static void resolve_terms(const char *pmu, char *inside, const struct event_id_alias *aliases,
			  size_t n_aliases, struct event_id *id)
{
	char copy[256], *t, *save = NULL;
	bool base = false, any_field = false;

	if (strcmp(pmu, "cpu") != 0 && strncmp(pmu, "cpu_", 4) != 0)
		return;  /* not the core PMU: known by name */
	snprintf(copy, sizeof(copy), "%s", inside);
	for (t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
		if (is_field_term(t)) {
			any_field = true;
		} else if (strchr(t, '=') == NULL && !base) {
			if (!resolve_symbol(t, aliases, n_aliases, id))
				return;
			base = true;
		}
	}
	if (!base && !any_field)
		return;
	id->kind = EVENT_ID_CORE;
	for (t = strtok_r(inside, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save))
		if (is_field_term(t))
			apply_term(t, id);
}

void event_id_resolve(const char *name, const struct event_id_alias *aliases, size_t n_aliases,
		      struct event_id *id)
{
	char buf[256], *pmu, *inside, *mods, *colon;
	uint64_t config;

	memset(id, 0, sizeof(*id));
	id->kind = EVENT_ID_NAME;
	unescape(name, buf, sizeof(buf));
	if (split_pmu(buf, &pmu, &inside, &mods)) {
		resolve_terms(pmu, inside, aliases, n_aliases, id);
	} else if (parse_raw(buf, &config)) {
		decode_config(config, id);
	} else {
		colon = strrchr(buf, ':');
		if (colon != NULL && all_modifiers(colon + 1))
			*colon = '\0';
		if (!resolve_symbol(buf, aliases, n_aliases, id))
			id->kind = EVENT_ID_NAME;
	}
	/* An alias resolved through its libpfm4 string: the name stays. */
	event_id_normalise(name, id->name, sizeof(id->name));
}

bool event_id_same(const struct event_id *a, const struct event_id *b)
{
	if (a->kind != EVENT_ID_CORE || b->kind != EVENT_ID_CORE)
		return strcmp(a->name, b->name) == 0;
	return a->event == b->event && a->umask == b->umask && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge && a->any == b->any &&
	       a->config1 == b->config1;
}
