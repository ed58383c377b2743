/*
 * target.h - what `show` and `history` are asked about: a pid, a command
 * name or a systemd unit, spelled as people type it.
 */
#ifndef STACKCTL_TARGET_H
#define STACKCTL_TARGET_H

/* "1234" or "pid:1234" -> pid; "foo.service" (and the other unit
 * suffixes) or "unit:NAME" -> unit; "comm:NAME" or anything else -> comm.
 * *kind is "pid", "comm" or "unit"; *name points into text.  Returns 0 or
 * -EINVAL (empty name, or pid: that is not a number). */
int target_parse(const char *text, const char **kind, const char **name);

#endif
