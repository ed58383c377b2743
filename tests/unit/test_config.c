/* Config: every key through the table, file parsing with line numbers,
 * and -n's printout parsing back to the same settings. */
#include "daemon/config.h"
#include "test.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *key, *value;
	int ret;
	const char *err;   /* substring of the message */
} cases[] = {
	{ "interval", "2s", 0, NULL },
	{ "interval", "50ms", -EINVAL, "out of range (100ms..1h)" },
	{ "interval", "2", -EINVAL, "invalid duration '2'" },
	{ "rotate_period", "10ms", 0, NULL },
	{ "rotate_period", "11s", -EINVAL, "out of range" },
	{ "ring_pages", "256", 0, NULL },
	{ "ring_pages", "96", -EINVAL, "not a power of two" },
	{ "ring_pages", "4", -EINVAL, "out of range (8..1024)" },
	{ "ring_pages", "12x", -EINVAL, "invalid number '12x'" },
	{ "ring_pages", "-8", -EINVAL, "invalid number" },
	{ "switch_event", "member", 0, NULL },
	{ "switch_event", "sideways", -EINVAL, "expected leader or member" },
	{ "log_level", "debug", 0, NULL },
	{ "log_level", "loud", -EINVAL, "invalid level 'loud'" },
	{ "database", "/tmp/x.db", 0, NULL },
	{ "database", "", -EINVAL, "invalid path" },
	{ "retry_buffer", "0", -EINVAL, "out of range" },
	{ "switch_rate_warning", "0", 0, NULL },
	{ "switch_rate_warning", "99999999999", -EINVAL, "out of range" },
	{ "max_sampling_cost", "2%", 0, NULL },
	{ "max_sampling_cost", "0.02", 0, NULL },
	{ "max_sampling_cost", "off", 0, NULL },
	{ "max_sampling_cost", "0", 0, NULL },
	{ "max_sampling_cost", "101%", -EINVAL, "out of range (0..100%)" },
	{ "max_sampling_cost", "1.5", -EINVAL, "out of range" },
	{ "max_sampling_cost", "-1%", -EINVAL, "invalid share '-1%'" },
	{ "max_sampling_cost", "2 %", -EINVAL, "invalid share" },
	{ "max_sampling_cost", "nan", -EINVAL, "invalid share" },
	{ "max_sampling_cost", "", -EINVAL, "invalid share" },
	{ "periodic_hz", "0", 0, NULL },
	{ "periodic_hz", "250", 0, NULL },
	{ "periodic_hz", "10000", 0, NULL },
	{ "periodic_hz", "100", 0, NULL },
	{ "periodic_hz", "99", -EINVAL, "99 is out of range (0 for automatic, or 100..10000)" },
	{ "periodic_hz", "1", -EINVAL, "out of range (0 for automatic, or 100..10000)" },
	{ "periodic_hz", "10001", -EINVAL, "out of range (0 for automatic, or 100..10000)" },
	{ "periodic_hz", "-1", -EINVAL, "invalid number" },
	{ "periodic_hz", "x", -EINVAL, "invalid number 'x'" },
	{ "model", "software", 0, NULL },
	{ "colour", "blue", -ENOENT, "unknown key 'colour'" },
	{ "listen", "127.0.0.1:1,127.0.0.1:2,unix:/a,[::1]:4", 0, NULL },
	{ "listen", "127.0.0.1:1,127.0.0.1:2,unix:/a,[::1]:4,unix:/b", -EINVAL,
	  "at most 4 addresses" },
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-config.XXXXXX";
	char path[256], path2[256], err[1024];
	struct config c, d;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r;

		config_defaults(&c);
		err[0] = '\0';
		r = config_set(&c, cases[i].key, cases[i].value, err, sizeof(err));
		if (r != cases[i].ret)
			fprintf(stderr, "%s = %s: got %d (%s)\n", cases[i].key, cases[i].value, r, err);
		CHECK(r == cases[i].ret);
		if (cases[i].err != NULL && strstr(err, cases[i].err) == NULL) {
			fprintf(stderr, "%s = %s: message '%s'\n", cases[i].key, cases[i].value, err);
			CHECK(0);
		}
	}
	config_defaults(&c);
	CHECK(config_set(&c, "interval", "2s", err, sizeof(err)) == 0);
	CHECK_EQ_U(c.interval_ns, 2000000000ULL);
	CHECK(config_set(&c, "switch_event", "member", err, sizeof(err)) == 0);
	CHECK(c.switch_event == SWITCH_MEMBER);
	CHECK(c.max_sampling_cost == 0.02);   /* the default */
	CHECK(config_set(&c, "max_sampling_cost", "0.5%", err, sizeof(err)) == 0);
	CHECK(c.max_sampling_cost == 0.005);
	CHECK(config_set(&c, "max_sampling_cost", "0.005", err, sizeof(err)) == 0);
	CHECK(c.max_sampling_cost == 0.005);
	CHECK(config_set(&c, "max_sampling_cost", "off", err, sizeof(err)) == 0);
	CHECK(c.max_sampling_cost == 0);

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/a.conf", dir);
	write_file(path, "# comment\n\n  interval = 5s  \nring_pages=64\ndatabase = \"/var/x y.db\"\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.interval_ns, 5000000000ULL);
	CHECK_EQ_U(c.ring_pages, 64);
	CHECK_STR(c.database, "/var/x y.db");

	write_file(path, "interval = 1s\n\nrotate_period = soon\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a.conf:3: rotate_period: invalid duration 'soon'") != NULL);

	/* A key given twice names both lines; flags (config_set) still override. */
	write_file(path, "interval = 1s\n# again:\n\ninterval = 2s\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a.conf:4: interval: already set on line 1") != NULL);
	write_file(path, "interval = 1s\nring_pages = 64\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == 0);
	CHECK(config_set(&c, "interval", "3s", err, sizeof(err)) == 0);

	/* Not text: a NUL byte (fgets would have ended the line there and
	 * read "model" alone), another control byte; CRLF lines are text. */
	f = fopen(path, "w");
	CHECK(f != NULL);
	fwrite("interval = 1s\nmodel = software\0garbage\n", 1, 39, f);
	fclose(f);
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a.conf:2: not text (a NUL byte)") != NULL);
	write_file(path, "interval = 1s\n\nlog_level = \033[31mdebug\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a.conf:3: not text (control byte 0x1b)") != NULL);
	write_file(path, "interval = 4s\r\nring_pages = 32\r\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.ring_pages, 32);
	write_file(path, "interval = 4s\rring_pages = 32\n");
	config_defaults(&c);
	CHECK(config_load_file(&c, path, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "a.conf:1: not text (control byte 0x0d)") != NULL);

	/* -n's printout is itself a valid config with the same values */
	config_defaults(&c);
	CHECK(config_set(&c, "interval", "3s", err, sizeof(err)) == 0);
	CHECK(config_set(&c, "log_level", "warning", err, sizeof(err)) == 0);
	CHECK(config_set(&c, "switch_rate_warning", "12345", err, sizeof(err)) == 0);
	CHECK(config_set(&c, "max_sampling_cost", "0.15%", err, sizeof(err)) == 0);
	snprintf(path2, sizeof(path2), "%s/b.conf", dir);
	f = fopen(path2, "w");
	CHECK(f != NULL);
	config_print(&c, f);
	fclose(f);
	config_defaults(&d);
	CHECK(config_load_file(&d, path2, err, sizeof(err)) == 0);
	CHECK_STR(c.database, d.database);
	CHECK_EQ_U(c.interval_ns, d.interval_ns);
	CHECK_EQ_U(c.rotate_period_ns, d.rotate_period_ns);
	CHECK_EQ_U(c.ring_pages, d.ring_pages);
	CHECK_STR(c.model, d.model);
	CHECK(c.switch_event == d.switch_event);
	CHECK(c.log_level == d.log_level);
	CHECK_EQ_U(c.retry_buffer, d.retry_buffer);
	CHECK_EQ_U(c.switch_rate_warning, d.switch_rate_warning);
	CHECK_EQ_U(d.switch_rate_warning, 12345);
	CHECK(fabs(d.max_sampling_cost - 0.0015) < 1e-15);
	config_defaults(&c);
	CHECK(config_set(&c, "max_sampling_cost", "off", err, sizeof(err)) == 0);
	f = fopen(path2, "w");
	CHECK(f != NULL);
	config_print(&c, f);
	fclose(f);
	config_defaults(&d);
	CHECK(config_load_file(&d, path2, err, sizeof(err)) == 0);
	CHECK(d.max_sampling_cost == 0);

	unlink(path);
	unlink(path2);
	rmdir(dir);
	return 0;
}
