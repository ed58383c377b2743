/*
 * spill.c - the spill file: intervals a clean stop could not write to the
 * database, kept beside it for the next start.  See spill.h.
 *
 * The file is a sequence of batches, one per stop, appended and synced:
 *
 *   "STKDSPL\n"  u32 version  u64 payload bytes  u64 FNV-1a of the payload
 *   payload: the model (name, formula version), the boot (id, booted_ns),
 *            the plan's groups (family, part, parts, events), the names of
 *            the health fields, then the intervals field by field
 *
 * Numbers in the host's byte order: the file never leaves the host.  The
 * health fields go by name, so a stackd that added or dropped one still
 * reads the file; a batch that does not check out (cut short by a crash,
 * damaged) stops the replay, and the file is kept under another name.
 */
#include "daemon/store/spill.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SPILL_MAGIC "STKDSPL\n"
/* 2: each process's container after its unit (version 1 is still read) */
#define SPILL_VERSION 2
#define SPILL_HEADER_BYTES (8 + 4 + 8 + 8)
#define SPILL_NULL_STR 0xffffffffu
/* A spill holds at most retry_buffer intervals a stop: far below this. */
#define SPILL_MAX_BYTES (1ULL << 30)

static const char *const health_names[] = {
#define NAME(name, ...) #name,
	HEALTH_FIELDS(NAME)
#undef NAME
};
static const size_t health_offsets[] = {
#define OFFSET(name, ...) offsetof(struct iv_stats, name),
	HEALTH_FIELDS(OFFSET)
#undef OFFSET
};
#define N_HEALTH (sizeof(health_names) / sizeof(health_names[0]))

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n-- > 0)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}

/* ---- writing ------------------------------------------------------------ */

struct sbuf {
	unsigned char *p;
	size_t len, cap;
	bool failed;   /* out of memory: the batch is not written */
};

static void put(struct sbuf *b, const void *v, size_t n)
{
	if (b->failed || n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p == NULL) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void put_u32(struct sbuf *b, uint32_t v)
{
	put(b, &v, sizeof(v));
}

static void put_u64(struct sbuf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct sbuf *b, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	put_u32(b, s != NULL ? (uint32_t)n : SPILL_NULL_STR);
	put(b, s, n);
}

static void put_context(struct sbuf *b, const struct spill_context *ctx)
{
	unsigned g, k;
	size_t i;

	put_str(b, ctx->model->name);
	put_u32(b, ctx->model->formula_version);
	put_str(b, ctx->boot_id);
	put_u64(b, ctx->booted_ns);
	put_u32(b, ctx->plan->n_groups);
	for (g = 0; g < ctx->plan->n_groups; g++) {
		const struct plan_group *pg = &ctx->plan->groups[g];

		put_u32(b, pg->family);
		put_u32(b, pg->part);
		put_u32(b, pg->n_parts);
		put_u32(b, pg->n_events);
		for (k = 0; k < pg->n_events; k++)
			put_u32(b, pg->events[k]);
	}
	put_u32(b, (uint32_t)N_HEALTH);
	for (i = 0; i < N_HEALTH; i++)
		put_str(b, health_names[i]);
}

/* A process's container: its id (null: none), then the rest. */
static void put_container(struct sbuf *b, const struct container *c)
{
	put_str(b, c != NULL ? c->id : NULL);
	if (c == NULL)
		return;
	put_str(b, c->runtime);
	put_str(b, c->pod_uid);
	put_str(b, c->namespace_);
	put_str(b, c->pod);
	put_str(b, c->name);
}

static void put_interval(struct sbuf *b, const struct interval_data *iv)
{
	size_t i, k;

	put_u64(b, iv->start_ns);
	put_u64(b, iv->end_ns);
	put_u32(b, iv->ncpus);
	put_u32(b, (uint32_t)iv->st.busiest_cpu);
	for (i = 0; i < N_HEALTH; i++)
		put(b, (const char *)&iv->st + health_offsets[i], sizeof(uint64_t));
	put_u32(b, iv->n_groups);
	for (i = 0; i < iv->n_groups; i++) {
		put_u64(b, iv->enabled_ns[i]);
		put_u32(b, iv->unschedulable[i]);
	}
	put_u64(b, iv->n_procs);
	for (i = 0; i < iv->n_procs; i++) {
		const struct iv_proc *p = &iv->procs[i];

		put_u32(b, (uint32_t)p->pid);
		put_u64(b, p->start_ns);
		put(b, p->comm, sizeof(p->comm));
		put_u64(b, (uint64_t)p->uid);
		put_str(b, p->cmdline);
		put_str(b, p->unit);
		put_container(b, p->container);
		put_u64(b, p->exit_ns);
	}
	put_u64(b, iv->n_rows);
	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *r = &iv->rows[i];

		put_u32(b, r->proc);
		put_u32(b, r->group);
		put_u64(b, r->task_clock_ns);
		put_u64(b, r->periodic_ns);
		put_u64(b, r->context_switches);
		put_u32(b, MODEL_MAX_EVENTS);
		for (k = 0; k < MODEL_MAX_EVENTS; k++)
			put_u64(b, r->v[k]);
	}
}

static int spill_path(const char *path, char *file, size_t len)
{
	return (size_t)snprintf(file, len, "%s%s", path, SPILL_SUFFIX) < len ? 0 : -ENAMETOOLONG;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The batch (header and payload) appended to file and synced. */
static int append_batch(const char *file, const struct sbuf *payload)
{
	unsigned char head[SPILL_HEADER_BYTES];
	uint32_t version = SPILL_VERSION;
	uint64_t n = payload->len, sum = fnv1a(payload->p, payload->len);
	int fd, r;

	memcpy(head, SPILL_MAGIC, 8);
	memcpy(head + 8, &version, 4);
	memcpy(head + 12, &n, 8);
	memcpy(head + 20, &sum, 8);
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (fd < 0)
		return -errno;
	r = write_all(fd, head, sizeof(head));
	if (r == 0)
		r = write_all(fd, payload->p, payload->len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int spill_save(const char *path, const struct spill_context *ctx,
	       const struct interval_data *iv, char *err, size_t errlen)
{
	struct sbuf b = { 0 };
	const struct interval_data *it;
	char file[PATH_MAX];
	uint32_t n = 0;
	int r;

	r = spill_path(path, file, sizeof(file));
	if (r < 0) {
		snprintf(err, errlen, "'%s%s': %s", path, SPILL_SUFFIX, strerror(-r));
		return r;
	}
	for (it = iv; it != NULL; it = it->next)
		n++;
	put_context(&b, ctx);
	put_u32(&b, n);
	for (it = iv; it != NULL; it = it->next)
		put_interval(&b, it);
	r = b.failed ? -ENOMEM : append_batch(file, &b);
	free(b.p);
	if (r < 0)
		snprintf(err, errlen, "cannot write '%s': %s", file, strerror(-r));
	return r;
}

bool spill_exists(const char *path)
{
	char file[PATH_MAX];
	struct stat st;

	return spill_path(path, file, sizeof(file)) == 0 && lstat(file, &st) == 0;
}

/* ---- reading ------------------------------------------------------------ */

struct rd {
	const unsigned char *p;
	size_t len, off;
	bool bad;   /* ran past the end or found a value out of range */
	uint32_t version;   /* the batch's */
};

static void get(struct rd *r, void *v, size_t n)
{
	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, r->p + r->off, n);
	r->off += n;
}

static uint32_t get_u32(struct rd *r)
{
	uint32_t v;

	get(r, &v, sizeof(v));
	return v;
}

static uint64_t get_u64(struct rd *r)
{
	uint64_t v;

	get(r, &v, sizeof(v));
	return v;
}

/* A string of at most max bytes, malloc'd; NULL for a null one (or bad). */
static char *get_str(struct rd *r, size_t max)
{
	uint32_t n = get_u32(r);
	char *s;

	if (r->bad || n == SPILL_NULL_STR)
		return NULL;
	if (n > max || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	s = malloc((size_t)n + 1);
	if (s == NULL) {
		r->bad = true;
		return NULL;
	}
	get(r, s, n);
	s[n] = '\0';
	return s;
}

/* One batch as read: what to register, and the intervals. */
struct batch {
	const struct model *model;
	struct plan plan;
	char boot_id[64];
	uint64_t booted_ns;
	int health_map[64];   /* the file's health field i -> ours, or -1 */
	uint32_t n_health;
	struct interval_data *list;
};

static bool get_group(struct rd *r, const struct model *m, struct plan_group *pg)
{
	unsigned k;

	pg->family = get_u32(r);
	pg->part = get_u32(r);
	pg->n_parts = get_u32(r);
	pg->n_events = get_u32(r);
	if (r->bad || pg->family >= m->n_groups || pg->n_events > MODEL_MAX_EVENTS)
		return false;
	for (k = 0; k < pg->n_events; k++) {
		uint32_t e = get_u32(r);

		if (e >= m->groups[pg->family].n_events)
			return false;
		pg->events[k] = (uint8_t)e;
	}
	return !r->bad;
}

static bool get_context(struct rd *r, struct batch *b)
{
	char *name = get_str(r, 64), *boot;
	uint32_t version = get_u32(r), i, j;

	b->model = name != NULL ? model_find(name) : NULL;
	free(name);
	boot = get_str(r, sizeof(b->boot_id) - 1);
	if (boot != NULL)
		snprintf(b->boot_id, sizeof(b->boot_id), "%s", boot);
	free(boot);
	b->booted_ns = get_u64(r);
	if (b->model == NULL || version != b->model->formula_version || b->boot_id[0] == '\0')
		return false;
	b->plan.model = b->model;
	b->plan.n_groups = get_u32(r);
	if (b->plan.n_groups == 0 || b->plan.n_groups > PLAN_MAX_GROUPS)
		return false;
	for (i = 0; i < b->plan.n_groups; i++)
		if (!get_group(r, b->model, &b->plan.groups[i]))
			return false;
	b->n_health = get_u32(r);
	if (b->n_health > sizeof(b->health_map) / sizeof(b->health_map[0]))
		return false;
	for (i = 0; i < b->n_health; i++) {
		char *h = get_str(r, 64);

		b->health_map[i] = -1;
		for (j = 0; h != NULL && j < N_HEALTH; j++)
			if (strcmp(h, health_names[j]) == 0)
				b->health_map[i] = (int)j;
		free(h);
	}
	return !r->bad;
}

/* A string field of at most len - 1 bytes into buf. */
static void get_field(struct rd *r, char *buf, size_t len)
{
	char *s = get_str(r, len - 1);

	snprintf(buf, len, "%s", s != NULL ? s : "");
	free(s);
}

static struct container *get_container(struct rd *r)
{
	char *id = r->version >= 2 ? get_str(r, CONTAINER_ID_LEN) : NULL;
	struct container *c = id != NULL ? calloc(1, sizeof(*c)) : NULL;

	if (id != NULL && c == NULL)
		r->bad = true;
	if (c != NULL) {
		snprintf(c->id, sizeof(c->id), "%s", id);
		get_field(r, c->runtime, sizeof(c->runtime));
		get_field(r, c->pod_uid, sizeof(c->pod_uid));
		get_field(r, c->namespace_, sizeof(c->namespace_));
		get_field(r, c->pod, sizeof(c->pod));
		get_field(r, c->name, sizeof(c->name));
	}
	free(id);
	return c;
}

static bool get_procs(struct rd *r, struct interval_data *iv)
{
	uint64_t n = get_u64(r);
	size_t i;

	/* each at least 52 bytes in the file: a count past that is damage */
	if (r->bad || n > (r->len - r->off) / 52)
		return false;
	iv->procs = calloc(n ? n : 1, sizeof(*iv->procs));
	if (iv->procs == NULL)
		return false;
	for (i = 0; i < n && !r->bad; i++) {
		struct iv_proc *p = &iv->procs[i];

		iv->n_procs = i + 1;
		p->pid = (int32_t)get_u32(r);
		p->start_ns = get_u64(r);
		get(r, p->comm, sizeof(p->comm));
		p->comm[sizeof(p->comm) - 1] = '\0';
		p->uid = (int64_t)get_u64(r);
		p->cmdline = get_str(r, 1 << 20);
		p->unit = get_str(r, 4096);
		p->container = get_container(r);
		p->exit_ns = get_u64(r);
	}
	return !r->bad;
}

static bool get_rows(struct rd *r, struct interval_data *iv)
{
	uint64_t n = get_u64(r);
	size_t i, k;

	if (r->bad || n > (r->len - r->off) / 36)
		return false;
	iv->rows = calloc(n ? n : 1, sizeof(*iv->rows));
	if (iv->rows == NULL)
		return false;
	iv->n_rows = n;
	for (i = 0; i < n && !r->bad; i++) {
		struct iv_row *row = &iv->rows[i];
		uint32_t group, n_v;

		row->proc = get_u32(r);
		group = get_u32(r);
		row->group = (uint16_t)group;
		row->task_clock_ns = get_u64(r);
		row->periodic_ns = get_u64(r);
		row->context_switches = get_u64(r);
		n_v = get_u32(r);
		if (row->proc >= iv->n_procs || group >= PLAN_MAX_GROUPS || n_v > MODEL_MAX_EVENTS)
			return false;
		for (k = 0; k < n_v; k++)
			row->v[k] = get_u64(r);
	}
	return !r->bad;
}

static struct interval_data *get_interval(struct rd *r, const struct batch *b)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	uint32_t i;

	if (iv == NULL)
		return NULL;
	iv->start_ns = get_u64(r);
	iv->end_ns = get_u64(r);
	iv->ncpus = get_u32(r);
	iv->st.busiest_cpu = (int32_t)get_u32(r);
	for (i = 0; i < b->n_health; i++) {
		uint64_t v = get_u64(r);

		if (b->health_map[i] >= 0)
			memcpy((char *)&iv->st + health_offsets[b->health_map[i]], &v, sizeof(v));
	}
	iv->n_groups = get_u32(r);
	if (iv->n_groups > PLAN_MAX_GROUPS)
		r->bad = true;
	for (i = 0; i < iv->n_groups && !r->bad; i++) {
		iv->enabled_ns[i] = get_u64(r);
		iv->unschedulable[i] = get_u32(r);
	}
	if (r->bad || !get_procs(r, iv) || !get_rows(r, iv) || iv->end_ns <= iv->start_ns) {
		interval_free(iv);
		return NULL;
	}
	return iv;
}

static void free_list(struct interval_data *iv)
{
	while (iv != NULL) {
		struct interval_data *next = iv->next;

		interval_free(iv);
		iv = next;
	}
}

/* The batch whose payload is r: false when it does not check out. */
static bool get_batch(struct rd *r, struct batch *b)
{
	struct interval_data *tail = NULL;
	uint32_t n, i;

	memset(b, 0, sizeof(*b));
	if (!get_context(r, b))
		return false;
	n = get_u32(r);
	for (i = 0; i < n && !r->bad; i++) {
		struct interval_data *iv = get_interval(r, b);

		if (iv == NULL)
			r->bad = true;
		else if (tail != NULL)
			tail->next = iv;
		else
			b->list = iv;
		if (iv != NULL)
			tail = iv;
	}
	if (r->bad || r->off != r->len || b->list == NULL) {
		free_list(b->list);
		b->list = NULL;
		return false;
	}
	return true;
}

/* ---- replaying ---------------------------------------------------------- */

/* The file's bytes, when it is a file of ours (made by this daemon's user,
 * root, or the database's owner: never one planted through a link). */
static int read_file(const char *path, const char *file, unsigned char **ret, size_t *len)
{
	struct stat st, db;
	unsigned char *p;
	size_t got = 0;
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    (uint64_t)st.st_size > SPILL_MAX_BYTES ||
	    (st.st_uid != geteuid() && st.st_uid != 0 &&
	     (stat(path, &db) < 0 || db.st_uid != st.st_uid))) {
		close(fd);
		return -EPERM;
	}
	p = malloc((size_t)st.st_size + 1);
	while (p != NULL && r == 0 && got < (size_t)st.st_size) {
		ssize_t n = read(fd, p + got, (size_t)st.st_size - got);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n == 0)
			break;
		else if (n > 0)
			got += (size_t)n;
	}
	close(fd);
	if (p == NULL)
		return -ENOMEM;
	if (r < 0) {
		free(p);
		return r;
	}
	*ret = p;
	*len = got;
	return 0;
}

/* Write one batch: registered under its own model, plan and boot, unless
 * its first interval is stored already (a replay cut short before). */
static int write_batch(struct store *s, const struct batch *b, size_t *n_written, char *err,
		       size_t errlen)
{
	const struct interval_data *it;
	int r;

	r = store_has_interval(s, b->boot_id, b->list->start_ns, b->list->end_ns);
	if (r == 0)
		r = store_register(s, b->model, &b->plan, b->boot_id, b->booted_ns, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "cannot look for spilled intervals: %s", strerror(-r));
	if (r == 0)
		r = store_write_intervals(s, b->list, err, errlen);
	if (r == 0)
		for (it = b->list; it != NULL; it = it->next)
			(*n_written)++;
	/* the store's own damage is not the file's */
	return r == -EBADMSG ? -EIO : r < 0 ? r : 0;
}

/* The file kept, renamed, for whoever wants to look at it. */
static void keep_aside(const char *file, char *err, size_t errlen)
{
	char bad[PATH_MAX + 64], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t n = strlen(err);

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(bad, sizeof(bad), "%s.bad-%s", file, stamp);
	if (rename(file, bad) == 0)
		snprintf(err + n, errlen - n, "; kept as '%s'", bad);
	else
		(void)unlink(file);   /* else it would stop every later start */
}

/* Each batch of the file in turn; -EBADMSG at the first that does not
 * check out, with its offset in err. */
static int replay_batches(struct store *s, const unsigned char *p, size_t len,
			  size_t *n_written, char *err, size_t errlen)
{
	size_t off = 0;
	int r;

	while (off < len) {
		uint64_t n, sum;
		uint32_t version;
		struct batch b;
		struct rd rd;

		if (len - off < SPILL_HEADER_BYTES || memcmp(p + off, SPILL_MAGIC, 8) != 0)
			goto bad;
		memcpy(&version, p + off + 8, 4);
		memcpy(&n, p + off + 12, 8);
		memcpy(&sum, p + off + 20, 8);
		off += SPILL_HEADER_BYTES;
		if (version < 1 || version > SPILL_VERSION || n > len - off ||
		    fnv1a(p + off, n) != sum)
			goto bad;
		rd = (struct rd){ .p = p + off, .len = n, .version = version };
		if (!get_batch(&rd, &b))
			goto bad;
		r = write_batch(s, &b, n_written, err, errlen);
		free_list(b.list);
		if (r < 0)
			return r;
		off += n;
	}
	return 0;
bad:
	snprintf(err, errlen, "damaged, or of a layout this stackd does not know, at byte %zu",
		 off);
	return -EBADMSG;
}

int spill_replay(struct store *s, const char *path, size_t *n_written, char *err,
		 size_t errlen)
{
	char file[PATH_MAX], why[512];
	unsigned char *p = NULL;
	size_t len = 0;
	int r;

	*n_written = 0;
	r = spill_path(path, file, sizeof(file));
	if (r == 0)
		r = read_file(path, file, &p, &len);
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s%s': %s", path, SPILL_SUFFIX,
			 r == -EPERM ? "not a file of stackd's" : strerror(-r));
		return r == -EPERM ? -EBADMSG : r;
	}
	r = replay_batches(s, p, len, n_written, why, sizeof(why));
	free(p);
	if (r == -EBADMSG) {
		snprintf(err, errlen, "'%s': %s", file, why);
		keep_aside(file, err, errlen);
		return r;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s", why);
		return r;
	}
	return unlink(file) < 0 && errno != ENOENT ? -errno : 0;
}
