/*
 * query_cpifit.c - the newest regression CPI stack fit of the data's model
 * (schema/007-cpi-fit.sql), for the readers that show the stack, or why
 * there is none.
 */
#include "lib/query.h"
#include "lib/db_private.h"
#include "lib/model/cpi_fit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The model's regressor columns as the fit stores them: "a,b,c...". */
static void regressor_list(const struct model *m, char *buf, size_t len)
{
	size_t used = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < CPI_REGRESSORS && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "," : "",
					 model_generic_regressor(m, k));
}

static double column_double(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static void read_fit(sqlite3_stmt *st, struct query_cpi_fit *f)
{
	const unsigned char *dropped = sqlite3_column_text(st, 17);
	unsigned k;

	f->fitted = true;
	f->created_ns = (uint64_t)sqlite3_column_int64(st, 0);
	f->from_ns = (uint64_t)sqlite3_column_int64(st, 1);
	f->to_ns = (uint64_t)sqlite3_column_int64(st, 2);
	f->rows = (size_t)sqlite3_column_int64(st, 3);
	f->train_rows = (size_t)sqlite3_column_int64(st, 4);
	f->held_rows = (size_t)sqlite3_column_int64(st, 5);
	f->r2 = column_double(st, 6);
	f->held_error = column_double(st, 7);
	f->condition = column_double(st, 8);
	f->fit_version = (unsigned)sqlite3_column_int(st, 9);
	for (k = 0; k < CPI_WEIGHTS; k++)
		f->weights[k] = column_double(st, 10 + (int)k);
	snprintf(f->dropped, sizeof(f->dropped), "%s", dropped != NULL ? (const char *)dropped : "");
	f->processes = (size_t)sqlite3_column_int64(st, 19);
	f->held_processes = (size_t)sqlite3_column_int64(st, 20);
	for (k = 0; k < CPI_WEIGHTS; k++)
		f->errors[k] = column_double(st, 21 + (int)k);
}

/* The newest fit of m, or else the newest attempt's reason for none. */
int query_cpi_fit(struct db *db, const struct model *m, struct query_cpi_fit *f)
{
	char regressors[512];
	sqlite3_stmt *st;
	int rc;

	memset(f, 0, sizeof(*f));
	if (m == NULL || !model_is_generic(m))
		return 0;
	f->generic = true;
	regressor_list(m, regressors, sizeof(regressors));
	rc = sqlite3_prepare_v2(db->db, "SELECT created_ns, window_start_ns, window_end_ns, rows,"
				" train_rows, held_rows, r2, held_error, condition, fit_version, w0, w1,"
				" w2, w3, w4, w5, w6, dropped, error, processes, held_processes,"
				" e0, e1, e2, e3, e4, e5, e6 FROM cpi_fit WHERE model = ?1"
				" AND formula_version = ?2 AND fit_version = ?3 AND regressors = ?4"
				" ORDER BY error IS NOT NULL, created_ns DESC, id DESC LIMIT 1",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, m->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, (int)m->formula_version);
	sqlite3_bind_int(st, 3, CPI_FIT_VERSION);
	sqlite3_bind_text(st, 4, regressors, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 18) == SQLITE_NULL)
		read_fit(st, f);
	else if (rc == SQLITE_ROW)
		snprintf(f->reason, sizeof(f->reason), "no regression fit yet: %s",
			 (const char *)sqlite3_column_text(st, 18));
	else
		snprintf(f->reason, sizeof(f->reason), "no regression fit yet: stackd fits %s's "
			 "penalties over the last hour of intervals two minutes after it starts, "
			 "then every ten (it needs %d process-intervals of %.0f instructions or "
			 "more)", m->name, CPI_FIT_MIN_ROWS, CPI_FIT_MIN_INSTRUCTIONS);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
}
