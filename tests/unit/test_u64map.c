/* The collector's hash map: put, get, overwrite, grow, clear. */
#include "daemon/base/u64map.h"
#include "test.h"

int main(void)
{
	struct u64map m;
	uint64_t k;

	CHECK(u64map_init(&m, 4) == 0);
	CHECK(u64map_get(&m, 1) == -1);
	for (k = 0; k < 100000; k++)
		CHECK(u64map_put(&m, k * 2654435761ULL, (uint32_t)k) == 0);
	for (k = 0; k < 100000; k++)
		CHECK(u64map_get(&m, k * 2654435761ULL) == (int64_t)k);
	CHECK(u64map_get(&m, 3) == -1);
	CHECK(u64map_put(&m, 0, 7) == 0);   /* overwrite */
	CHECK(u64map_get(&m, 0) == 7);
	CHECK_EQ_U(m.used, 100000);
	CHECK(m.used * 2 <= m.cap);
	u64map_clear(&m);
	CHECK(u64map_get(&m, 2654435761ULL) == -1);
	u64map_done(&m);
	return 0;
}
