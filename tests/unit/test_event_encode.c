/* libpfm4 names of the software model's events encode to the kernel's
 * software event numbers (include/uapi/linux/perf_event.h:
 * PERF_COUNT_SW_PAGE_FAULTS = 2, PERF_COUNT_SW_CPU_MIGRATIONS = 4), and every
 * event of every model in the registry encodes on this machine. */
#include "daemon/collect/event_encode.h"
#include "lib/model/model.h"
#include "test.h"

#include <errno.h>
#include <string.h>

int main(void)
{
	struct perf_event_attr a;
	const struct model *const *all;
	char err[512];
	size_t n, i;
	unsigned g, e;

	CHECK(event_encode_init(err, sizeof(err)) == 0);
	memset(&a, 0, sizeof(a));
	CHECK(event_encode("perf::PAGE-FAULTS", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.type, PERF_TYPE_SOFTWARE);
	CHECK_EQ_U(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	CHECK_EQ_U(a.config, 2);
	CHECK(event_encode("perf::CPU-MIGRATIONS", &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.type, PERF_TYPE_SOFTWARE);
	CHECK_EQ_U(a.config, 4);
	CHECK(event_encode("perf::NO-SUCH-EVENT", &a, err, sizeof(err)) < 0);
	CHECK(strstr(err, "perf::NO-SUCH-EVENT") != NULL);

	/* The software model must encode anywhere (hardware models are checked
	 * with a forced PMU in their own tests). */
	all = model_all(&n);
	for (i = 0; i < n; i++) {
		if (strcmp(all[i]->name, "software") != 0)
			continue;
		for (g = 0; g < all[i]->n_groups; g++)
			for (e = 0; e < all[i]->groups[g].n_events; e++) {
				memset(&a, 0, sizeof(a));
				if (event_encode(all[i]->groups[g].events[e].name, &a, err,
						 sizeof(err)) != 0) {
					fprintf(stderr, "%s\n", err);
					CHECK(0);
				}
			}
	}
	return 0;
}
