#!/bin/sh
# stackctl analyze on perf stat -x, recordings (plain, -I with -A per CPU,
# scaled and unsupported events, perf-metrics names) gives the stacks of
# perf's formulas; malformed input gives one line naming the problem, exit 2.
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data" && pwd)

get() { jq -r "$2" "$1"; }
"$STACKCTL" analyze --json "$D/skl-plain.csv" >"$TMP/p.json" 2>"$TMP/p.err" || fail "plain recording failed"
grep -q "model skl (guessed" "$TMP/p.err" || fail "the guessed model is not stated"
[ "$(get "$TMP/p.json" .model)" = skl ] || fail "wrong model"
[ "$(get "$TMP/p.json" '.intervals | length')" = 1 ] || fail "plain recording is one interval"
[ "$(get "$TMP/p.json" '.intervals[0].time')" = null ] || fail "plain time is not null"
# perf (GenuineIntel-6-5E-3): FE = 0.8e9 / 4e9, BS = (2.2e9 - 2.0e9 + 4 * 0.02e9) / 4e9
[ "$(get "$TMP/p.json" '.intervals[0].metrics.frontend_bound')" = 0.2 ] || fail "frontend_bound"
[ "$(get "$TMP/p.json" '.intervals[0].metrics.bad_speculation')" = 0.07 ] || fail "bad_speculation"
[ "$(get "$TMP/p.json" '.intervals[0].metrics | .retiring + .bad_speculation + .frontend_bound + .backend_bound')" = 1 ] ||
	fail "level 1 does not sum to 1"

"$STACKCTL" analyze --json --model skl "$D/skl-interval-percpu.csv" >"$TMP/i.json" || fail "interval recording failed"
[ "$(get "$TMP/i.json" '.intervals | length')" = 2 ] || fail "want two intervals"
[ "$(get "$TMP/i.json" '.intervals[1].time')" = 2.002 ] || fail "interval time"
[ "$(get "$TMP/i.json" '.intervals[0].metrics.frontend_bound')" = 0.2 ] || fail "per-CPU sum, scaled"
[ "$(get "$TMP/i.json" '.intervals[1].metrics.retiring')" = 0.8 ] || fail "second interval"
"$STACKCTL" analyze --model skl "$D/skl-interval-percpu.csv" >"$TMP/i.txt" || fail "table failed"
grep -q "frontend_bound .*20.0% .*10.0%" "$TMP/i.txt" || fail "table has one column per interval"

"$STACKCTL" analyze --json "$D/spr-plain.csv" >"$TMP/s.json" 2>/dev/null || fail "spr recording failed"
[ "$(get "$TMP/s.json" .model)" = spr ] || fail "spr not guessed"
# perf (GenuineIntel-6-8F-4): heavy_ops = 0.4e9 / 6e9 (sum4 = slots here)
awk -v v="$(get "$TMP/s.json" '.intervals[0].metrics.heavy_ops')" 'BEGIN { exit !(v > 0.0666 && v < 0.0667) }' ||
	fail "spr heavy_ops"

# Arm: the same events on N2, V1 and V2: no silent guess; V1 has 8 slots.
rc=0
"$STACKCTL" analyze "$D/neoverse-v1-interval.csv" >/dev/null 2>"$TMP/a.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "arm_n2, arm_v1, arm_v2 alike" "$TMP/a.err" || fail "ambiguous Arm model guessed"
"$STACKCTL" analyze --json --model arm_v1 "$D/neoverse-v1-interval.csv" >"$TMP/a.json" || fail "arm_v1 recording"
# arm64/sbsa.json: FE = 1.6e9 / 8e9, retiring = 1.8 / 2.0 * (1 - 4e9 / 8e9)
[ "$(get "$TMP/a.json" '.intervals[0].metrics.frontend_bound')" = 0.2 ] || fail "arm frontend_bound"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.retiring')" = 0.45 ] || fail "arm retiring"
[ "$(get "$TMP/a.json" '.intervals[1].metrics.gflops')" = null ] || fail "FLOPS from <not counted> events"
[ "$(get "$TMP/a.json" '.intervals[1].metrics.dtlb_walk_pki')" = 1 ] || fail "the rest of a partly counted group"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.flops_per_cycle')" = 2 ] || fail "arm FLOPS (SVE 256: x2)"

"$STACKCTL" analyze --perf-command --model skl >"$TMP/cmd" || fail "--perf-command failed"
grep -q "^perf stat -x, .*-e '{cycles,instructions,UOPS_ISSUED.ANY," "$TMP/cmd" || fail "perf command"

for bad in short number unknown empty binary; do
	rc=0
	"$STACKCTL" analyze "$D/bad-$bad.csv" >"$TMP/out" 2>"$TMP/err" || rc=$?
	note "bad-$bad: exit $rc: $(cat "$TMP/err")"
	[ "$rc" -eq 2 ] || fail "bad-$bad: exit $rc, want 2"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bad-$bad: want one line on stderr"
	[ ! -s "$TMP/out" ] || fail "bad-$bad: printed stacks anyway"
done
"$STACKCTL" analyze "$D/bad-short.csv" 2>&1 | grep -q "line 2: too short" || fail "short line not named"
"$STACKCTL" analyze "$D/bad-number.csv" 2>&1 | grep -q "line 2: value 'abc'" || fail "bad value not named"
exit 0
