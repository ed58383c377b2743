/*
 * demo.h - `stackd --demo`: serve a constructed database (demo_data.h) on
 * the API and the dashboard, collecting nothing.
 */
#ifndef STACKD_DEMO_H
#define STACKD_DEMO_H

#include "daemon/config.h"

/* Build the demo database in a new temporary directory, serve it until
 * SIGTERM/SIGINT, then remove it.  Never opens a counter or the
 * configured database.  Returns the process exit status. */
int demo_run(const struct config *cfg);

#endif
