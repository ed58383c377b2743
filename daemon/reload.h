/*
 * reload.h - SIGHUP: settings changed in place, the counter groups planned
 * again (replan.h) when families, count modes or the host's budget moved.
 */
#ifndef STACKD_RELOAD_H
#define STACKD_RELOAD_H

#include "daemon/daemon_state.h"

/* SIGHUP: the configuration read again and applied.  -errno when no
 * counter groups could be opened again: the daemon must stop. */
int reload_config(struct daemon *d);

#endif
