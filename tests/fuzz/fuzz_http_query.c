/*
 * libFuzzer harness for the API's query-string parser (lib/http_query.c):
 * any bytes in, never a crash, overflow or undefined behaviour (built with
 * ASan and UBSan); on success every value is a C string without control
 * bytes, and the typed readers accept or refuse it cleanly.
 * make test runs it briefly; `make fuzz` runs it for FUZZ_SECONDS.
 */
#include "lib/http_query.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "window", "sort", "limit", "user", "comm", "all", NULL };
	struct http_query q;
	char text[4096], err[512];
	uint64_t v;
	bool b;
	unsigned i;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (http_query_parse(text, keys, &q, err, sizeof(err)) != 0)
		return 0;
	for (i = 0; i < q.n; i++) {
		const char *c;

		for (c = q.p[i].value; *c != '\0'; c++)
			if ((unsigned char)*c < 0x20)
				abort();
	}
	(void)http_query_uint(&q, "limit", 10000, &v, err, sizeof(err));
	(void)http_query_duration(&q, "window", 86400000000000ULL, &v, err, sizeof(err));
	(void)http_query_bool(&q, "all", &b, err, sizeof(err));
	return 0;
}
