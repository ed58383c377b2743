/*
 * model_choice.h - which model the daemon counts with on this host.
 */
#ifndef STACKD_MODEL_CHOICE_H
#define STACKD_MODEL_CHOICE_H

#include "lib/model/model.h"

#include <stddef.h>

/* The model name asks for ("auto": the hardware model if the PMU counts,
 * else the software model).  why says what was chosen and why.  0, or
 * -ENOENT for a name no model has. */
int model_choose(const char *name, const struct model **ret, char *why, size_t len);

#endif
