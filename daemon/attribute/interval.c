/*
 * interval.c - see interval.h.
 */
#include "daemon/attribute/interval.h"

#include <stdlib.h>

void interval_free(struct interval_data *iv)
{
	size_t i;

	if (iv == NULL)
		return;
	for (i = 0; i < iv->n_procs; i++) {
		free(iv->procs[i].cmdline);
		free(iv->procs[i].unit);
		free(iv->procs[i].container);
	}
	free(iv->procs);
	free(iv->rows);
	free(iv);
}
