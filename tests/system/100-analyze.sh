#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# stackctl analyze on perf stat -x, recordings (plain, -I with -A per CPU,
# --per-core, --per-socket, scaled and unsupported events, perf-metrics
# names, event names with terms and unquoted commas, duration_time) gives
# the stacks of perf's formulas, matching events by what they count; events
# no formula reads are named once; a real perf recording (software events)
# reads; malformed input gives one line naming the problem, exit 2.
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
"$STACKCTL" analyze --model skl "$D/skl-interval-percpu.csv" >"$TMP/i.txt" 2>"$TMP/i.err" || fail "table failed"
[ "$(grep -c "mixes modifiers (u, none)" "$TMP/i.err")" = 1 ] || fail ":u beside plain names not noted once"
grep -q "frontend_bound .*20.0% .*10.0%" "$TMP/i.txt" || fail "table has one column per interval"

"$STACKCTL" analyze --json "$D/spr-plain.csv" >"$TMP/s.json" 2>/dev/null || fail "spr recording failed"
[ "$(get "$TMP/s.json" .model)" = spr ] || fail "spr not guessed"
# perf (GenuineIntel-6-8F-4): heavy_ops = 0.4e9 / 6e9 (sum4 = slots here)
awk -v v="$(get "$TMP/s.json" '.intervals[0].metrics.heavy_ops')" 'BEGIN { exit !(v > 0.0666 && v < 0.0667) }' ||
	fail "spr heavy_ops"

# Arm: the same events on N2, V1 and V2 (since perf 7.2's level 1 takes
# BR_MIS_PRED on all three): no refusal, and no silent guess either: the
# model taken is said, with the others and the first figure each would
# give otherwise (they differ in slots per cycle and SVE width).
"$STACKCTL" analyze - <"$D/neoverse-v1-interval.csv" >/dev/null 2>"$TMP/a.err" ||
	fail "Arm recording refused: $(cat "$TMP/a.err")"
grep -q "model arm_n2 (guessed from the events; also fit: arm_v1 (would give .*), arm_v2 (would give" "$TMP/a.err" ||
	fail "Arm alternatives not named: $(cat "$TMP/a.err")"
# a recording of the days before the stalls family (no STALL_FRONTEND,
# STALL_BACKEND, BR_MIS_PRED) holds every N1 event too: it must not read as N1's
grep -v -e BR_MIS_PRED, -e STALL_FRONTEND, -e STALL_BACKEND, "$D/neoverse-v1-interval.csv" |
	"$STACKCTL" analyze - >/dev/null 2>"$TMP/a.err" ||
	fail "a Neoverse N2/V recording without the stalls family: $(cat "$TMP/a.err")"
grep -q "model arm_n2 (guessed.*also fit: arm_v1.*arm_v2" "$TMP/a.err" ||
	fail "a Neoverse N2/V recording without the stalls family: $(cat "$TMP/a.err")"
"$STACKCTL" analyze --json --model arm_v1 "$D/neoverse-v1-interval.csv" >"$TMP/a.json" || fail "arm_v1 recording"
# arm64/sbsa.json: retiring = 1.8 / 2.0 * (1 - 4e9 / 8e9); V1's frontend_bound
# (arm64/arm/neoverse-v1/metrics.json): 1.6e9 / 8e9 - 4 * 5e6 / 1e9
[ "$(get "$TMP/a.json" '.intervals[0].metrics.frontend_bound')" = 0.18 ] || fail "arm frontend_bound"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.frontend_stalled_cycles')" = 0.3 ] ||
	fail "arm frontend_stalled_cycles"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.backend_bound')" = 0.3 ] || fail "arm backend_bound"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.retiring')" = 0.45 ] || fail "arm retiring"
[ "$(get "$TMP/a.json" '.intervals[1].metrics.gflops')" = null ] || fail "FLOPS from <not counted> events"
[ "$(get "$TMP/a.json" '.intervals[1].metrics.dtlb_walk_pki')" = 1 ] || fail "the rest of a partly counted group"
[ "$(get "$TMP/a.json" '.intervals[0].metrics.flops_per_cycle')" = 2 ] || fail "arm FLOPS (SVE 256: x2)"

# Ice Lake, -I --per-core: perf's spelling of INT_MISC.CLEARS_COUNT is that
# event (the same stacks as with stackd's name); without cmask and edge it
# is another event, named as not used, and backend_bound is perf
# 5.10-6.2's built-in one (3e9 / 10e9, no CLEARS_COUNT term), labelled.
"$STACKCTL" analyze --json --model icl "$D/icl-interval-percore.csv" >"$TMP/c.json" 2>"$TMP/c.err" ||
	fail "icl --per-core recording"
[ ! -s "$TMP/c.err" ] || fail "icl: unexpected stderr: $(cat "$TMP/c.err")"
# sum4 = 10e9: backend = 3e9 / 10e9 + 5 * 0.2e9 / 10e9 (icl: GenuineIntel-6-7E-5)
[ "$(get "$TMP/c.json" '.intervals[0].metrics.backend_bound')" = 0.4 ] || fail "icl backend_bound"
[ "$(get "$TMP/c.json" '.intervals[1].metrics.bad_speculation')" = 0.01 ] || fail "icl second interval"
sed 's|cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/|INT_MISC.CLEARS_COUNT|' "$D/icl-interval-percore.csv" |
	"$STACKCTL" analyze --json --model icl - >"$TMP/c2.json" || fail "icl, stackd's spelling"
cmp -s "$TMP/c.json" "$TMP/c2.json" || fail "perf's and stackd's spellings of one event differ"
sed 's|cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/|INT_MISC.RECOVERY_CYCLES|' "$D/icl-interval-percore.csv" |
	"$STACKCTL" analyze --json --model icl - >"$TMP/c3.json" 2>"$TMP/c3.err" || fail "icl, other event"
[ "$(get "$TMP/c3.json" '.intervals[0].metrics.backend_bound')" = 0.3 ] &&
	get "$TMP/c3.json" .formulas.backend_bound | grep -q "no INT_MISC.CLEARS_COUNT$" ||
	fail "recovery cycles without cmask taken"
# (without its cmask it is the per-thread recovery cycles the cycle-accounted
# CPI stack reads, so it is used, but not as the clears count)
[ ! -s "$TMP/c3.err" ] || fail "icl, per-thread recovery cycles: unexpected stderr: $(cat "$TMP/c3.err")"
sed 's|cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/|MEM_LOAD_RETIRED.L1_HIT|' "$D/icl-interval-percore.csv" |
	"$STACKCTL" analyze --json --model icl - >/dev/null 2>"$TMP/c4.err" || fail "icl, unused event"
[ "$(cat "$TMP/c4.err")" = "stackctl: analyze: not used: MEM_LOAD_RETIRED.L1_HIT" ] || fail "unused event not named"

# Zen 4, --per-socket: the cmask=6 event under perf's symbolic name; the
# run's seconds from duration_time give GFLOP/s (8e9 FLOP in 2 s).
"$STACKCTL" analyze --json "$D/zen4-persocket-duration.csv" >"$TMP/z.json" 2>"$TMP/z.err" ||
	fail "zen4 --per-socket recording"
[ "$(get "$TMP/z.json" .model)" = amd64_fam19h_zen4 ] || fail "zen4 not guessed"
[ "$(get "$TMP/z.json" '.intervals[0].metrics.gflops')" = 4 ] || fail "gflops from duration_time"
# fetch_latency = 6 * 0.2e9 / (6 * 4e9): needs the cmask=6 count
[ "$(get "$TMP/z.json" '.intervals[0].metrics.fetch_latency')" = 0.05 ] || fail "zen4 cmask event"
[ "$(grep -c "not used: branch-misses$" "$TMP/z.err")" = 1 ] || fail "branch-misses not named once"

# The regression CPI stack of a Zen 3 recording made from known penalties
# (base 0.4 cycles per instruction; 15, 8, 30, 20, 25, 100 cycles per
# branch mispredict, i-cache refill from L2 and from memory, i-TLB and
# d-TLB miss, d-cache fill from DRAM), 40 intervals, no noise: analyze
# prints the weights it fitted and the fit's quality, and --json carries
# the fit as the API's cpi_fit (one run: one process, every fourth
# interval held out).  With 24 intervals (fewer than 5 per weight) there
# is no stack, and the JSON says why.
awk -v N=40 'BEGIN {
	split("ex_ret_brn_misp ic_cache_fill_l2 ic_cache_fill_sys r785 rd045 r4843", ev, " ")
	split("15 8 30 20 25 100", pen, " ")
	ins = 1000000000
	for (i = 1; i <= N; i++) {
		cyc = 0.4 * ins
		for (k = 1; k <= 6; k++) {
			n[k] = int(ins * (0.0005 + 0.0003 * ((i * (k + 2) * 7 + k * 13) % 17) / 17))
			cyc += pen[k] * n[k]
		}
		t = sprintf("%d.000100000", i)
		printf "%s,%d,,cycles,1000000000,100.00,,\n%s,%d,,instructions,1000000000,100.00,,\n", t, cyc, t, ins
		for (k = 1; k <= 6; k++)
			printf "%s,%d,,%s,1000000000,100.00,,\n", t, n[k], ev[k]
	}
}' >"$TMP/zen3.csv"
"$STACKCTL" analyze --json --model amd64_fam19h_zen3 "$TMP/zen3.csv" >"$TMP/z3.json" 2>"$TMP/z3.err" ||
	fail "zen3 recording: $(cat "$TMP/z3.err")"
grep -q "regression CPI stack (an estimate) over 40 intervals: base 0.400 cycles per instruction; cycles per event: br_misp_retired 15.00 +- 0.00, ic_refill_l2 8.00 +- 0.00, ic_refill_mem 30.00 +- 0.00, itlb_miss 20.00 +- 0.00, dtlb_miss 25.00 +- 0.00, dc_refill_mem 100.00 +- 0.00; R2 1.000 within the run over 30 intervals, held-out error 0.0% of CPI over 10" "$TMP/z3.err" ||
	fail "zen3 fit report: $(cat "$TMP/z3.err")"
[ "$(get "$TMP/z3.json" '.intervals[0].metrics.cpi_base')" = 0.4 ] || fail "zen3 cpi_base"
[ "$(get "$TMP/z3.json" '[.cpi_fit.label, .cpi_fit.fitted, .cpi_fit.rows, .cpi_fit.held_rows, .cpi_fit.processes, .cpi_fit.weights.dc_refill_mem, (.cpi_fit.dropped | length)] | @csv')" = '"regression estimate",true,40,10,1,100,0' ] ||
	fail "zen3 cpi_fit in --json: $(get "$TMP/z3.json" .cpi_fit)"
head -n 192 "$TMP/zen3.csv" >"$TMP/zen3-24.csv"
"$STACKCTL" analyze --json --model amd64_fam19h_zen3 "$TMP/zen3-24.csv" >"$TMP/z24.json" 2>/dev/null ||
	fail "zen3 24 intervals"
[ "$(get "$TMP/z24.json" '[.cpi_fit.fitted, .cpi_fit.rows, .intervals[0].metrics.cpi_base] | @csv')" = 'false,24,' ] ||
	fail "zen3 24 intervals: a stack, or no reason: $(get "$TMP/z24.json" .cpi_fit)"

# perf's combined FP events (newer perf's -M FLOPS): the FLOPs exact from
# .SCALAR/.4_FLOPS/.8_FLOPS, the width and precision split not computed
# and said so; GFLOP/s per CPU second and, as perf's GFLOPs, per wall second.
"$STACKCTL" analyze --json --model icl "$D/flops-combined.csv" >"$TMP/f.json" 2>"$TMP/f.err" ||
	fail "combined FP events"
[ "$(get "$TMP/f.json" '.intervals[0].metrics.flops_per_cycle')" = 0.66 ] ||
	fail "FLOPs from combined events: $(cat "$TMP/f.json")"
[ "$(get "$TMP/f.json" '.intervals[0].metrics.gflops')" = 0.66 ] || fail "gflops per CPU second"
[ "$(get "$TMP/f.json" '.intervals[0].metrics.gflops_wall')" = 1.32 ] || fail "gflops per wall second"
[ "$(get "$TMP/f.json" '.intervals[0].metrics.flops_dp_share')" = null ] ||
	fail "a precision split from combined events"
[ "$(get "$TMP/f.json" '.perf_names.gflops_wall[0]')" = GFLOPs ] || fail "perf's name of gflops_wall"
[ "$(grep -c "count several FP events together" "$TMP/f.err")" = 1 ] || fail "combined not said once"
# Skylake has no 512-bit events: .8_FLOPS (256-bit single + 512-bit double)
# cannot stand for its events and is named unused
"$STACKCTL" analyze --json --model skl "$D/flops-combined.csv" >/dev/null 2>"$TMP/f2.err" ||
	fail "combined FP events on skl"
grep -q "not used: FP_ARITH_INST_RETIRED.8_FLOPS" "$TMP/f2.err" || fail "8_FLOPS on skl: $(cat "$TMP/f2.err")"

# A recording as this host's perf writes it (software events: no PMU here).
if command -v perf >/dev/null && perf stat -x, -o "$TMP/real.csv" -I 100 \
	-e page-faults,cpu-migrations,task-clock,duration_time -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' \
	>/dev/null 2>&1; then
	"$STACKCTL" analyze --json --model software "$TMP/real.csv" >"$TMP/r.json" 2>"$TMP/r.err" ||
		fail "real perf recording: $(cat "$TMP/r.err")"
	[ "$(get "$TMP/r.json" '.intervals | length')" -ge 1 ] || fail "real recording: no interval"
	[ "$(get "$TMP/r.json" '.intervals[0].metrics.page_faults_per_cpu_s | type')" = number ] ||
		fail "real recording: no page fault rate"
else
	skip_check "perf stat cannot run here: no real recording read"
fi

# The recording --perf-command prescribes for the software model, made by
# this host's perf, reads back: the switch rate per CPU second is perf's own
# (its "/sec" beside context-switches is per second of task-clock).
"$STACKCTL" analyze --perf-command --model software >"$TMP/swcmd" || fail "--perf-command software"
# (a workload that surely switches within its one interval: 20 short sleeps)
sed -i "s|stackd-recording.csv|$TMP/sw.csv|; s|COMMAND|sh -c 'for j in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do sleep 0.01; done'|" "$TMP/swcmd"
if command -v perf >/dev/null && sh "$TMP/swcmd" >/dev/null 2>&1; then
	"$STACKCTL" analyze --json --model software "$TMP/sw.csv" >"$TMP/sw.json" 2>"$TMP/sw.err" ||
		fail "the software model's own recording: $(cat "$TMP/sw.err")"
	[ "$(get "$TMP/sw.json" '.intervals[0].metrics.page_faults_per_cpu_s | type')" = number ] ||
		fail "software recording: no page fault rate"
	perf_rate=$(awk -F, '$4 == "context-switches" { v = $7; if ($8 ~ /^K/) v *= 1e3;
		if ($8 ~ /^M/) v *= 1e6; print v; exit }' "$TMP/sw.csv")
	ours=$(get "$TMP/sw.json" '.intervals[0].metrics.switches_per_cpu_s')
	awk -v a="$ours" -v b="$perf_rate" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(b > 0 && d <= 0.002 * b + 0.01) }' ||
		fail "switches per CPU second $ours, perf says $perf_rate"
	note "software model: its --perf-command's recording reads, switches $ours/CPU-s as perf's $perf_rate"
else
	skip_check "perf stat cannot run here: the software model's recording not made"
fi

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
