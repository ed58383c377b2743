/*
 * demo.h - `stackd --demo`: serve a constructed database (demo_data.h) on
 * the API and the dashboard, collecting nothing.
 */
#ifndef STACKD_DEMO_H
#define STACKD_DEMO_H

#include "daemon/serve/prom.h"

/* What the demo takes from the daemon's configuration (config.h). */
struct demo_options {
	const char *listen;                 /* its TCP addresses are served */
	const char *web_dir;                /* "none": no page */
	unsigned http_max_connections;
	struct prom_limits prom;            /* /metrics, from the constructed intervals */
};

/* Build the demo database in a new temporary directory, serve it until
 * SIGTERM/SIGINT, then remove it.  Never opens a counter or the
 * configured database.  Returns the process exit status. */
int demo_run(const struct demo_options *opt);

#endif
