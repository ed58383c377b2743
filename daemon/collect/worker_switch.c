/*
 * worker_switch.c - a CPU's switch records (switch_records.h): opened
 * and closed by its worker, and reviewed at every rotation from the spans
 * the kernel counted and did not sample here and the busiest CPU's rate.
 */
#include "daemon/collect/worker_private.h"
#include "daemon/base/log.h"
#include "daemon/collect/switch_records.h"
#include "lib/clock.h"

bool worker_set_switch_records(struct worker *w, bool on)
{
	if (!on) {
		collector_close_switch_records(w->col, w->ev);
		w->switch_records = false;
		return true;
	}
	if (collector_open_switch_records(w->col, w->ev) < 0)
		return false;
	w->switch_records = true;
	return true;
}

/* The busiest CPU's switches/s at its worker's last rotation. */
static uint64_t host_switch_rate(const struct worker *w)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < w->col->n_cpus; i++) {
		uint64_t r = __atomic_load_n(&w->col->cpus[i].switch_rate, __ATOMIC_RELAXED);

		if (r > max)
			max = r;
	}
	return max;
}

/* At every rotation, in either mode: this CPU's switches/s since the last
 * review (from the switch counters, which count in both), for every
 * worker's host_switch_rate(). */
void worker_publish_switch_rate(struct worker *w, uint64_t now)
{
	uint64_t elapsed_ns = now - w->switch_review_ns;
	uint64_t rate = elapsed_ns > 0 ? (w->at.switches_counted - w->switch_review_switches) *
		NS_PER_SEC / elapsed_ns : 0;

	__atomic_store_n(&w->ev->switch_rate, rate, __ATOMIC_RELAXED);
}

void worker_rebase_switch_review(struct worker *w, uint64_t now)
{
	w->at.unsampled_span_ns = 0;
	w->switch_review_ns = now;
	w->switch_review_switches = w->at.switches_counted;
}

/* At every rotation: the records on or off as switch_records_wanted()
 * says, from this CPU's unsampled spans since the last review and the
 * busiest CPU's rate (switch records cost every CPU's switches: records
 * on cpu 0 alone cost a ping-pong on cpu 1 7 % of its round trips on the
 * development VM, 0.14 us a switch - perf record --switch-events -C 0
 * beside one reading the group on every switch).  On from the start, so
 * the first spans are split. */
void worker_review_switch_records(struct worker *w, uint64_t now)
{
	uint64_t elapsed_ns = now - w->switch_review_ns;
	uint64_t ppm = elapsed_ns > 0 ?
		(uint64_t)((unsigned __int128)w->at.unsampled_span_ns * 1000000 / elapsed_ns) : 0;
	struct switch_records_view v = { w->switch_records, w->switch_records_needed, ppm,
					  host_switch_rate(w) };
	bool needed = switch_records_needed_now(&v);
	bool want = switch_records_wanted(&v);

	worker_rebase_switch_review(w, now);
	if (needed)
		w->switch_records_needed = true;
	if (!w->switch_records && want && !w->switch_records_failed &&
	    !worker_set_switch_records(w, true))
		w->switch_records_failed = true;
	else if (w->switch_records && !want)
		(void)worker_set_switch_records(w, false);
	if (!needed || w->switch_records_told)
		return;
	w->switch_records_told = true;   /* once per CPU */
	if (w->switch_records)
		log_info("cpu %d: the kernel counts context switches it does not sample; "
			 "recording its switch records while that matters, to split those spans "
			 "(split_spans)", w->ev->cpu);
	else
		log_warning("cpu %d: the kernel counts context switches it does not sample, and "
			    "switch records cannot be opened: those spans stay unattributed",
			    w->ev->cpu);
}
