/*
 * term_key.c - see term_key.h.
 */
#include "cli/term_key.h"

#include <stdbool.h>

/* The final byte of "ESC [ X" or "ESC O X". */
static int letter_key(unsigned char c)
{
	switch (c) {
	case 'A':
		return TERM_KEY_UP;
	case 'B':
		return TERM_KEY_DOWN;
	case 'C':
		return TERM_KEY_RIGHT;
	case 'D':
		return TERM_KEY_LEFT;
	case 'H':
		return TERM_KEY_HOME;
	case 'F':
		return TERM_KEY_END;
	default:
		return TERM_KEY_UNKNOWN;
	}
}

/* The number of "ESC [ n ~" (VT220 editing keys). */
static int tilde_key(unsigned n)
{
	switch (n) {
	case 1:
	case 7:
		return TERM_KEY_HOME;
	case 4:
	case 8:
		return TERM_KEY_END;
	case 5:
		return TERM_KEY_PGUP;
	case 6:
		return TERM_KEY_PGDN;
	default:
		return TERM_KEY_UNKNOWN;
	}
}

/* "ESC [" then parameters (digits, ';') and one final byte 0x40..0x7E. */
static int csi(const unsigned char *buf, size_t len, size_t *used)
{
	unsigned n = 0;
	bool semicolon = false;
	size_t i;

	for (i = 2; i < len; i++) {
		unsigned char c = buf[i];

		if (c >= '0' && c <= '9') {
			if (!semicolon && n < 1000)
				n = n * 10 + (unsigned)(c - '0');
		} else if (c == ';') {
			semicolon = true;   /* modifiers (Shift, Ctrl): the key stays */
		} else if (c >= 0x40 && c <= 0x7E) {
			*used = i + 1;
			return c == '~' ? tilde_key(n) : letter_key(c);
		} else {
			*used = i;   /* not a sequence after all: drop what was read */
			return TERM_KEY_UNKNOWN;
		}
	}
	return TERM_KEY_PARTIAL;
}

int term_key_decode(const unsigned char *buf, size_t len, size_t *used)
{
	*used = 1;
	if (buf[0] != TERM_KEY_ESC)
		return buf[0];
	if (len < 2)
		return TERM_KEY_PARTIAL;
	if (buf[1] == '[')
		return csi(buf, len, used);
	if (buf[1] == 'O') {
		if (len < 3)
			return TERM_KEY_PARTIAL;
		*used = 3;
		return letter_key(buf[2]);
	}
	return TERM_KEY_ESC;   /* ESC then an ordinary key: each on its own */
}
