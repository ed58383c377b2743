#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# stackctl analyze reads perf stat's output as people have it, with no
# option: every file of tests/data/perfstat/ (perf's default text, -x, CSV
# with metric rows and metric-group headers, -j JSON; -I, -A, --per-core,
# -r; Skylake, Ice Lake, Sapphire Rapids, Alder Lake hybrid, Zen 4 and
# Neoverse N2 `perf stat -M TopdownL1` pastes written in perf's formats
# with figures from perf 7.2's formulas, and this VM's own perf recordings
# of software events).  For each, the model is chosen from the file, and
# every figure perf printed that we compare agrees with ours; hybrids come
# out in one section per core type.  Then: a line that is not perf's is
# skipped, counted and (-v) listed; a malformed count names its line.
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data/perfstat" && pwd)

# file, expected model(s), least figures that must agree
while read -r f models least; do
	"$STACKCTL" analyze --json "$D/$f" >"$TMP/o.json" 2>"$TMP/o.err" ||
		fail "$f: $(cat "$TMP/o.err")"
	got=$(jq -r '[.sections // [.] | .[] | .model] | join(",")' "$TMP/o.json")
	[ "$got" = "$models" ] || fail "$f: model $got, want $models"
	dis=$(jq '[.sections // [.] | .[] | .perf_printed.disagree] | add' "$TMP/o.json")
	agree=$(jq '[.sections // [.] | .[] | .perf_printed.agree] | add' "$TMP/o.json")
	[ "$dis" = 0 ] || fail "$f: $dis of perf's figures disagree: $(jq -c '.. | objects | select(.agree == false)' "$TMP/o.json")"
	[ "$agree" -ge "$least" ] || fail "$f: $agree of perf's figures agree, want $least"
done <<EOF
skl-topdownl1.txt skl 5
icl-topdownl1.txt icl 4
spr-topdownl1-interval.csv spr 8
adl-hybrid-topdownl1.txt alderlake_cpu_core,alderlake_cpu_atom 10
zen4-pipelinel1.json amd64_fam19h_zen4 5
n2-topdownl1.txt arm_n2 4
default-hybrid-perf6.5.csv alderlake_cpu_core,alderlake_cpu_atom 8
icl-default-perf6.1.txt icl 13
spr-default-perf6.1.txt spr 21
sw-plain.txt software 3
sw-plain.csv software 2
sw-plain.json software 2
sw-interval.txt software 12
sw-interval.json software 9
sw-interval-percpu.csv software 0
sw-percore.txt software 0
sw-repeat.txt software 3
EOF
n=$(ls "$D" | grep -cv -e README -e "\.py$")
[ "$n" = 17 ] || fail "tests/data/perfstat has $n files, the list above 17"

# the hybrid's E-core counts are not added into the P-core's (perf: IPC
# 0.69 on cpu_core, 0.24 on cpu_atom)
"$STACKCTL" analyze --json "$D/adl-hybrid-topdownl1.txt" 2>/dev/null >"$TMP/h.json"
[ "$(jq -r '.sections[0].pmu + " " + (.sections[0].perf_printed.figures[] | select(.metric == "insn per cycle") | .ours * 100 | round | tostring)' "$TMP/h.json")" = "cpu_core 69" ] ||
	fail "cpu_core IPC"
[ "$(jq -r '.sections[1].pmu + " " + (.sections[1].perf_printed.figures[] | select(.metric == "insn per cycle") | .ours * 100 | round | tostring)' "$TMP/h.json")" = "cpu_atom 24" ] ||
	fail "cpu_atom IPC"
"$STACKCTL" analyze "$D/adl-hybrid-topdownl1.txt" 2>/dev/null | grep -c "^cpu_.* events:$" | grep -qx 2 ||
	fail "no section per core type"

# Ice Lake and Sapphire Rapids record the same perf-metrics events: the
# figures perf printed say which (Ice Lake's backend adds 5 x CLEARS_COUNT)
"$STACKCTL" analyze "$D/spr-topdownl1-interval.csv" 2>&1 >/dev/null |
	grep -q "model spr (guessed from the events; also fit: icl (fewer of perf's figures agree)" ||
	fail "spr not told from icl by perf's figures"

# perf 5.10-6.2's default perf stat records no INT_MISC.UOP_DROPPING or
# CLEARS_COUNT, which perf 7.2's frontend (Ice Lake: and backend) need:
# those nodes come from its built-in Top-Down, labelled (the files' figures,
# make-perf61-default.py: fe 5331703680 and fetch-lat 3186765418 of the
# level-1 sum 15627407338)
"$STACKCTL" analyze --json "$D/spr-default-perf6.1.txt" 2>/dev/null >"$TMP/t.json"
[ "$(jq -r '[.intervals[0].metrics | .frontend_bound, .fetch_bandwidth | . * 1e4 | round] | join(" ")' "$TMP/t.json")" = "3412 1373" ] &&
	jq -r .formulas.frontend_bound "$TMP/t.json" | grep -qx "perf 5.10-6.2's built-in Top-Down: the recording has no INT_MISC.UOP_DROPPING" ||
	fail "no built-in frontend: $(jq -c .formulas "$TMP/t.json")"
"$STACKCTL" analyze "$D/icl-default-perf6.1.txt" 2>/dev/null |
	grep -q "^backend_bound  *29.8%  (perf 5.10-6.2's built-in Top-Down: the recording has no INT_MISC.CLEARS_COUNT)$" ||
	fail "no built-in backend for Ice Lake"

# SMT from the events: a *_ANY event means perf's SMT formulas
sed 's/INT_MISC.RECOVERY_CYCLES /INT_MISC.RECOVERY_CYCLES_ANY/' "$D/skl-topdownl1.txt" |
	"$STACKCTL" analyze - 2>&1 >/dev/null | grep -q "SMT taken as on: the recording has INT_MISC.RECOVERY_CYCLES_ANY" ||
	fail "SMT not inferred"

# a stray line is skipped, counted, listed with -v; a bad count names its line
{ cat "$D/sw-plain.txt"; echo "hello from a mail signature"; } >"$TMP/s.txt"
"$STACKCTL" analyze "$TMP/s.txt" >/dev/null 2>"$TMP/s.err" || fail "stray line refused"
grep -q "1 line skipped (not perf stat's counts); -v lists them" "$TMP/s.err" || fail "skip not counted"
"$STACKCTL" analyze -v "$TMP/s.txt" 2>&1 >/dev/null | grep -q "line 16: no count before 'hello'" ||
	fail "skip not listed with -v"
{ cat "$D/sw-plain.txt"; echo "     <not known>      cycles"; } >"$TMP/b.txt"
rc=0
"$STACKCTL" analyze "$TMP/b.txt" >/dev/null 2>"$TMP/b.err" || rc=$?
[ "$rc" = 2 ] && grep -q "b.txt: line 16: '<not' is not a count" "$TMP/b.err" ||
	fail "bad count: $rc $(cat "$TMP/b.err")"
exit 0
