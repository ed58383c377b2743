/* The software model's formulas on constructed sums: rates inside one
 * group, coverage from the group's share of the process's time, and no
 * value where the group never measured the process. */
#include "lib/model/model.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int metric(const struct model *m, const char *name)
{
	unsigned i;

	for (i = 0; i < m->n_metrics; i++)
		if (strcmp(m->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

int main(void)
{
	const struct model *m = model_find("software");
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	int pf, mig, sw;
	char cols[128];

	CHECK(m == &model_software);
	CHECK(m->n_groups == 2);
	CHECK(model_group_index(m, "faults") == 0);
	CHECK(model_group_index(m, "migrations") == 1);
	CHECK(model_group_index(m, "nope") == -1);
	model_group_columns(&m->groups[0], cols, sizeof(cols));
	CHECK_STR(cols, "page_faults");
	pf = metric(m, "page_faults_per_cpu_s");
	mig = metric(m, "migrations_per_cpu_s");
	sw = metric(m, "switches_per_cpu_s");
	CHECK(pf >= 0 && mig >= 0 && sw >= 0);

	memset(sums, 0, sizeof(sums));
	/* faults group measured 0.25 s with 500 faults; migrations 0.75 s, 3 */
	sums[0] = (struct group_sums){ .present = true, .task_clock_ns = 250000000,
				       .context_switches = 10, .v = { 500 } };
	sums[1] = (struct group_sums){ .present = true, .task_clock_ns = 750000000,
				       .context_switches = 30, .v = { 3 } };
	CHECK_EQ_U(model_total_task_clock(m, sums), 1000000000);
	m->compute(m, sums, NULL, out);
	CHECK(out[pf].valid && fabs(out[pf].value - 2000.0) < 1e-9);
	CHECK(fabs(out[pf].coverage - 0.25) < 1e-12);
	CHECK(out[mig].valid && fabs(out[mig].value - 4.0) < 1e-9);
	CHECK(fabs(out[mig].coverage - 0.75) < 1e-12);
	CHECK(out[sw].valid && fabs(out[sw].value - 40.0) < 1e-9 && out[sw].coverage == 1.0);

	/* migrations group never ran while the process did */
	sums[1].present = false;
	m->compute(m, sums, NULL, out);
	CHECK(!out[mig].valid);
	CHECK(out[pf].valid && fabs(out[pf].coverage - 1.0) < 1e-12);
	/* nothing measured at all */
	memset(sums, 0, sizeof(sums));
	m->compute(m, sums, NULL, out);
	CHECK(!out[pf].valid && !out[mig].valid && !out[sw].valid);
	return 0;
}
