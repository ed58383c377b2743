/*
 * paths.c - see paths.h.
 */
#include "lib/paths.h"
#include "lib/db.h"

#include <stdlib.h>

const char *paths_database(const char *flag_value)
{
	const char *env;

	if (flag_value != NULL)
		return flag_value;
	env = getenv("STACKD_DB");
	if (env != NULL && env[0] != '\0')
		return env;
	return STACKD_DEFAULT_DB;
}
