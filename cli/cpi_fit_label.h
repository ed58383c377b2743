/*
 * cpi_fit_label.h - the words every stackctl verb prints beside the
 * regression CPI stack, from an answer's "cpi_fit" (docs/api.md): that it
 * is an estimate, how good the fit is, or why there is no stack.
 */
#ifndef STACKCTL_CPI_FIT_LABEL_H
#define STACKCTL_CPI_FIT_LABEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "regression estimate: R² 0.93 within processes on 2,400 process-intervals
 * of 40 processes, held-out error 4.1%, fitted 3 min ago" (ago: before now_ns, the newest data shown), or
 * the reason there is no fit.  false when fit is not an object (the
 * model has no regression CPI stack): buf is then "". */
bool cpi_fit_label(const json_t *fit, uint64_t now_ns, char *buf, size_t len);

/* The label, then one line per regressor the fit dropped, each line after
 * indent, to f; nothing when fit is not an object. */
void cpi_fit_print(const json_t *fit, uint64_t now_ns, const char *indent, FILE *f);

#endif
