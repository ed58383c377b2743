/* version.h - the product version, shared by stackd and stackctl. */
#ifndef STACKD_VERSION_H
#define STACKD_VERSION_H

#define STACKD_VERSION "0.1.0"

#endif
