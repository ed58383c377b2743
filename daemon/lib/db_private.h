/*
 * db_private.h - the read-only connection behind struct db, for the
 * query_*.c files only (readers elsewhere see the opaque handle).
 */
#ifndef STACKD_DB_PRIVATE_H
#define STACKD_DB_PRIVATE_H

#include <sqlite3.h>

struct db {
	sqlite3 *db;
};

#endif
