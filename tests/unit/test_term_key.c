/* Terminal keys: bytes as themselves, the arrow / page / home / end
 * sequences of xterm and VT220 as keys, a partial sequence as such. */
#include "cli/term_key.h"
#include "test.h"

#include <string.h>

int main(void)
{
	static const struct { const char *bytes; int key; size_t used; } cases[] = {
		{ "q", 'q', 1 },
		{ "P", 'P', 1 },
		{ "\033[A", TERM_KEY_UP, 3 },
		{ "\033[B", TERM_KEY_DOWN, 3 },
		{ "\033OA", TERM_KEY_UP, 3 },          /* application cursor mode */
		{ "\033[5~", TERM_KEY_PGUP, 4 },
		{ "\033[6~", TERM_KEY_PGDN, 4 },
		{ "\033[H", TERM_KEY_HOME, 3 },
		{ "\033[1~", TERM_KEY_HOME, 4 },
		{ "\033[4~", TERM_KEY_END, 4 },
		{ "\033[1;5A", TERM_KEY_UP, 6 },       /* Ctrl-Up: still up */
		{ "\033[15~", TERM_KEY_UNKNOWN, 5 },   /* F5: taken whole, unused */
		{ "\033[Aq", TERM_KEY_UP, 3 },         /* the next key stays */
		{ "\033q", TERM_KEY_ESC, 1 },
		{ "\033", TERM_KEY_PARTIAL, 1 },
		{ "\033[", TERM_KEY_PARTIAL, 1 },
		{ "\033[6", TERM_KEY_PARTIAL, 1 },
		{ "\033O", TERM_KEY_PARTIAL, 1 },
	};
	size_t i, used;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int key = term_key_decode((const unsigned char *)cases[i].bytes,
					  strlen(cases[i].bytes), &used);

		if (key != cases[i].key || used != cases[i].used)
			fprintf(stderr, "case %zu: key %d used %zu\n", i, key, used);
		CHECK(key == cases[i].key);
		CHECK_EQ_U(used, cases[i].used);
	}
	return 0;
}
