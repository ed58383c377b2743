/*
 * test.h - the unit tests' whole framework: CHECK stops the test with the
 * file, line and expression that failed.
 */
#ifndef STACKD_TEST_H
#define STACKD_TEST_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(e) do { if (!(e)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", \
	__FILE__, __LINE__, #e); exit(1); } } while (0)

#define CHECK_EQ_U(a, b) do { unsigned long long _a = (a), _b = (b); if (_a != _b) { \
	fprintf(stderr, "%s:%d: CHECK(%s == %s) failed: %llu != %llu\n", __FILE__, __LINE__, \
		#a, #b, _a, _b); exit(1); } } while (0)

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (_a == NULL || _b == NULL || strcmp(_a, _b) != 0) { \
	fprintf(stderr, "%s:%d: CHECK(%s == %s) failed: '%s' != '%s'\n", __FILE__, __LINE__, \
		#a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); exit(1); } } while (0)

#endif
