/* Kernel CPU lists (/sys/devices/system/cpu/online). */
#include "daemon/collect/cpulist.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>

int main(void)
{
	int *cpus = NULL;
	size_t n = 0;

	CHECK(cpulist_parse("0-3,8,10-11\n", &cpus, &n) == 0);
	CHECK_EQ_U(n, 7);
	CHECK(cpus[0] == 0 && cpus[3] == 3 && cpus[4] == 8 && cpus[5] == 10 && cpus[6] == 11);
	free(cpus);
	CHECK(cpulist_parse("5", &cpus, &n) == 0);
	CHECK(n == 1 && cpus[0] == 5);
	free(cpus);
	CHECK(cpulist_parse("", &cpus, &n) == -EINVAL);
	CHECK(cpulist_parse("3-1", &cpus, &n) == -EINVAL);
	CHECK(cpulist_parse("1,1", &cpus, &n) == -EINVAL);
	CHECK(cpulist_parse("a", &cpus, &n) == -EINVAL);
	CHECK(cpulist_parse("0-", &cpus, &n) == -EINVAL);
	CHECK(cpulist_parse("0;1", &cpus, &n) == -EINVAL);
	CHECK(cpulist_online(&cpus, &n) == 0);
	CHECK(n >= 1);
	free(cpus);
	return 0;
}
