/*
 * store_schema.h - the schema/ files, embedded at build time by gen-schema.sh.
 */
#ifndef STACKD_STORE_SCHEMA_H
#define STACKD_STORE_SCHEMA_H

struct schema_step {
	unsigned version;   /* PRAGMA user_version after this step */
	const char *name;
	const char *sql;
};

extern const struct schema_step schema_steps[];
extern const unsigned n_schema_steps;

#endif
