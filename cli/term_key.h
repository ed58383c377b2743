/*
 * term_key.h - the keys of a terminal in raw mode: a byte, or the escape
 * sequence an arrow, Page Up/Down, Home or End sends (xterm, VT220 and the
 * application-mode "ESC O" forms), so a full-screen view can scroll as
 * top and htop do.
 */
#ifndef STACKD_TERM_KEY_H
#define STACKD_TERM_KEY_H

#include <stddef.h>

enum term_key {
	TERM_KEY_ESC = 27,
	TERM_KEY_UP = 0x100, TERM_KEY_DOWN, TERM_KEY_LEFT, TERM_KEY_RIGHT,
	TERM_KEY_PGUP, TERM_KEY_PGDN, TERM_KEY_HOME, TERM_KEY_END,
	TERM_KEY_UNKNOWN,    /* a whole sequence of a key we do not use */
	TERM_KEY_PARTIAL = -1,
};

/* The key at the start of buf (len > 0 bytes) into *used bytes: the byte
 * itself (0..255), a TERM_KEY_*, or TERM_KEY_PARTIAL when buf ends inside
 * a sequence (a lone ESC too: read on, or take it as TERM_KEY_ESC when
 * nothing follows soon). */
int term_key_decode(const unsigned char *buf, size_t len, size_t *used);

#endif
