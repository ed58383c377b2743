/* The embedded schema steps are numbered 1, 2, ... in order and end at the
 * version readers accept; each one applies cleanly to an empty database. */
#include "daemon/store/store_schema.h"
#include "lib/db.h"
#include "test.h"

#include <sqlite3.h>

int main(void)
{
	sqlite3 *db;
	unsigned i;

	CHECK(n_schema_steps >= 1);
	for (i = 0; i < n_schema_steps; i++)
		CHECK_EQ_U(schema_steps[i].version, i + 1);
	CHECK_EQ_U(schema_steps[n_schema_steps - 1].version, STACKD_SCHEMA_VERSION);
	CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
	for (i = 0; i < n_schema_steps; i++) {
		if (sqlite3_exec(db, schema_steps[i].sql, NULL, NULL, NULL) != SQLITE_OK) {
			fprintf(stderr, "%s: %s\n", schema_steps[i].name, sqlite3_errmsg(db));
			CHECK(0);
		}
	}
	sqlite3_close(db);
	return 0;
}
