/*
 * paths.h - where readers find the daemon and its database.
 */
#ifndef STACKD_PATHS_H
#define STACKD_PATHS_H

/* --db if given, else $STACKD_DB, else the daemon's default path. */
const char *paths_database(const char *flag_value);

/* Where stackd listens unless told otherwise: the Unix socket first (the
 * kernel tells the daemon who connects), then loopback TCP. */
#define STACKD_RUNTIME_DIR "/run/stackd"
#define STACKD_DEFAULT_SOCKET STACKD_RUNTIME_DIR "/stackd.sock"
#define STACKD_DEFAULT_TCP "127.0.0.1:9466"

#endif
