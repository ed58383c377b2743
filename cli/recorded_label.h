/*
 * recorded_label.h - the line every stackctl verb prints for the intervals
 * of its window recorded under another model or formula version than the
 * answer's, from the answer's "recorded_under" (docs/api.md): whether the
 * current formulas recomputed them, or which events they lack.
 */
#ifndef STACKCTL_RECORDED_LABEL_H
#define STACKCTL_RECORDED_LABEL_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* One entry of answer's "recorded_under", in words:
 *   "recorded under skl formula v1 (40 intervals): recomputed with v2"
 *   "recorded under skl formula v1 (40 intervals): events differ (lacks
 *    idq_not_delivered): counts kept, figures that need them not computed"
 *   "recorded under software formula v1 (40 intervals): events differ:
 *    counts kept, stacks not computed" */
void recorded_label(const json_t *answer, const json_t *entry, char *buf, size_t len);

/* Each entry's label on a line of its own after indent, to f; nothing
 * when there is none (or an older daemon sent no "recorded_under"). */
void recorded_label_print(const json_t *answer, const char *indent, FILE *f);

#endif
