/*
 * paths.h - where readers find the daemon (its database's default path is
 * STACKD_DEFAULT_DB, db.h).
 */
#ifndef STACKD_PATHS_H
#define STACKD_PATHS_H

/* Where stackd listens unless told otherwise: the Unix socket first (the
 * kernel tells the daemon who connects), then loopback TCP. */
#define STACKD_RUNTIME_DIR "/run/stackd"
#define STACKD_DEFAULT_SOCKET STACKD_RUNTIME_DIR "/stackd.sock"
#define STACKD_DEFAULT_TCP "127.0.0.1:9466"

#endif
