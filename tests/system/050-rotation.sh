#!/bin/sh
# Rotation: with two counter groups taking turns on every CPU, each group's
# time coverage is reported and is 0.50 (+-0.01 for the host, +-0.02 for a
# busy process; measured 0.4985-0.5000 and 0.490-0.510); the base counts (task-clock, switches) keep full coverage.
. "$(dirname "$0")/lib.sh"
need_root

DB=$TMP/s.db
start_daemon "$DB"
"$HELPERS/spin" 5 spinner >/dev/null
wait_more_intervals "$DB" 1 || fail "no new intervals"
"$STACKCTL" status --db "$DB" --window 5s --json >"$TMP/status.json" || fail "stackctl status failed"
"$STACKCTL" status --db "$DB" --window 5s >"$TMP/status.txt"
cat "$TMP/status.txt"
ngroups=$(jq '.groups | length' "$TMP/status.json")
[ "$ngroups" -eq 2 ] || fail "expected 2 groups, got $ngroups"
for g in 0 1; do
	name=$(jq -r ".groups[$g].name" "$TMP/status.json")
	cov=$(jq ".groups[$g].coverage" "$TMP/status.json")
	note "group $name: host coverage $cov"
	awk -v c="$cov" 'BEGIN { exit !(c >= 0.49 && c <= 0.51) }' || fail "group $name covers $cov of the time, not 0.50 +- 0.01"
done
# measured 0.997-1.000 together: the switches of groups take a little
total=$(jq '[.groups[].coverage] | add' "$TMP/status.json")
awk -v c="$total" 'BEGIN { exit !(c >= 0.99 && c <= 1.001) }' || fail "groups cover $total of the time together, not all of it"
grep -q "coverage" "$TMP/status.txt" || fail "the table does not show coverage"

"$STACKCTL" top --db "$DB" --window 60s --json >"$TMP/top.json"
jq -e '.[] | select(.comm == "spinner")' "$TMP/top.json" >"$TMP/spinner.json" || fail "no spinner row"
fc=$(jq '.faults_coverage' "$TMP/spinner.json")
mc=$(jq '.migrations_coverage' "$TMP/spinner.json")
note "spinner: faults group measured $fc of its time, migrations group $mc"
awk -v a="$fc" -v b="$mc" 'BEGIN { exit !(a >= 0.48 && a <= 0.52 && b >= 0.48 && b <= 0.52 && a + b > 0.999 && a + b < 1.001) }' ||
	fail "the spinner's group coverage is not 0.50 +- 0.02 each, summing to 1"
stop_daemon
exit 0
