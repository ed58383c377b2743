/*
 * switch_records.c - when a CPU's switch records are worth their cost
 * (switch_records.h).
 */
#include "daemon/collect/switch_records.h"

bool switch_records_needed_now(const struct switch_records_view *v)
{
	return v->unsampled_ppm > SWITCH_RECORDS_ON_PPM;
}

bool switch_records_wanted(const struct switch_records_view *v)
{
	bool cheap = v->host_rate < (v->on ? SWITCH_RECORDS_CHEAP_CLOSE :
				     SWITCH_RECORDS_CHEAP_OPEN);

	return switch_records_needed_now(v) || (v->needed_before && cheap) ||
	       (v->on && v->unsampled_ppm >= SWITCH_RECORDS_OFF_PPM);
}
