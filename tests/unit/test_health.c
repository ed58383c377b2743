/*
 * The health fields table (lib/health_fields.h) against everything built
 * from it, so no field can be counted and then lost on the way:
 *  - the migrated schema: every field is a column of interval, and every
 *    column of interval is a field or one of the interval's own;
 *  - each field, set to its own value, comes back from the store through
 *    a window (as its field combines), a minute rollup, the JSON of
 *    /api/v1/system and /metrics;
 *  - the field lists in docs/api.md and docs/man/stackctl.1 are the ones
 *    the table makes (`make docs-health` writes them: this program with
 *    --write-docs, run from the repository's top directory).
 */
#include "daemon/attribute/interval.h"
#include "daemon/serve/prom.h"
#include "daemon/store/store.h"
#include "lib/api.h"
#include "lib/db.h"
#include "lib/health_fields.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define N_IV 3

/* The interval's columns that are not health counts. */
static const char *const own_columns[] = {
	"id", "boot", "start_ns", "end_ns", "ncpus", "model", "busiest_cpu", "rollup_s",
};

static bool is_field(const char *col)
{
#define IS_FIELD(name, ...) if (strcmp(col, #name) == 0) return true;
	HEALTH_FIELDS(IS_FIELD)
#undef IS_FIELD
	return false;
}

static void check_schema(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	unsigned fields = 0;
	size_t i;

	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('interval')", -1, &st,
				 NULL) == SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		bool own = false;

		for (i = 0; i < sizeof(own_columns) / sizeof(own_columns[0]); i++)
			own = own || strcmp(col, own_columns[i]) == 0;
		if (!own && !is_field(col)) {
			fprintf(stderr, "interval.%s is no field of lib/health_fields.h\n", col);
			CHECK(0);
		}
		fields += !own;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* no field without its column */
	CHECK_EQ_U(fields, HEALTH_N_FIELDS);
}

/* Field k of interval j: its own value everywhere. */
static uint64_t value(unsigned k, unsigned j)
{
	return 100 * (uint64_t)k + j + 1;
}

/* Intervals ending at 100, 110 and 130 s: the minute (60, 120] is complete. */
static struct interval_data *make_interval(unsigned j)
{
	static const uint64_t end_s[N_IV] = { 100, 110, 130 };
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned k = 0;

	CHECK(iv != NULL);
	iv->start_ns = (end_s[j] - 10) * SEC;
	iv->end_ns = end_s[j] * SEC;
	iv->ncpus = 2;
	iv->st.busiest_cpu = 1;
#define SET_FIELD(name, ...) iv->st.name = value(k++, j);
	HEALTH_FIELDS(SET_FIELD)
#undef SET_FIELD
	return iv;
}

/* What field k adds up to over intervals 0 .. n-1. */
#define FOLD(combine)								\
	static uint64_t fold_##combine(unsigned k, unsigned n)			\
	{									\
		uint64_t acc = 0;						\
										\
		for (unsigned j = 0; j < n; j++)				\
			acc = HEALTH_COMBINE_##combine(acc, value(k, j));	\
		return acc;							\
	}
FOLD(sum)
FOLD(max)
#define OVER(combine, k, n) fold_##combine(k, n)

static void check_window(struct db *db, const char *path)
{
	struct window w;
	char err[1024];
	unsigned k = 0;

	CHECK(query_health(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_EQ_U(w.n_intervals, N_IV);
#define CHECK_FIELD(name, combine, ...) CHECK_EQ_U(w.name, OVER(combine, k, N_IV)); k++;
	HEALTH_FIELDS(CHECK_FIELD)
#undef CHECK_FIELD
	CHECK_EQ_U(k, HEALTH_N_FIELDS);
	window_done(&w);

	/* the minute rollup of the first two intervals */
	k = 0;
#define CHECK_ROLLUP(name, combine, ...) \
	CHECK_EQ_U(scalar(path, "SELECT " #name " FROM interval WHERE rollup_s = 60"), \
		   OVER(combine, k, 2)); k++;
	HEALTH_FIELDS(CHECK_ROLLUP)
#undef CHECK_ROLLUP
	CHECK_EQ_U(k, HEALTH_N_FIELDS);
}

static void check_api(struct db *db, const char *path)
{
	struct api_info info = { .database = path, .model = &model_software };
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;
	unsigned k = 0;
	char want[256];

	CHECK(api_handle(&info, db, NULL, "GET", "/api/v1/system", "window=1h", &acc, &resp) == 0);
	CHECK_EQ_U(resp.status, 200);
#define CHECK_KEY(name, combine, ...) \
	snprintf(want, sizeof(want), "\"" #name "\": %llu,", \
		 (unsigned long long)OVER(combine, k, N_IV)); k++; \
	if (strstr(resp.body, want) == NULL) { \
		fprintf(stderr, "no '%s' in %s\n", want, resp.body); \
		CHECK(0); \
	}
	HEALTH_FIELDS(CHECK_KEY)
#undef CHECK_KEY
	CHECK_EQ_U(k, HEALTH_N_FIELDS);
	free(resp.body);
}


/* The /metrics line of a health field: a *_ns field in seconds. */
static void prom_want(char *want, size_t size, const char *field, const char *prom,
		      const char *type, unsigned long long v)
{
	size_t n = strlen(field);

	if (n > 3 && strcmp(field + n - 3, "_ns") == 0)
		snprintf(want, size, "# TYPE stackd_%s %s\nstackd_%s %llu.%09llu\n", prom, type,
			 prom, v / 1000000000ULL, v % 1000000000ULL);
	else
		snprintf(want, size, "# TYPE stackd_%s %s\nstackd_%s %llu\n", prom, type, prom, v);
}

static void check_prom(struct interval_data *const *iv)
{
	struct prom *p;
	char *text = NULL, want[256];
	size_t len = 0;
	unsigned j, k = 0;
	FILE *f;

	CHECK(prom_new(&model_software, NULL, &(struct prom_limits){ .max_keys = 10 }, &p) == 0);
	for (j = 0; j < N_IV; j++)
		prom_add_interval(p, iv[j]);
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	prom_render(p, NULL, false, f);
	fclose(f);
	/* counters since the start; a gauge shows the newest interval */
#define CHECK_METRIC(name, combine, prom, ...) \
	prom_want(want, sizeof(want), #name, prom, HEALTH_PROM_TYPE_##combine, \
		  (unsigned long long)OVER(combine, k, N_IV)); k++; \
	if (strstr(text, want) == NULL) { \
		fprintf(stderr, "no '%s' in %s\n", want, text); \
		CHECK(0); \
	}
	HEALTH_FIELDS(CHECK_METRIC)
#undef CHECK_METRIC
	CHECK_EQ_U(k, HEALTH_N_FIELDS);
	free(text);
	prom_free(p);
}

/* ---- the documentation's field lists ---------------------------------- */

struct doc {
	const char *path, *begin, *end;
	void (*write)(FILE *f);
};

static void write_api_md(FILE *f)
{
	fputs("| field | adds up as | `/metrics` | what it counts |\n|---|---|---|---|\n", f);
#define API_ROW(name, combine, prom, help, ...) \
	fprintf(f, "| `%s` | %s | `stackd_%s` (%s) | %s |\n", #name, #combine, prom, \
		HEALTH_PROM_TYPE_##combine, help);
	HEALTH_FIELDS(API_ROW)
#undef API_ROW
}

static void write_man(FILE *f)
{
#define MAN_ITEM(name, combine, prom, help, label) \
	fprintf(f, ".TP\n.B %s\n%s\n(JSON \\fB%s\\fR, the %s over the window)\n", label, help, \
		#name, #combine);
	HEALTH_FIELDS(MAN_ITEM)
#undef MAN_ITEM
}

static const struct doc docs[] = {
	{ "docs/api.md", "<!-- health fields: written by make docs-health from lib/health_fields.h -->\n",
	  "<!-- end of health fields -->\n", write_api_md },
	{ "docs/man/stackctl.1", ".\\\" health fields: written by make docs-health from lib/health_fields.h\n",
	  ".\\\" end of health fields\n", write_man },
};

static char *slurp(const char *path)
{
	char *text = NULL;
	size_t len = 0, n;
	char buf[4096];
	FILE *in = fopen(path, "re");
	FILE *out = open_memstream(&text, &len);

	if (in == NULL)
		fprintf(stderr, "cannot read %s (run from the top directory)\n", path);
	CHECK(in != NULL && out != NULL);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	return text;
}

/* Compare each document's block with the table's; with write, replace it. */
static void check_docs(bool write)
{
	size_t i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		const struct doc *d = &docs[i];
		char *text = slurp(d->path), *want = NULL, *b, *e;
		size_t len = 0;
		FILE *f = open_memstream(&want, &len);

		CHECK(f != NULL);
		d->write(f);
		fclose(f);
		b = strstr(text, d->begin);
		e = b != NULL ? strstr(b, d->end) : NULL;
		if (e == NULL)
			fprintf(stderr, "%s: no block between '%s' and '%s'\n", d->path, d->begin,
				d->end);
		CHECK(e != NULL);
		b += strlen(d->begin);
		if (write) {
			f = fopen(d->path, "we");
			CHECK(f != NULL);
			fprintf(f, "%.*s%s%s", (int)(b - text), text, want, e);
			CHECK(fclose(f) == 0);
		} else if ((size_t)(e - b) != len || memcmp(b, want, len) != 0) {
			fprintf(stderr, "%s: the health fields differ from lib/health_fields.h; "
				"run make docs-health.  They should read:\n%s", d->path, want);
			CHECK(0);
		}
		free(want);
		free(text);
	}
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/stackd-unit-health.XXXXXX";
	char path[256], err[1024], cmd[300];
	struct interval_data *iv[N_IV];
	struct store *s = NULL;
	struct db *db = NULL;
	unsigned j;
	bool more;

	if (argc > 1 && strcmp(argv[1], "--write-docs") == 0) {
		check_docs(true);
		return 0;
	}
	check_docs(false);

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/h.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	check_schema(path);
	CHECK(store_register(s, &model_software, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	for (j = 0; j < N_IV; j++) {
		iv[j] = make_interval(j);
		CHECK(store_write_intervals(s, iv[j], err, sizeof(err)) == 0);
	}
	CHECK(store_rollup(s, 10, UINT64_MAX / 2, &more, err, sizeof(err)) == 1);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	check_window(db, path);
	check_api(db, path);
	check_prom(iv);
	db_close(db);
	store_close(s);
	for (j = 0; j < N_IV; j++)
		interval_free(iv[j]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
