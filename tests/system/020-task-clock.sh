#!/bin/sh
# A CPU spinner's task-clock total, as stored by stackd, agrees within 5% with
# a per-task perf counter and with /proc/PID/schedstat.
. "$(dirname "$0")/lib.sh"
need_root
command -v perf >/dev/null || skip "perf is not installed"

DB=$TMP/s.db
start_daemon "$DB" ${STACKD_ARGS:-}

steal() { awk '/^cpu / { print $9 }' /proc/stat; }
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
steal0=$(steal)
busy0=$(busy)
# perf's child becomes the spinner (exec), so the per-task counter sees its whole life.
perf stat -x, -e task-clock -o "$TMP/perf.csv" -- "$HELPERS/spin" 5 spinner >"$TMP/spin.out" ||
	fail "the spinner failed"
steal_pct=$(awk -v s="$(( $(steal) - steal0 ))" -v b="$(( $(busy) - busy0 ))" \
	'BEGIN { printf "%.1f\n", (b > 0 ? 100 * s / b : 0) }')
wait_more_intervals "$DB" 2 || fail "no new intervals after the spinner"

perf_ns=$(awk -F, '$3 == "task-clock" { printf "%.0f\n", $1 * 1000000 }' "$TMP/perf.csv")
sched_ns=$(sed -n 's/^schedstat_ns=//p' "$TMP/spin.out")
"$STACKCTL" top --db "$DB" --window 60s --json >"$TMP/top.json" || fail "stackctl top failed"
db_ns=$(jq '[.[] | select(.comm == "spinner") | .task_clock_ns] | add // 0' "$TMP/top.json")
note "spinner task-clock: stackd $db_ns ns, perf stat -p $perf_ns ns (ratio $(ratio "$db_ns" "$perf_ns")), schedstat $sched_ns ns (ratio $(ratio "$db_ns" "$sched_ns")), host steal $steal_pct%"
[ "$db_ns" -gt 0 ] || fail "no spinner in stackctl top"
within "$db_ns" "$perf_ns" 5 || fail "stackd and the per-task perf counter differ by more than 5%"
# schedstat leaves out steal time, which stackd (like perf) counts as the
# task's: allow for the steal measured over the run.
tol=$(awk -v s="$steal_pct" 'BEGIN { printf "%.1f\n", 5 + s }')
within "$db_ns" "$sched_ns" "$tol" || fail "stackd and schedstat differ by more than $tol%"

stop_daemon
exit 0
