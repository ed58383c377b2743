/* When a CPU's switch records are on (daemon/collect/switch_records.h): needed now
 * wins whatever they cost; a CPU that needed them once keeps them while
 * every CPU is cheap - judged by the busiest CPU, so an idle CPU's records
 * close when another CPU is busy (they cost its switches too) and come
 * back when it calms, with hysteresis between 10,000 and 20,000/s. */
#include "daemon/collect/switch_records.h"
#include "test.h"

static bool want(bool on, bool before, uint64_t ppm, uint64_t host_rate)
{
	struct switch_records_view v = { on, before, ppm, host_rate };

	return switch_records_wanted(&v);
}

int main(void)
{
	/* needed now (unsampled spans over 1 %): on, even at 500,000/s */
	CHECK(want(false, false, 20000, 500000));
	CHECK(want(true, true, 20000, 500000));
	/* needed once, this CPU idle: on while the busiest CPU is cheap */
	CHECK(want(false, true, 0, 200));
	CHECK(!want(false, true, 0, 50000));    /* another CPU busy: stay off */
	CHECK(!want(true, true, 0, 50000));     /* ... and close */
	/* hysteresis: opened under 10,000, kept until over 20,000 */
	CHECK(!want(false, true, 0, 15000));
	CHECK(want(true, true, 0, 15000));
	CHECK(!want(true, true, 0, 20000));
	/* on, spans still over 0.25 %: kept whatever the rate */
	CHECK(want(true, true, 3000, 500000));
	CHECK(!want(true, true, 2000, 500000));
	/* never needed: never on */
	CHECK(!want(false, false, 0, 0));
	CHECK(!want(true, false, 0, 0));
	{
		struct switch_records_view v = { false, false, 10001, 0 };

		CHECK(switch_records_needed_now(&v));
		v.unsampled_ppm = 10000;
		CHECK(!switch_records_needed_now(&v));
	}
	return 0;
}
