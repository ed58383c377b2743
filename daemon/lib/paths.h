/*
 * paths.h - where readers find the database.
 */
#ifndef STACKD_PATHS_H
#define STACKD_PATHS_H

/* --db if given, else $STACKD_DB, else the daemon's default path. */
const char *paths_database(const char *flag_value);

#endif
