/*
 * prom_private.h - what prom.c, prom_keys.c (each target's Top-Down
 * figures, through the model) and prom_render.c (the text format) share.
 */
#ifndef STACKD_PROM_PRIVATE_H
#define STACKD_PROM_PRIVATE_H

#include "daemon/serve/prom.h"
#include "daemon/base/u64map.h"
#include "lib/group_parts.h"

#include <pthread.h>

#define PROM_MAX_PROCS 4096u  /* processes followed at once (for the top-N) */
#define PROM_MAX_NODES 16u    /* Top-Down nodes exported per target: levels 1 and 2 */
#define PROM_OTHER "[other]"
#define PROM_KEY_MAX 384      /* "<namespace>/<pod>/<container>": 63 + 253 + 63 + 2 */

/* One comm, unit or process: its ranking, what /metrics prints for it
 * (counted from when it was last chosen: a new series each time), and
 * the newest interval's rows, which the model turns into its figures. */
struct series {
	char key[PROM_KEY_MAX];  /* comm, unit or container; unused for processes */
	char comm[16];
	int32_t pid;
	uint64_t start_ns;       /* processes: with pid, the identity */
	bool exited;
	uint64_t last_tc;        /* CPU time in the newest interval */
	double smooth_tc;        /* per interval, smoothed: the top-N order */
	bool shown;              /* one of the top N printed */
	bool other;              /* "[other]", [idle]...: always printed, never ranked */
	/* printed: since it was chosen */
	uint64_t tc, cs;
	double td_s[PROM_MAX_NODES];   /* CPU seconds x each node's share */
	double td_measured_s;          /* CPU seconds the nodes were computed for */
	uint64_t cycles, instructions;
	/* the newest interval's rows, by plan group (what the model reads) */
	bool iv_any;
	uint64_t iv_tc[PLAN_MAX_GROUPS], iv_cs[PLAN_MAX_GROUPS];
	uint64_t iv_v[PLAN_MAX_GROUPS][MODEL_MAX_EVENTS];
};

/* A bounded table of series; a full table sends new keys to "[other]". */
struct table {
	struct series *s;
	size_t n, cap;
	unsigned top_n;          /* printed besides "[other]" */
};

/* The busy CPUs' counts (every row but the idle task's), by plan group:
 * the host's raw events, for the recording rules. */
struct host_counts {
	uint64_t tc[PLAN_MAX_GROUPS], cs;
	uint64_t v[PLAN_MAX_GROUPS][MODEL_MAX_EVENTS];
};

/* The model's side of the per-target figures (prom_keys.c). */
struct prom_figures {
	struct group_map *map;      /* the plan's groups as stored groups, id g + 1 */
	int node[PROM_MAX_NODES];   /* metric index of each Top-Down node printed */
	unsigned n_nodes;
	int cycles_ev[MODEL_MAX_GROUPS], instr_ev[MODEL_MAX_GROUPS];  /* by family; -1 none */
	bool has_ipc;               /* a family counts both */
};

struct prom {
	pthread_mutex_t lock;
	const struct model *m;
	struct plan plan;        /* the groups the rows' group index names */
	struct prom_limits lim;
	struct table comms, units, containers, procs;
	struct u64map proc_index;   /* proc_key() -> index in procs */
	struct host_counts host;
	struct prom_figures fig;
	struct iv_stats health;  /* since the start, as add_health() adds */
	uint64_t intervals;
	/* CPU time since the start: idle, charged to no process, all */
	uint64_t idle_ns, unattributed_ns, cpu_ns;
	double last_attributed;  /* the newest interval's share of busy CPU */
	double last_periodic;    /* ...and of its CPU time measured periodically */
	uint64_t last_end_ns;    /* its end, CLOCK_REALTIME */
	double cost_ns;          /* per sampled switch; 0: not set */
	bool cost_measured;
	int *mode_cpus;          /* the CPUs, and whether each samples periodically */
	bool *mode_periodic;
	size_t n_modes;
};

/* prom_keys.c */
int prom_figures_init(struct prom_figures *fig, const struct model *m, const struct plan *plan);
void prom_figures_done(struct prom_figures *fig);
/* Add s's newest interval (iv_*) to its printed figures. */
void prom_figures_add(const struct prom_figures *fig, const struct model *m, bool smt_on,
		      struct series *s);

/* prom_k8s.c: a process's "container" key (false: in no container), and
 * a key's label values: namespace, pod, container */
bool prom_k8s_key(const struct iv_proc *pr, char *buf, size_t len);
void prom_k8s_split(const char *key, char part[3][PROM_KEY_MAX]);

/* prom_render.c */
void prom_render_label(FILE *f, const char *v);
void prom_render_host(const struct prom *p, FILE *f);
void prom_render_table(const struct prom *p, FILE *f, const char *kind, const struct table *t);

#endif
