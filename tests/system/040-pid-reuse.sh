#!/bin/sh
# A process that exits and a new one reusing its pid are two processes, each
# with its own name and CPU time.
. "$(dirname "$0")/lib.sh"
need_root

DB=$TMP/s.db
start_daemon "$DB"
out=$("$HELPERS/pidreuse" 1) || fail "could not create a pid reuse (clone3 set_tid)"
# "pid=P one_ns=A two_ns=B": the kernel's CPU time of each generation
pid=$(echo "$out" | sed -n 's/^pid=\([0-9]*\).*/\1/p')
ref_one=$(echo "$out" | sed -n 's/.*one_ns=\([0-9]*\).*/\1/p')
ref_two=$(echo "$out" | sed -n 's/.*two_ns=\([0-9]*\).*/\1/p')
wait_more_intervals "$DB" 2 || fail "no new intervals"
rows=$(sqlite3 -readonly "$DB" "SELECT count(*) FROM process WHERE pid = $pid")
starts=$(sqlite3 -readonly "$DB" "SELECT count(DISTINCT start_ns) FROM process WHERE pid = $pid")
note "pid $pid: $rows process rows, $starts distinct start times"
[ "$rows" -eq 2 ] || fail "pid $pid should be two processes, is $rows"
[ "$starts" -eq 2 ] || fail "the two processes should have different start times"
"$STACKCTL" top --db "$DB" --window 60s --json >"$TMP/top.json"
for name in gen-one gen-two; do
	n=$(jq --arg c "$name" --argjson p "$pid" '[.[] | select(.comm == $c and .pid == $p)] | length' "$TMP/top.json")
	ns=$(jq --arg c "$name" '[.[] | select(.comm == $c) | .task_clock_ns] | add // 0' "$TMP/top.json")
	note "$name: $n row(s), task-clock $ns ns"
	[ "$n" -eq 1 ] || fail "$name should be one row with pid $pid"
	if [ "$name" = gen-one ]; then ref=$ref_one; else ref=$ref_two; fi
	note "$name: the kernel charged it $ref ns"
	# 2%: a tick of rusage rounding on a 1 s spin, and a span at each end
	within "$ns" "$ref" 2 || fail "$name: $ns ns attributed, the kernel charged $ref ns"
done
stop_daemon
exit 0
