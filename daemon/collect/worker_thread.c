/*
 * worker_thread.c - a worker's thread: pinned to its CPU, it sleeps until
 * the main thread nudges it or a rotation is due, and each tick does what
 * is due: a requested cut, a pause, a rotation with the reviews around it,
 * or draining the ring.  The jobs themselves are in the worker_*.c files
 * below it (worker_private.h).
 */
#include "daemon/collect/worker_private.h"
#include "lib/clock.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>

/* Pinned to its CPU, under SCHED_OTHER.  SCHED_FIFO would wake it sooner
 * on a busy CPU (make bench, "wake-up lateness": p99 tens of microseconds
 * against up to a few milliseconds), but nothing it computes depends on
 * waking on time: switch samples carry their own times, a late rotation
 * only lengthens one group's turn (coverage counts the real time), a late
 * cut moves an interval's end.  A real-time thread that loops would own
 * its CPU; the unit keeps RestrictRealtime=yes, and stackd asks for no
 * real-time privilege anywhere. */
static void setup_thread(struct worker *w)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->ev->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		w->setup_error = errno;
}

void worker_begin(struct worker *w)
{
	uint64_t now = worker_now_ns(w);

	w->last_cut_ns = now;
	w->switches_at_cut = w->at.switches_counted;
	w->switch_review_ns = now;
	w->switch_review_switches = w->at.switches_counted;
	cost_budget_init(&w->mode, now, w->at.switches_counted);
	if (!worker_set_switch_records(w, true))
		w->switch_records_failed = true;
	worker_enable_next(w, w->col->n_groups - 1);
	worker_go_dark(w, now);
	w->next_rotate_ns = now + __atomic_load_n(&w->rotate_ns, __ATOMIC_RELAXED);
}

uint64_t worker_wake_at(const struct worker *w, uint64_t now)
{
	if (w->paused)
		return now + NS_PER_SEC;   /* no rotation: the resume nudges us */
	return w->next_rotate_ns;
}

bool worker_tick(struct worker *w)
{
	/* stop first: worker_stop() is called after the last flush request,
	 * so seeing stop guarantees seeing that request. */
	int stopping = __atomic_load_n(&w->stop, __ATOMIC_ACQUIRE);
	uint64_t seq = __atomic_load_n(&w->flush_seq, __ATOMIC_ACQUIRE);
	uint64_t now;

	if (seq != w->done_seq) {
		/* The last cut: the tails periodic turns left for their next
		 * clock sample have none to wait for (attrib.h's sums hold). */
		if (stopping && w->mode.periodic) {
			worker_drain(w, WORKER_DRAIN_ALL);
			worker_settle_tails(w, worker_now_ns(w), w->col->n_groups);
		}
		worker_cut(w, seq);
		w->done_seq = seq;
	}
	if (stopping)
		return false;
	worker_apply_pause(w);
	now = worker_now_ns(w);
	if (now >= w->next_rotate_ns && !w->paused) {
		uint64_t rotate_ns = __atomic_load_n(&w->rotate_ns, __ATOMIC_RELAXED);
		int hold = __atomic_load_n(&w->review_hold, __ATOMIC_RELAXED);

		if (hold != 0)
			cost_budget_rebase(&w->mode, now, w->at.switches_counted);
		else
			worker_review_mode(w, now);
		worker_rotate(w);
		if (hold != 0) {
			/* the held time (up to this tick) is not part of the
			 * next review's rate; once released, one more tick */
			worker_rebase_switch_review(w, now);
			if (hold == REVIEW_RELEASED)
				__atomic_compare_exchange_n(&w->review_hold, &hold, 0, false,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		} else if (w->mode.periodic) {
			/* no switch samples, no unsampled switches: nothing
			 * to review, and the records stay closed */
			worker_publish_switch_rate(w, now);
			worker_rebase_switch_review(w, now);
		} else {
			/* (not while held: a calibration's burst is not this
			 * host's rate, for this worker or the others) */
			worker_publish_switch_rate(w, now);
			worker_review_switch_records(w, now);
		}
		w->next_rotate_ns += rotate_ns;
		if (w->next_rotate_ns <= now)
			w->next_rotate_ns = now + rotate_ns;
	} else {
		worker_drain(w, WORKER_DRAIN_ALL);
	}
	return true;
}

void worker_end(struct worker *w)
{
	for (unsigned g = 0; g < w->col->n_groups; g++)
		worker_group_ioctl(w, g, PERF_EVENT_IOC_DISABLE);
	if (w->switch_records)
		worker_set_switch_records(w, false);
	w->running = false;
	/* a stopped CPU switches at no rate we know: its last one must not
	 * keep the other CPUs' switch records closed (switch_records.h) */
	__atomic_store_n(&w->ev->switch_rate, 0, __ATOMIC_RELAXED);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pollfd pfd[2];

	setup_thread(w);
	worker_begin(w);
	pfd[0].fd = w->ev->side_fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = w->cmd_fd;
	pfd[1].events = POLLIN;

	for (;;) {
		uint64_t now = worker_now_ns(w);
		uint64_t wake = worker_wake_at(w, now);
		uint64_t wait = wake > now ? wake - now : 0;
		struct timespec ts = { (time_t)(wait / NS_PER_SEC), (long)(wait % NS_PER_SEC) };

		if (ppoll(pfd, 2, &ts, NULL) > 0) {
			if (pfd[1].revents & POLLIN) {
				uint64_t v;

				(void)!read(w->cmd_fd, &v, sizeof(v));
			}
			/* A dead ring fd would make ppoll return at once forever. */
			if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
				pfd[0].fd = -1;
		}
		if (!worker_tick(w))
			break;
	}
	worker_end(w);
	return NULL;
}

int worker_start(struct worker *w)
{
	int r = pthread_create(&w->thread, NULL, worker_main, w);

	if (r != 0)
		return -r;
	w->started = true;
	return 0;
}
