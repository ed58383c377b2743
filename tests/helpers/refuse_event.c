/*
 * refuse_event.c - an LD_PRELOAD shim for tests: perf_event_open() of one
 * event fails as a host that cannot count it answers (an event a guest's
 * CPUID does not enumerate: ENOENT; a kernel without it), every other call
 * goes to the kernel.
 *
 * STACKD_TEST_REFUSE_EVENT="TYPE:CONFIG[:ERRNO][,...]" (decimal; ERRNO 2,
 * ENOENT, by default): e.g. "1:4" refuses PERF_TYPE_SOFTWARE
 * PERF_COUNT_SW_CPU_MIGRATIONS, "1:2,1:4" page faults too.  Built as a
 * shared object (Makefile); use it with the non-ASan stackd (ASan wants its
 * runtime first).
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

typedef long (*syscall_fn)(long, ...);

static int refused(const struct perf_event_attr *a)
{
	const char *spec = getenv("STACKD_TEST_REFUSE_EVENT");

	for (; spec != NULL && a != NULL && *spec != '\0'; spec = strchr(spec, ',')) {
		unsigned long long type, config;
		int err = ENOENT;

		if (*spec == ',')
			spec++;
		if (sscanf(spec, "%llu:%llu:%d", &type, &config, &err) >= 2 &&
		    a->type == type && a->config == config)
			return err;
		if (strchr(spec, ',') == NULL)
			break;
	}
	return 0;
}

long syscall(long number, ...)
{
	static syscall_fn real;
	long args[6];
	va_list ap;
	int i, err;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		args[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_perf_event_open &&
	    (err = refused((const struct perf_event_attr *)args[0])) != 0) {
		errno = err;
		return -1;
	}
	if (real == NULL)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	return real(number, args[0], args[1], args[2], args[3], args[4], args[5]);
}
