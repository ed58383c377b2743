/*
 * utf8.c - see utf8.h.
 */
#include "lib/utf8.h"

#include <string.h>

static int cont(unsigned char b)
{
	return b >= 0x80 && b <= 0xbf;
}

int32_t utf8_decode(const char *s, size_t *ret_len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;   /* the second byte's range (Unicode Table 3-7) */
	size_t need, i;
	int32_t cp;

	if (p[0] < 0x80) {
		*ret_len = 1;
		return p[0];
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2;
		cp = p[0] & 0x0f;
		if (p[0] == 0xe0)
			lo = 0xa0;   /* no overlong forms */
		else if (p[0] == 0xed)
			hi = 0x9f;   /* no surrogates */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3;
		cp = p[0] & 0x07;
		if (p[0] == 0xf0)
			lo = 0x90;   /* no overlong forms */
		else if (p[0] == 0xf4)
			hi = 0x8f;   /* nothing past U+10FFFF */
	} else {
		*ret_len = 1;      /* continuation byte, 0xC0, 0xC1, 0xF5..0xFF */
		return -1;
	}
	for (i = 1; i <= need; i++) {
		if (i == 1 ? p[i] < lo || p[i] > hi : !cont(p[i])) {
			*ret_len = i;   /* the valid prefix is the maximal subpart */
			return -1;
		}
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*ret_len = need + 1;
	return cp;
}

bool utf8_is_control(int32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t utf8_sanitize(char *dst, size_t len, const char *src, unsigned flags)
{
	size_t used = 0, chars = 0, n;

	while (*src != '\0') {
		int32_t cp = utf8_decode(src, &n);
		const char *out = src;
		size_t out_len = n;

		if (cp < 0) {
			out = UTF8_REPLACEMENT;
			out_len = sizeof(UTF8_REPLACEMENT) - 1;
		} else if ((flags & UTF8_CONTROLS_VISIBLE) && utf8_is_control(cp)) {
			out = "?";
			out_len = 1;
		}
		if (used + out_len >= len)
			break;
		memcpy(dst + used, out, out_len);
		used += out_len;
		chars++;
		src += n;
	}
	dst[used] = '\0';
	return chars;
}

size_t utf8_prefix_bytes(const char *s, size_t n)
{
	size_t used = 0, len;

	for (; n > 0 && s[used] != '\0'; n--) {
		(void)utf8_decode(s + used, &len);
		used += len;
	}
	return used;
}
