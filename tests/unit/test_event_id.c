/* Event identity: the spellings perf writes (symbolic with terms, raw
 * terms, the '@' form of metric expressions, rNNN, :u/:k modifiers) and
 * libpfm4's come to the same encoding under a chosen PMU, even one this
 * host lacks; names libpfm4 cannot encode still match by name. */
#include "cli/event_id.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static struct event_id id_of(const char *name, const struct event_id_alias *al, size_t n)
{
	struct event_id id;

	event_id_resolve(name, al, n, &id);
	return id;
}

static void names(void)
{
	char out[160];

	event_id_normalise("IDQ_UOPS_NOT_DELIVERED:CORE", out, sizeof(out));
	CHECK_STR(out, "idq_uops_not_delivered.core");
	event_id_normalise("cpu/topdown-fe-bound/", out, sizeof(out));
	CHECK_STR(out, "topdown-fe-bound");
	event_id_normalise("cpu-cycles:u", out, sizeof(out));
	CHECK_STR(out, "cycles");
	event_id_normalise("cpu/event=0x1a0,umask=0x1,cmask=0x6/", out, sizeof(out));
	CHECK_STR(out, "cpu/event=0x1a0,umask=0x1,cmask=0x6/");
	event_id_normalise("cpu/event=0x1a0,umask=0x1/uk", out, sizeof(out));
	CHECK_STR(out, "cpu/event=0x1a0,umask=0x1/");
	event_id_normalise("cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@", out, sizeof(out));
	CHECK_STR(out, "cpu/int_misc.recovery_cycles,cmask=1,edge/");
	event_id_modifiers("cycles:u", out, sizeof(out));
	CHECK_STR(out, "u");
	event_id_modifiers("cpu/event=0x3c/k", out, sizeof(out));
	CHECK_STR(out, "k");
	event_id_modifiers("UOPS_ISSUED:ANY", out, sizeof(out));
	CHECK_STR(out, "");
}

/* Ice Lake's machine-clears term: perf's JSON event with terms, the '@'
 * form, raw terms, raw code and libpfm4's names are one event. */
static void icelake_recovery(void)
{
	struct event_id model, e;
	static const char *const same[] = {
		"cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/",
		"cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/u",
		"cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@",
		"cpu/event=0x0d,umask=0x01,cmask=1,edge=1/",
		"r104010d",
		"INT_MISC:CLEARS_COUNT",
		"INT_MISC.CLEARS_COUNT:k",
	};
	size_t i;

	event_id_use_pmu("icl");
	model = id_of("INT_MISC:RECOVERY_CYCLES:c=1:e=1", NULL, 0);
	CHECK(model.kind == EVENT_ID_CORE);
	CHECK_EQ_U(model.event, 0x0d);
	CHECK_EQ_U(model.umask, 0x01);
	CHECK_EQ_U(model.cmask, 1);
	CHECK(model.edge && !model.inv && !model.any);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		e = id_of(same[i], NULL, 0);
		if (!event_id_same(&model, &e))
			fprintf(stderr, "not the same: %s\n", same[i]);
		CHECK(event_id_same(&model, &e));
	}
	e = id_of("INT_MISC.RECOVERY_CYCLES", NULL, 0);  /* no cmask, no edge */
	CHECK(e.kind == EVENT_ID_CORE && !event_id_same(&model, &e));
	e = id_of("cpu/INT_MISC.RECOVERY_CYCLES,cmask=1/", NULL, 0);
	CHECK(!event_id_same(&model, &e));
}

/* Zen 4: perf's JSON name with cmask, the model's raw spelling and the
 * libpfm4 string; the JSON name reaches libpfm4 through the model's alias. */
static void zen4_cmask(void)
{
	static const struct event_id_alias al[] = {
		{ "de_no_dispatch_per_slot.no_ops_from_frontend", "DISPATCH_STALLS_1:FE_NO_OPS" },
	};
	struct event_id a, b, c, plain;

	event_id_use_pmu("amd64_fam19h_zen4");
	a = id_of("cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", al, 1);
	b = id_of("cpu/event=0x1a0,umask=0x1,cmask=0x6/", NULL, 0);
	c = id_of("DISPATCH_STALLS_1:FE_NO_OPS:c=6", NULL, 0);
	CHECK(a.kind == EVENT_ID_CORE && b.kind == EVENT_ID_CORE && c.kind == EVENT_ID_CORE);
	CHECK_EQ_U(a.event, 0x1a0);  /* AMD's event select bits 32-35 */
	CHECK(event_id_same(&a, &b) && event_id_same(&b, &c));
	plain = id_of("de_no_dispatch_per_slot.no_ops_from_frontend", al, 1);
	CHECK(plain.kind == EVENT_ID_CORE && !event_id_same(&plain, &a));
	/* Without the alias libpfm4 does not know perf's name: by name only. */
	plain = id_of("cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", NULL, 0);
	CHECK(plain.kind == EVENT_ID_NAME && !event_id_same(&plain, &b));
}

/* config1 is part of the event: offcore response. */
static void offcore(void)
{
	struct event_id a, b, c;

	event_id_use_pmu("skl");
	a = id_of("OFFCORE_RESPONSE_0:ANY_REQUEST:ANY_RESPONSE", NULL, 0);
	b = id_of("cpu/event=0xb7,umask=0x1,offcore_rsp=0x18007/", NULL, 0);
	c = id_of("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", NULL, 0);
	CHECK_EQ_U(a.config1, 0x18007);
	CHECK(event_id_same(&a, &b) && !event_id_same(&a, &c));
}

/* A PMU libpfm4 does not know: symbolic names fall back to names; raw
 * terms still encode.  LIBPFM_FORCE_PMU is left as it was. */
static void fallback(void)
{
	struct event_id a, b, c;

	CHECK(setenv("LIBPFM_FORCE_PMU", "skl", 1) == 0);
	event_id_use_pmu("no_such_pmu");
	CHECK_STR(getenv("LIBPFM_FORCE_PMU"), "skl");
	a = id_of("UOPS_ISSUED.ANY", NULL, 0);
	b = id_of("UOPS_ISSUED:ANY:u", NULL, 0);
	c = id_of("UOPS_ISSUED.STALL_CYCLES", NULL, 0);
	CHECK(a.kind == EVENT_ID_NAME && event_id_same(&a, &b) && !event_id_same(&a, &c));
	a = id_of("cpu/event=0x3c/k", NULL, 0);
	b = id_of("r3c", NULL, 0);
	CHECK(a.kind == EVENT_ID_CORE && event_id_same(&a, &b));
	a = id_of("cpu/slots/", NULL, 0);
	b = id_of("slots", NULL, 0);
	CHECK(event_id_same(&a, &b));
	a = id_of("uncore_imc_0/event=0x4,umask=0x3/", NULL, 0);  /* not the core PMU */
	b = id_of("cpu/event=0x4,umask=0x3/", NULL, 0);
	CHECK(a.kind == EVENT_ID_NAME && !event_id_same(&a, &b));
	CHECK(unsetenv("LIBPFM_FORCE_PMU") == 0);
}

int main(void)
{
	names();
	icelake_recovery();
	zen4_cmask();
	offcore();
	fallback();
	return 0;
}
