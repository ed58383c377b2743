#!/bin/sh
# A SIGHUP re-plan during a fork storm: the switch between two sets of
# counter groups leaves tens of milliseconds in which no group counts.  The
# old side-band events record through it, so every process started in it
# is stored, with its name; the switch's CPU time is counted (replan_gap_ns,
# its busy part charged to [unattributed]) instead of passing for
# attributed.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "$HELPERS/forkstorm" ] || skip "tests/helpers/forkstorm is not built"

DB=$TMP/s.db
q() { sqlite3 -readonly "$DB" "$1"; }
printf 'families = all\n' >"$TMP/stackd.conf"
start_daemon "$DB" --model software --config "$TMP/stackd.conf"
wait_more_intervals "$DB" 1 || fail "no intervals"

# 500 short processes a second for 5 s, and a re-plan each way inside it
"$HELPERS/forkstorm" 500 5 >"$TMP/storm.out" &
storm=$!
EXTRA_PIDS=$storm
sleep 1.5
printf 'families = faults\n' >"$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
wait_log "re-planned the counter groups, now 1 group: faults"
sleep 1.5
printf 'families = all\n' >"$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
wait_log "re-planned the counter groups, now 2 groups: faults, migrations"
wait "$storm" || fail "forkstorm failed"
wait_more_intervals "$DB" 2 || fail "no intervals after the storm"
"$STACKCTL" status --db "$DB" --window 1h >"$TMP/status.out" || fail "stackctl status failed"
stop_daemon

forked=$(sed -n 's/^forked=//p' "$TMP/storm.out")
stored=$(q "SELECT count(*) FROM process WHERE comm = 'stormkid'")
unnamed=$(q "SELECT count(*) FROM process WHERE comm = '?'")
lost=$(q "SELECT coalesce(sum(lost_records), 0) FROM interval WHERE rollup_s = 0")
gap=$(q "SELECT coalesce(sum(replan_gap_ns), 0) FROM interval WHERE rollup_s = 0")
ncpus=$(q "SELECT max(ncpus) FROM interval")
note "$stored of $forked stormkids stored ($unnamed processes without a name), $lost lost records;" \
	"the two switches: $gap CPU-ns with no group open over $ncpus CPUs"
[ "$lost" -eq 0 ] || skip "ring buffers overflowed: the storm is too much for this host"
[ "$stored" -eq "$forked" ] ||
	fail "$((forked - stored)) of $forked processes started during the storm were not stored"
[ "$gap" -gt 0 ] || fail "the re-plans' switches counted no time without groups"
# two switches of at least a millisecond each, and far under an interval
[ "$gap" -ge $((2 * 1000000)) ] && [ "$gap" -lt $((2 * ncpus * 1000000000)) ] ||
	fail "replan_gap_ns = $gap for two switches on $ncpus CPUs"
grep -q "CPU-ns with no group open (re-plans) *$gap\$" "$TMP/status.out" ||
	{ cat "$TMP/status.out"; fail "stackctl status does not show the switches' time"; }
exit 0
