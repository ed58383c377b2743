/*
 * json_rowset.h - an API answer's "columns" and "rows" back into a rowset,
 * so stackctl prints what the API computed with the one printer
 * (lib/rowset.h): same names, titles and units as the daemon defined.
 */
#ifndef STACKCTL_JSON_ROWSET_H
#define STACKCTL_JSON_ROWSET_H

#include "lib/rowset.h"

#include <jansson.h>

/* rs is initialised and empty.  Returns 0, -ENOMEM, or -EPROTO when the
 * JSON is not shaped as the API documents (err says where). */
int json_rowset_load(const json_t *columns, const json_t *rows, struct rowset *rs, char *err,
		     size_t errlen);

#endif
