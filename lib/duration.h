/*
 * duration.h - parse and print time spans such as "1s", "500ms", "10m".
 * Shared by stackd (config, flags) and stackctl (--window, --since).
 */
#ifndef STACKD_DURATION_H
#define STACKD_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* Parse "<number><unit>" where unit is ns, us, ms, s, m, h or d, e.g. "1.5s".
 * A bare number is refused: a unit is always required, so "1" cannot be
 * misread as milliseconds by one user and seconds by another.
 * Returns 0 and sets *ret_ns, or -EINVAL (bad syntax) / -ERANGE (overflow,
 * negative); *ret_ns is untouched on error. */
int duration_parse(const char *text, uint64_t *ret_ns);

/* duration_parse(), but a bare number is seconds ("1" = 1s, "0.5" =
 * 500ms): what top, vmstat and pidstat take for their delay, so stackctl's
 * command line does too.  The daemon's config keeps requiring a unit. */
int duration_parse_cli(const char *text, uint64_t *ret_ns);

/* Print ns in the largest unit that keeps it exact ("1s", "250ms", "90s"),
 * so the output of duration_format() parses back to the same value. */
void duration_format(uint64_t ns, char *buf, size_t len);

/* Print ns for people, rounded to 3 significant-ish digits ("4.00s",
 * "17.2ms", "850ns"); does not parse back exactly. */
void duration_format_approx(double ns, char *buf, size_t len);

#endif
