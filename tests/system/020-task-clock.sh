#!/bin/sh
# A CPU spinner's task-clock total, as stored by stackd, agrees within 1%
# with a per-task perf counter and with /proc/PID/schedstat (the figure of
# docs/performance.md, Accuracy; measured 0.9944-1.0001 against perf).
# That holds on an otherwise idle host: with other work competing for the
# CPUs stackd has counted up to 6.3% less, so there the comparisons are
# reported as SKIP, not passed.
. "$(dirname "$0")/lib.sh"
need_root
command -v perf >/dev/null || skip "perf is not installed"

DB=$TMP/s.db
start_daemon "$DB" ${STACKD_ARGS:-}

steal() { awk '/^cpu / { print $9 }' /proc/stat; }
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
now_ns() { date +%s%N; }
steal0=$(steal)
busy0=$(busy)
wall0=$(now_ns)
# perf's child becomes the spinner (exec), so the per-task counter sees its whole life.
perf stat -x, -e task-clock -o "$TMP/perf.csv" -- "$HELPERS/spin" 5 spinner >"$TMP/spin.out" ||
	fail "the spinner failed"
wall_ns=$(( $(now_ns) - wall0 ))
busy_j=$(( $(busy) - busy0 ))
steal_pct=$(awk -v s="$(( $(steal) - steal0 ))" -v b="$busy_j" \
	'BEGIN { printf "%.1f\n", (b > 0 ? 100 * s / b : 0) }')
wait_more_intervals "$DB" 2 || fail "no new intervals after the spinner"

perf_ns=$(awk -F, '$3 == "task-clock" { printf "%.0f\n", $1 * 1000000 }' "$TMP/perf.csv")
sched_ns=$(sed -n 's/^schedstat_ns=//p' "$TMP/spin.out")
"$STACKCTL" top --db "$DB" --window 60s --json >"$TMP/top.json" || fail "stackctl top failed"
db_ns=$(jq '[.[] | select(.comm == "spinner") | .task_clock_ns] | add // 0' "$TMP/top.json")
# CPU the rest of the host used meanwhile (stackd, perf, anything else), as
# a share of one CPU: the host's busy time less the spinner's own.
other_pct=$(awk -v b="$busy_j" -v hz="$(getconf CLK_TCK)" -v s="$sched_ns" -v w="$wall_ns" \
	'BEGIN { printf "%.1f\n", 100 * (b * 1e9 / hz - s) / w }')
note "spinner task-clock: stackd $db_ns ns, perf stat -p $perf_ns ns (ratio $(ratio "$db_ns" "$perf_ns")), schedstat $sched_ns ns (ratio $(ratio "$db_ns" "$sched_ns")), host steal $steal_pct%, other load $other_pct% of a CPU"
[ "$db_ns" -gt 0 ] || fail "no spinner in stackctl top"
TOL=1          # percent: measured up to 0.56% off on an idle host; twice that
MAX_OTHER=20   # percent of a CPU used by everything else: "otherwise idle"
if awk -v o="$other_pct" -v m="$MAX_OTHER" 'BEGIN { exit !(o > m) }'; then
	skip_check "task-clock within $TOL% of perf stat and schedstat: the host was busy ($other_pct% of a CPU besides the spinner; ratios $(ratio "$db_ns" "$perf_ns"), $(ratio "$db_ns" "$sched_ns"))"
else
	within "$db_ns" "$perf_ns" "$TOL" || fail "stackd and the per-task perf counter differ by more than $TOL%"
	# schedstat leaves out steal time, which stackd (like perf) counts as
	# the task's: allow for the steal measured over the run.
	tol=$(awk -v s="$steal_pct" -v t="$TOL" 'BEGIN { printf "%.1f\n", t + s }')
	within "$db_ns" "$sched_ns" "$tol" || fail "stackd and schedstat differ by more than $tol%"
fi

# Every CPU nanosecond has an owner: spans holding switches the kernel
# counted but did not sample (this guest kernel never samples one CPU's
# idle switch-out) are split at its switch-in records, not left
# unattributed (before that: half of an idle 2-CPU host unattributed).
# The first spans, before the worker turns the records on, may stay so.
unatt_pct=$(sqlite3 -readonly "$DB" "SELECT printf('%.2f', 100.0 * coalesce(sum(CASE WHEN p.pid = -1 THEN s.task_clock_ns END), 0) / sum(s.task_clock_ns)) FROM sample s JOIN process p ON p.id = s.process_id")
split=$(sqlite3 -readonly "$DB" "SELECT sum(split_spans) || ' split, ' || sum(unsampled_switches) || ' unsampled' FROM interval")
note "unattributed: $unatt_pct% of CPU time ($split)"
awk -v u="$unatt_pct" 'BEGIN { exit !(u < 3) }' || fail "$unatt_pct% of CPU time unattributed (3% allowed)"
# ... and the headline says so where people look: status and the top header
"$STACKCTL" status --db "$DB" --window 60s >"$TMP/status" || fail "stackctl status failed"
grep -q '^attributed:    [0-9.]*% of busy CPU time' "$TMP/status" || fail "status shows no attributed share"
# (Not asserted above 95%: in a run this short, each CPU going from busy to
# idle leaves up to one rotation unattributed before its switch records are
# back on, which weighs several percent of 5 s; the 3% bound above holds.)
note "$(grep '^attributed' "$TMP/status")"
"$STACKCTL" top --db "$DB" -b -n 1 >"$TMP/top" 2>&1 || fail "stackctl top -b failed"
grep -q '^attributed [0-9.]*% of busy CPU, [0-9.]*% of switches' "$TMP/top" || fail "the top header shows no attributed share"

stop_daemon
exit 0
