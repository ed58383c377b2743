/*
 * web_files.h - the dashboard's files as built into stackd (generated from
 * web/ by daemon/gen-web.sh), served when web_dir = builtin.
 */
#ifndef STACKD_WEB_FILES_H
#define STACKD_WEB_FILES_H

#include <stddef.h>

struct web_file {
	const char *name;   /* "index.html": a plain name, as requested after '/' */
	const char *data;
	size_t len;
};

extern const struct web_file web_files[];
extern const unsigned n_web_files;

#endif
