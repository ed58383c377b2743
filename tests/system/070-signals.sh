#!/bin/sh
# SIGTERM writes the interval in flight and exits 0; SIGHUP re-reads the
# config file (a bad one is refused and the daemon runs on); SIGUSR1,
# SIGUSR2 and SIGALRM are ignored.
. "$(dirname "$0")/lib.sh"
need_root

DB=$TMP/s.db
# A 60 s interval: nothing would be stored for a minute without SIGTERM's flush.
"$STACKD" --user root --db "$DB" --interval 60s >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
sleep 3
"$HELPERS/spin" 1 beforeterm >/dev/null
[ "$(intervals "$DB")" -eq 0 ] || fail "an interval was stored before its time"
stop_daemon
n=$(intervals "$DB")
len=$(sqlite3 -readonly "$DB" "SELECT (end_ns - start_ns) / 1000000 FROM interval")
spin=$(sqlite3 -readonly "$DB" "SELECT sum(s.task_clock_ns) FROM sample s JOIN process p ON p.id = s.process_id WHERE p.comm = 'beforeterm'")
note "after SIGTERM: $n interval of ${len} ms; the spinner had ${spin} ns"
[ "$n" -eq 1 ] || fail "SIGTERM did not write the interval in flight"
[ "$len" -ge 3000 ] && [ "$len" -le 8000 ] || fail "the final interval is $len ms long"
within "${spin:-0}" 1000000000 10 || fail "the final interval lost the spinner's time"
grep -q "writing the interval in flight and stopping" "$TMP/stackd.log" || fail "no stop message"

# SIGHUP: a shorter interval takes effect without a restart.
printf 'interval = 1s\n' >"$TMP/stackd.conf"
"$STACKD" --user root --db "$DB" --config "$TMP/stackd.conf" >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_more_intervals "$DB" 2 || fail "no intervals at 1s"
printf 'interval = 250ms\n' >"$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
sleep 0.5
a=$(intervals "$DB")
sleep 2
b=$(intervals "$DB")
note "after SIGHUP to 250ms: $((b - a)) intervals in 2 s"
grep -q "configuration reloaded" "$TMP/stackd.log" || fail "no reload message"
[ $((b - a)) -ge 6 ] || fail "the new interval did not take effect"

# A broken config on SIGHUP is refused; collection goes on.
printf 'interval = often\n' >"$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
sleep 0.5
grep -q "reload: $TMP/stackd.conf:1: interval: invalid duration 'often'.*keeping the running configuration" \
	"$TMP/stackd.log" || { cat "$TMP/stackd.log"; fail "a bad config on SIGHUP was not reported"; }
wait_more_intervals "$DB" 3 || fail "collection stopped after a bad reload"
# Keys that need a restart are named, not silently ignored.
printf 'interval = 250ms\nring_pages = 64\n' >"$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
sleep 0.5
grep -q "take effect only at a restart" "$TMP/stackd.log" || fail "restart-only change not reported"

# Signals whose default action ends a process but mean nothing to stackd
# (a stray kill -USR1, a library's alarm) are ignored, and said so.
for sig in USR1 USR2 ALRM; do
	kill -"$sig" "$DAEMON_PID"
	sleep 0.3
	kill -0 "$DAEMON_PID" 2>/dev/null || fail "SIG$sig ended the daemon"
done
wait_more_intervals "$DB" 2 || fail "collection stopped after SIGUSR1/SIGUSR2/SIGALRM"
grep -q "ignored: stackd stops on SIGTERM" "$TMP/stackd.log" || fail "an ignored signal was not logged"
note "SIGUSR1, SIGUSR2, SIGALRM: ignored, collection went on"
stop_daemon
exit 0
