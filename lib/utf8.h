/*
 * utf8.h - the one UTF-8 validator every output uses (JSON, CSV, tables,
 * Prometheus labels).  Process names and command lines are whatever bytes
 * a process chose (a comm the kernel cut mid-character at 15 bytes,
 * `exec -a $'\xff'`), and every output format must stay valid UTF-8 for
 * any of them: an invalid sequence is written as U+FFFD, one per maximal
 * invalid subpart (Unicode 3.9, "U+FFFD substitution of maximal subparts",
 * as WHATWG's decoder does).
 */
#ifndef STACKD_UTF8_H
#define STACKD_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* U+FFFD REPLACEMENT CHARACTER, encoded. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* The character at s (NUL-terminated): its code point, with its length in
 * bytes in *ret_len, or -1 when s starts an invalid sequence, *ret_len
 * then being the length of that maximal invalid subpart (at least 1) to
 * replace with one U+FFFD.  Rejects stray continuation bytes, 0xC0, 0xC1,
 * 0xF5..0xFF, overlong forms, surrogates (U+D800..DFFF), code points past
 * U+10FFFF and sequences cut short (by the NUL or by another byte).
 * s must not be at its terminating NUL. */
int32_t utf8_decode(const char *s, size_t *ret_len);

/* C0, DEL or C1: a control a terminal acts on (ESC starts a sequence). */
bool utf8_is_control(int32_t cp);

/* Flags for utf8_sanitize. */
#define UTF8_CONTROLS_VISIBLE 1u   /* C0, DEL and C1 controls become '?' (as ps does) */

/* Copy src into dst (len bytes, NUL-terminated, len > 0) as valid UTF-8:
 * invalid sequences become U+FFFD; a character that does not fit whole is
 * left out with all after it.  Returns the characters (code points)
 * written, a terminal's column count for most scripts. */
size_t utf8_sanitize(char *dst, size_t len, const char *src, unsigned flags);

/* The bytes of the first n characters of valid UTF-8 s (all of s when it
 * has fewer). */
size_t utf8_prefix_bytes(const char *s, size_t n);

#endif
