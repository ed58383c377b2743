#include "sim_host.h"
#include "lib/clock.h"
#include "lib/model/model_table.h"
#include "test.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	const struct model *all[200];
	size_t n = model_tables_all(all, 200);
	for (size_t i = 0; i < n; i++) {
		const struct model *m = all[i];
		if (sim_host_pmu_of(m) == NULL) { printf("%s: not simulated\n", m->name); continue; }
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			for (int smt = 0; smt < 2; smt++) for (int wd = 0; wd < 2; wd++) for (unsigned res = 0; res < 3; res++) {
				struct sim_host h; char err[1024];
				bool checked[MODEL_MAX_METRICS] = { false };
				int r = sim_host_open(&h, m, sim_host_pmu_of(m), smt, wd, res, err, sizeof(err));
				if (r == -ENOSPC) { sim_host_close(&h); continue; }
				if (r < 0) { printf("%s smt%d wd%d res%u: open %s\n", m->name, smt, wd, res, err); _exit(1); }
				sim_host_start(&h);
				r = sim_host_run(&h, 3 * NS_PER_SEC, true, err, sizeof(err));
				if (r < 0) { printf("%s: run %s\n", m->name, err); _exit(1); }
				if (simpmu_violations(h.sim)) { printf("%s: %s\n", m->name, simpmu_violation_text(h.sim)); _exit(1); }
				if (sim_host_verify_metrics(&h, checked, err, sizeof(err)) < 0) { printf("%s smt%d wd%d res%u: %s\n", m->name, smt, wd, res, err); _exit(1); }
				unsigned c = 0; for (unsigned k = 0; k < m->n_metrics; k++) c += checked[k];
				if (smt && wd && res == 0) printf("%s: %u/%u\n", m->name, c, m->n_metrics);
				sim_host_close(&h);
			}
			fflush(stdout);
			_exit(0);
		}
		int st; waitpid(pid, &st, 0);
	}
	return 0;
}
