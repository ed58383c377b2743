/* A window's memory follows its processes and the model's groups, not the
 * most groups any model may have: query_window of one interval of 2,000
 * processes under the software model holds under 1 kB a process (its
 * name, strings and its groups' sums), measured by the allocator
 * (AddressSanitizer's count of bytes in use).  Before, each process
 * carried MODEL_MAX_GROUPS sums: 2.8 kB, 5.8 MB here, and 320 MB for the
 * 120,000 processes of a 60 s window under 2,000 forks/s (issue 34). */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* AddressSanitizer's runtime (the unit tests' build): bytes malloc'd and
 * not yet freed (sanitizer/allocator_interface.h, not installed here). */
size_t __sanitizer_get_current_allocated_bytes(void);

#define SEC ((uint64_t)NS_PER_SEC)
#define N_PROCS 2000
#define MAX_BYTES_PER_PROC 1024

static struct interval_data *make_interval(void)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned i;

	CHECK(iv != NULL);
	iv->start_ns = 1000000 * SEC;
	iv->end_ns = 1000001 * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * SEC;
	iv->procs = calloc(N_PROCS, sizeof(*iv->procs));
	iv->rows = calloc(N_PROCS, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (i = 0; i < N_PROCS; i++) {
		iv->procs[i] = (struct iv_proc){ .pid = 1000 + (int32_t)i, .uid = 0,
						 .start_ns = 5 * SEC + i };
		snprintf(iv->procs[i].comm, sizeof(iv->procs[i].comm), "stormkid");
		iv->rows[i] = (struct iv_row){ .proc = i, .group = 0, .task_clock_ns = 100000 + i,
					       .context_switches = 2 };
		iv->rows[i].v[0] = i;
	}
	iv->n_procs = iv->n_rows = N_PROCS;
	return iv;
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-winmem.XXXXXX", path[64], cmd[128], err[1024];
	struct store *s = NULL;
	struct interval_data *iv;
	struct db *db = NULL;
	struct window w;
	size_t before, held;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/w.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-w", 1, err, sizeof(err)) == 0);
	iv = make_interval();
	CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
	interval_free(iv);
	store_close(s);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	/* once first, so that SQLite's page cache is as full as it gets */
	CHECK(query_window(db, 60 * SEC, &w, err, sizeof(err)) == 0);
	window_done(&w);
	before = __sanitizer_get_current_allocated_bytes();
	CHECK(query_window(db, 60 * SEC, &w, err, sizeof(err)) == 0);
	held = __sanitizer_get_current_allocated_bytes() - before;
	CHECK_EQ_U(w.n_procs, N_PROCS);
	CHECK(find(&w, 1000 + N_PROCS - 1) != NULL);
	CHECK_EQ_U(find(&w, 1000 + N_PROCS - 1)->sums[0].v[0], N_PROCS - 1);
	if (held > (size_t)N_PROCS * MAX_BYTES_PER_PROC)
		fprintf(stderr, "window of %d processes holds %zu bytes\n", N_PROCS, held);
	CHECK(held <= (size_t)N_PROCS * MAX_BYTES_PER_PROC);
	window_done(&w);
	db_close(db);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
