#!/bin/sh
# A process that sleeps and wakes N times shows about N context switches,
# within a few of the kernel's own count (/proc/PID/status), on either CPU
# (measured in 8 runs: stackd = the kernel's count + 1, the kernel N + 1..3).
. "$(dirname "$0")/lib.sh"
need_root

DB=$TMP/s.db
start_daemon "$DB" ${STACKD_ARGS:-}
n=1000
for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
	taskset -c "$cpu" "$HELPERS/sleeper" "$n" 1000 "sleeper$cpu" >"$TMP/sleeper$cpu.out" ||
		fail "the sleeper failed"
done
wait_more_intervals "$DB" 2 || fail "no new intervals after the sleepers"
"$STACKCTL" top --db "$DB" --window 60s --json >"$TMP/top.json" || fail "stackctl top failed"
for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
	kernel=$(sed -n 's/^switches=//p' "$TMP/sleeper$cpu.out")
	db=$(jq --arg c "sleeper$cpu" '[.[] | select(.comm == $c) | .context_switches] | add // 0' \
		"$TMP/top.json")
	note "sleeper on cpu $cpu: $n wake-ups, kernel counts $kernel switches, stackd $db (ratio $(ratio "$db" "$kernel"))"
	[ "$db" -ge "$kernel" ] && [ "$db" -le $((kernel + 3)) ] ||
		fail "cpu $cpu: stackd counts $db switches, the kernel $kernel (want kernel + 0..3)"
	[ "$db" -ge "$n" ] && [ "$db" -le $((n + 10)) ] || fail "cpu $cpu: $db switches, not N=$n + 0..10"
done
# status names the busiest CPU's switch rate (the sleepers made >= 1000/s)
# and what sampling it costs, flagged when that is too much.
"$STACKCTL" status --db "$DB" --window 60s --json >"$TMP/status.json" || fail "stackctl status failed"
rate=$(jq .collector.max_cpu_switch_rate "$TMP/status.json")
cost=$(jq .sampling_cost_fraction "$TMP/status.json")
per_switch=$(jq .sampling_cost.ns_per_switch "$TMP/status.json")   # measured at start
costly=$(jq .sampling_costly "$TMP/status.json")
note "busiest cpu: $rate switches/s, sampling cost $cost at $per_switch ns per switch, costly=$costly"
[ "$rate" -ge 1000 ] || fail "status shows a switch rate of $rate/s, the sleepers made >= 1000/s"
awk -v r="$rate" -v c="$cost" -v k="$costly" -v ns="$per_switch" 'BEGIN {
	want = r * ns / 1e9; if (c < want * 0.99 - 1e-9 || c > want * 1.01 + 1e-9) exit 1
	if ((want > 0.02) != (k == "true")) exit 1 }' ||
	fail "sampling cost $cost / costly=$costly do not follow the rate $rate/s"
stop_daemon
exit 0
