/*
 * event_id.h - what an event counts, whatever its spelling.  perf writes
 * one count as "cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/",
 * "cpu@INT_MISC.RECOVERY_CYCLES\,cmask\=1\,edge@" or "r104010d"; libpfm4 as
 * "INT_MISC:RECOVERY_CYCLES:c=1:e=1"; a model names it INT_MISC.CLEARS_COUNT.
 * All of them come to one identity here: the core PMU's encoding (event
 * select, umask, cmask, inv, edge, any, config1), through libpfm4's tables
 * for a chosen PMU and perf's own raw terms.  A name neither can encode
 * (generic "cycles", a sysfs "cpu/slots/", a PMU libpfm4 lacks) keeps its
 * normalised spelling as identity, so it still matches the same spelling.
 */
#ifndef STACKD_EVENT_ID_H
#define STACKD_EVENT_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum event_id_kind {
	EVENT_ID_NAME,  /* known by its normalised name only */
	EVENT_ID_CORE,  /* a core PMU encoding */
};

struct event_id {
	enum event_id_kind kind;
	uint16_t event;     /* event select; AMD's bits 32-35 are its bits 8-11 */
	uint8_t umask, cmask;
	bool inv, edge, any;
	uint64_t config1;   /* offcore response, ldlat, frontend: part of the event */
	char name[160];     /* normalised name (event_id_normalise) */
};

/* A symbolic name a model knows its own way: perf's JSON name for one of
 * its events and the libpfm4 string the model counts. */
struct event_id_alias {
	const char *perf_name;
	const char *pfm_name;
};

/* Resolve symbolic names in libpfm4's table for pmu ("icl",
 * "amd64_fam19h_zen4"), whether or not this host has that PMU
 * (LIBPFM_FORCE_PMU for one initialisation).  NULL or a PMU libpfm4 does
 * not know: raw terms and names only.  Not thread-safe (libpfm4 state). */
void event_id_use_pmu(const char *pmu);

/* name -> identity, trying aliases[] first for symbolic names. */
void event_id_resolve(const char *name, const struct event_id_alias *aliases, size_t n_aliases,
		      struct event_id *id);

/* Both encodings equal, or (when one is not encoded) both names. */
bool event_id_same(const struct event_id *a, const struct event_id *b);

/* perf's spelling as a comparable name: lower case, libpfm4's ':' as '.',
 * no "cpu/" around a plain name, no :u/:k modifiers, '@' form as '/',
 * generic synonyms (cpu-cycles, inst_retired.any) as perf's generic name. */
void event_id_normalise(const char *in, char *out, size_t len);

/* The privilege modifiers on a name ("u" for "cycles:u" or "cpu/.../u"),
 * "" when none. */
void event_id_modifiers(const char *name, char *out, size_t len);

#endif
