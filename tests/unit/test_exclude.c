/* Exclusions fold processes into "[excluded]" without losing a count, and
 * families pick counter groups by name or prefix with clear errors. */
#include "daemon/attribute/exclude.h"
#include "daemon/plan/families.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct iv_proc proc(int32_t pid, const char *comm, int64_t uid, const char *unit)
{
	struct iv_proc p = { .pid = pid, .uid = uid };

	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	p.unit = unit != NULL ? strdup(unit) : NULL;
	p.cmdline = strdup(comm);
	return p;
}

static void check_fold(void)
{
	struct interval_data iv;
	struct exclusions x;
	char err[256];
	uint64_t before = 0, after = 0, excl_tc = 0;
	size_t i, n_excl_rows = 0;

	memset(&iv, 0, sizeof(iv));
	iv.procs = calloc(6, sizeof(*iv.procs));
	iv.rows = calloc(8, sizeof(*iv.rows));
	iv.procs[0] = proc(0, "[idle]", -1, NULL);
	iv.procs[1] = proc(10, "kworker/0:1", 0, NULL);
	iv.procs[2] = proc(11, "web", 1000, "web.service");
	iv.procs[3] = proc(12, "sshd", 0, "session-3.scope");
	iv.procs[4] = proc(13, "backup", 34, "backup.service");
	iv.procs[5] = proc(14, "kworker/1:0", 0, NULL);
	iv.n_procs = 6;
	for (i = 0; i < 8; i++) {
		iv.rows[i] = (struct iv_row){ .proc = (uint32_t)(i % 6), .group = (uint16_t)(i / 6),
					      .task_clock_ns = 100 * (i + 1), .context_switches = i,
					      .v = { i, 1 } };
		before += iv.rows[i].task_clock_ns;
	}
	iv.n_rows = 8;

	CHECK(exclude_parse(&x, "kworker/*, nosuch", "*.scope", "34", err, sizeof(err)) == 0);
	CHECK(!exclude_empty(&x));
	/* kworker x2, sshd (scope), backup (uid 34): four folded */
	CHECK(exclude_apply(&x, &iv) == 4);
	CHECK_EQ_U(iv.n_procs, 3);
	CHECK(iv.procs[0].pid == 0);             /* idle is never excluded */
	CHECK(iv.procs[1].pid == PID_EXCLUDED);   /* in the first excluded slot */
	CHECK_STR(iv.procs[1].comm, PID_EXCLUDED_COMM);
	CHECK(iv.procs[2].pid == 11);
	for (i = 0; i < iv.n_rows; i++) {
		after += iv.rows[i].task_clock_ns;
		CHECK(iv.rows[i].proc < iv.n_procs);
		if (iv.rows[i].proc == 1) {
			n_excl_rows++;
			excl_tc += iv.rows[i].task_clock_ns;
		}
	}
	CHECK_EQ_U(after, before);                /* nothing lost */
	/* group 0: procs 1, 3, 4, 5 (rows 1, 3, 4, 5); group 1: proc 1 (row 7) */
	CHECK_EQ_U(n_excl_rows, 2);
	CHECK_EQ_U(excl_tc, 200 + 400 + 500 + 600 + 800);
	CHECK_EQ_U(iv.n_rows, 5);
	for (i = 0; i < iv.n_procs; i++) {
		free(iv.procs[i].cmdline);
		free(iv.procs[i].unit);
	}
	free(iv.procs);
	free(iv.rows);

	CHECK(exclude_parse(&x, "", "", "", err, sizeof(err)) == 0 && exclude_empty(&x));
	CHECK(exclude_parse(&x, "", "", "no-such-user-here", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no user 'no-such-user-here'") != NULL);
}

static void check_families(void)
{
	bool off[MODEL_MAX_GROUPS];
	char err[512];
	unsigned g;

	CHECK(families_parse(&model_skl, "all", off, err, sizeof(err)) == 0);
	for (g = 0; g < model_skl.n_groups; g++)
		CHECK(!off[g]);
	/* a prefix takes every group it begins */
	CHECK(families_parse(&model_skl, "td_l1,flops", off, err, sizeof(err)) == 0);
	for (g = 0; g < model_skl.n_groups; g++) {
		const char *n = model_skl.groups[g].name;

		CHECK(off[g] == !(strcmp(n, "td_l1") == 0 || strncmp(n, "flops_", 6) == 0));
	}
	CHECK(families_parse(&model_skl, "all, -fe_uops", off, err, sizeof(err)) == 0);
	CHECK(off[model_group_index(&model_skl, "fe_uops")]);
	CHECK(!off[model_group_index(&model_skl, "td_l1")]);
	/* "td" is no prefix of "td_l1"'s family unless followed by "_" */
	CHECK(families_parse(&model_skl, "td", off, err, sizeof(err)) == 0);
	CHECK(!off[model_group_index(&model_skl, "td_l2_be")]);
	CHECK(families_parse(&model_skl, "t", off, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no family 't' (it has: td_l1,") != NULL);
	CHECK(families_parse(&model_skl, "all,-td,-fe,-flops,-cyc", off, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strstr(err, "leaves no family") != NULL);
	CHECK(families_parse(&model_skl, "td_l1;rm", off, err, sizeof(err)) == -EINVAL);
	CHECK(families_parse(&model_skl, "", off, err, sizeof(err)) == -EINVAL);
	/* Lists of nothing but commas, or with an empty item, are typos: they
	 * once parsed to whatever off[] held before (here: every family on,
	 * so ",,," was accepted as "all"). */
	memset(off, 0, sizeof(off));
	CHECK(families_parse(&model_skl, ",,,", off, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "item 1 is empty") != NULL);
	CHECK(families_parse(&model_skl, "td_l1,,flops", off, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "item 2 is empty") != NULL);
	CHECK(families_parse(&model_skl, " , ", off, err, sizeof(err)) == -EINVAL);
	CHECK(families_parse(&model_skl, "td_l1 , flops", off, err, sizeof(err)) == 0);
}

int main(void)
{
	check_fold();
	check_families();
	return 0;
}
