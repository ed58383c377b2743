/*
 * exclude.c - see exclude.h.
 */
#include "daemon/attribute/exclude.h"
#include "daemon/attribute/users.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split list at commas into out[max][width]; spaces around items go. */
static int split(const char *list, char *out, size_t width, size_t max, size_t *n,
		 const char *what, char *err, size_t errlen)
{
	const char *p = list;

	*n = 0;
	while (*p != '\0') {
		const char *end = strchr(p, ',');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

		while (len > 0 && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len > 0) {
			if (*n == max) {
				snprintf(err, errlen, "%s: at most %zu entries", what, max);
				return -EINVAL;
			}
			if (len >= width) {
				snprintf(err, errlen, "%s: '%.*s' is too long (at most %zu characters)",
					 what, (int)len, p, width - 1);
				return -EINVAL;
			}
			memcpy(out + *n * width, p, len);
			out[*n * width + len] = '\0';
			(*n)++;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	return 0;
}

int exclude_parse(struct exclusions *x, const char *comms, const char *units,
		  const char *users, char *err, size_t errlen)
{
	char why[256];
	int r;

	memset(x, 0, sizeof(*x));
	r = split(comms, &x->comm[0][0], sizeof(x->comm[0]), EXCLUDE_MAX, &x->n_comm,
		  "exclude_comm", err, errlen);
	if (r == 0)
		r = split(units, &x->unit[0][0], sizeof(x->unit[0]), EXCLUDE_MAX, &x->n_unit,
			  "exclude_unit", err, errlen);
	if (r == 0 && users_parse_list(users, x->uid, EXCLUDE_MAX, &x->n_uid, why,
				       sizeof(why)) < 0) {
		snprintf(err, errlen, "exclude_user: %s", why);
		r = -EINVAL;
	}
	return r;
}

bool exclude_empty(const struct exclusions *x)
{
	return x->n_comm == 0 && x->n_unit == 0 && x->n_uid == 0;
}

bool exclude_match(const struct exclusions *x, const struct iv_proc *p)
{
	size_t i;

	if (!pid_is_real(p->pid))
		return false;
	for (i = 0; i < x->n_comm; i++)
		if (fnmatch(x->comm[i], p->comm, 0) == 0)
			return true;
	for (i = 0; p->unit != NULL && i < x->n_unit; i++)
		if (fnmatch(x->unit[i], p->unit, 0) == 0)
			return true;
	for (i = 0; p->uid >= 0 && i < x->n_uid; i++)
		if ((int64_t)x->uid[i] == p->uid)
			return true;
	return false;
}

static void add_row(struct iv_row *sum, const struct iv_row *r)
{
	unsigned k;

	sum->task_clock_ns += r->task_clock_ns;
	sum->periodic_ns += r->periodic_ns;
	sum->context_switches += r->context_switches;
	for (k = 0; k < MODEL_MAX_EVENTS; k++)
		sum->v[k] += r->v[k];
}

int exclude_apply(const struct exclusions *x, struct interval_data *iv)
{
	uint32_t *new_index;
	int64_t excl_row[PLAN_MAX_GROUPS];
	uint32_t excl = UINT32_MAX;
	size_t i, kept = 0, rows = 0;
	int folded = 0;
	unsigned g;

	if (exclude_empty(x) || iv->n_procs == 0)
		return 0;
	new_index = malloc(iv->n_procs * sizeof(*new_index));
	if (new_index == NULL)
		return -ENOMEM;
	/* Processes, matched once each: the kept ones move down, "[excluded]"
	 * takes the slot of the first excluded one (free: that one is gone). */
	for (i = 0; i < iv->n_procs; i++) {
		struct iv_proc *p = &iv->procs[i];

		if (!exclude_match(x, p)) {
			new_index[i] = (uint32_t)kept;
			if (kept != i)
				iv->procs[kept] = *p;
			kept++;
			continue;
		}
		free(p->cmdline);
		free(p->unit);
		if (excl == UINT32_MAX) {
			excl = (uint32_t)kept++;
			iv->procs[excl] = (struct iv_proc){ .pid = PID_EXCLUDED,
							    .comm = PID_EXCLUDED_COMM, .uid = -1 };
		}
		new_index[i] = excl;
		folded++;
	}
	iv->n_procs = kept;
	if (folded == 0) {
		free(new_index);
		return 0;
	}
	/* Rows: one per group for "[excluded]", in the slot of its first row. */
	for (g = 0; g < PLAN_MAX_GROUPS; g++)
		excl_row[g] = -1;
	for (i = 0; i < iv->n_rows; i++) {
		struct iv_row r = iv->rows[i];

		r.proc = new_index[r.proc];
		if (r.proc == excl && r.group < PLAN_MAX_GROUPS) {
			if (excl_row[r.group] >= 0) {
				add_row(&iv->rows[excl_row[r.group]], &r);
				continue;
			}
			excl_row[r.group] = (int64_t)rows;
		}
		iv->rows[rows++] = r;
	}
	iv->n_rows = rows;
	free(new_index);
	return folded;
}
