/* Durations: a table of inputs and what they must parse (or fail) to. */
#include "lib/duration.h"
#include "test.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *text;
	int ret;
	uint64_t ns;
} cases[] = {
	{ "1s", 0, 1000000000ULL },
	{ "500ms", 0, 500000000ULL },
	{ "1.5s", 0, 1500000000ULL },
	{ "10m", 0, 600000000000ULL },
	{ "2h", 0, 7200000000000ULL },
	{ "1d", 0, 86400000000000ULL },
	{ "250us", 0, 250000ULL },
	{ "7ns", 0, 7ULL },
	{ ".5s", 0, 500000000ULL },
	{ "0s", 0, 0 },
	{ "1", -EINVAL, 0 },          /* no unit: refused, never guessed */
	{ "s", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "1 s", -EINVAL, 0 },
	{ "1sec", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "-1s", -ERANGE, 0 },
	{ "1e30d", -ERANGE, 0 },
	{ "nan s", -EINVAL, 0 },
};

/* The command line's form: a bare number is seconds, as for top -d 1. */
static const struct {
	const char *text;
	int ret;
	uint64_t ns;
} cli_cases[] = {
	{ "1", 0, 1000000000ULL },
	{ "0.5", 0, 500000000ULL },
	{ "2.", 0, 2000000000ULL },
	{ "250ms", 0, 250000000ULL },   /* units still work */
	{ "5m", 0, 300000000000ULL },
	{ "1x", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -ERANGE, 0 },
	{ "abc", -EINVAL, 0 },
};

static void cli_form(void)
{
	size_t i;

	for (i = 0; i < sizeof(cli_cases) / sizeof(cli_cases[0]); i++) {
		uint64_t ns = 12345;
		int r = duration_parse_cli(cli_cases[i].text, &ns);

		if (r != cli_cases[i].ret)
			fprintf(stderr, "cli case '%s': got %d\n", cli_cases[i].text, r);
		CHECK(r == cli_cases[i].ret);
		CHECK_EQ_U(ns, r == 0 ? cli_cases[i].ns : 12345);
	}
}

int main(void)
{
	char buf[32];
	size_t i;

	cli_form();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 12345;
		int r = duration_parse(cases[i].text, &ns);

		if (r != cases[i].ret)
			fprintf(stderr, "case '%s': got %d\n", cases[i].text, r);
		CHECK(r == cases[i].ret);
		if (r == 0)
			CHECK_EQ_U(ns, cases[i].ns);
		else
			CHECK_EQ_U(ns, 12345);   /* untouched on error */
	}
	/* format picks the largest exact unit, and parses back */
	duration_format(1000000000ULL, buf, sizeof(buf));
	CHECK_STR(buf, "1s");
	duration_format(90000000000ULL, buf, sizeof(buf));
	CHECK_STR(buf, "90s");
	duration_format(120000000000ULL, buf, sizeof(buf));
	CHECK_STR(buf, "2m");
	duration_format(250000000ULL, buf, sizeof(buf));
	CHECK_STR(buf, "250ms");
	duration_format(1234567ULL, buf, sizeof(buf));
	CHECK_STR(buf, "1234567ns");
	duration_format(0, buf, sizeof(buf));
	CHECK_STR(buf, "0s");
	duration_format_approx(5001678055.0, buf, sizeof(buf));
	CHECK_STR(buf, "5.00s");
	duration_format_approx(17200000.0, buf, sizeof(buf));
	CHECK_STR(buf, "17.2ms");
	duration_format_approx(850.0, buf, sizeof(buf));
	CHECK_STR(buf, "850ns");
	duration_format_approx(599e9, buf, sizeof(buf));
	CHECK_STR(buf, "599.00s");
	duration_format_approx(900e9, buf, sizeof(buf));
	CHECK_STR(buf, "15.0m");
	duration_format_approx(10920e9, buf, sizeof(buf));
	CHECK_STR(buf, "3.0h");
	duration_format_approx(30 * 86400e9, buf, sizeof(buf));
	CHECK_STR(buf, "30.0d");
	for (uint64_t v = 1; v < 100000000000000ULL; v = v * 7 + 3) {
		uint64_t back = 0;

		duration_format(v, buf, sizeof(buf));
		CHECK(duration_parse(buf, &back) == 0);
		CHECK_EQ_U(back, v);
	}
	return 0;
}
