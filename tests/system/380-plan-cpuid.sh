#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# stackd --plan --cpuid ID plans, for CPUs libpfm4 4.13 has no tables for,
# the model made from that CPU's table in Linux perf (issue 29), and collects
# its Top-Down level 1: Granite Rapids, Sierra Forest, an Alder Lake hybrid
# (one plan per core type), Zen 5 and Neoverse V3, each with SMT and the NMI
# watchdog off and on.  A VM without a PMU (--host, a fixture) plans the
# software model; --list-models lists our models, the generic ones and the
# tables'.  The ids are perf's PERF_CPUID spelling; the tables they map to
# are rows of tools/perf/pmu-events/arch/{x86,arm64}/mapfile.csv (Linux
# 7.2.12): 6-A[DE] graniterapids, 6-AF sierraforest, 6-(97|9A|B7|BA|BF)
# alderlake, AuthenticAMD-26-([12467][[:xdigit:]]|[[:xdigit:]]) amdzen5,
# 0x00000000410fd830 arm/neoverse-v3 (0x...d840, the part the kernel's
# cputype.h names NEOVERSE_V3, takes the same table: lib/model/model_cpu.c).
# Issue 30: the default families keep Top-Down level 1 counting at least
# half the time on Skylake (SMT and watchdog on) and Zen 4 (watchdog on),
# with no group of cycles and instructions alone; --counters, --reserved
# and --vpmu no-perf-metrics describe a cloud guest, and --host reads the
# budget of an AMD guest with 4 legacy counters and of an Arm host whose
# watchdog is the buddy detector (no counter held).
. "$(dirname "$0")/lib.sh"
HOSTS=$(cd "$(dirname "$0")/../data/hosts" && pwd)

# check FILE WANT: the plan(s) in FILE are for the models WANT names (a
# hybrid's comma-separated, cpu_core first) and each collects td_l1 (none
# for "software", which has no Top-Down).
check() {
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
want = sys.argv[2].split(",")
if isinstance(doc, list):
    units = [d["core_type"] for d in doc]
    if units != ["cpu_core", "cpu_atom"][:len(doc)]:
        sys.exit("core types %s" % units)
    plans = [d["plan"] for d in doc]
else:
    plans = [doc]
got = [p["model"] for p in plans]
if got != want:
    sys.exit("models %s, want %s" % (got, want))
for p in plans:
    if p["model"] == "software":
        continue
    td = [f for f in p["families"] if f["name"] == "td_l1"]
    if not td or not td[0]["collected"]:
        sys.exit("%s: td_l1 not collected: %s" % (p["model"], td))
    if not any(g["family"] == "td_l1" for g in p["groups"]):
        sys.exit("%s: no td_l1 group" % p["model"])
' "$1" "$2"
}

# plan ARGS... > $TMP/p.json, bounded; the failure says which
plan() {
	timeout 60 "$STACKD" --plan --json "$@" >"$TMP/p.json" 2>"$TMP/p.err" ||
		{ cat "$TMP/p.err"; fail "stackd --plan $*"; }
}

for row in GenuineIntel-6-AD-1:graniterapids GenuineIntel-6-AF-3:sierraforest \
	GenuineIntel-6-97-2:alderlake_cpu_core,alderlake_cpu_atom \
	AuthenticAMD-26-2-0:amdzen5 0x00000000410fd830:neoverse-v3 0x00000000410fd840:neoverse-v3; do
	id=${row%%:*}
	want=${row#*:}
	for state in "off off" "on on"; do
		set -- $state
		plan --cpuid "$id" --smt "$1" --nmi-watchdog "$2"
		check "$TMP/p.json" "$want" || fail "--cpuid $id, SMT $1, watchdog $2"
	done
	note "--cpuid $id: $want, td_l1 collected"
done

plan --host "$HOSTS/vm-nopmu"
check "$TMP/p.json" software || fail "--host vm-nopmu"

# --list-models: ours, the generic ones, and one per table and core type
timeout 60 "$STACKD" --list-models >"$TMP/models.txt" 2>"$TMP/models.err" ||
	{ cat "$TMP/models.err"; fail "--list-models"; }
for want in "skl	" "arm_v2	" "generic_td	" "made from Linux perf 7.2.12's tables:" \
	"graniterapids	families: td_l1" "sierraforest	families: td_l1" \
	"alderlake_cpu_core	families: td_l1" "alderlake_cpu_atom	families: td_l1" \
	"amdzen5	families: td_l1" "neoverse-v3	families: td_l1"; do
	grep -q "^$want" "$TMP/models.txt" || fail "--list-models has no line starting '$want'"
done
# a listed table model is one --model takes
plan --model sierraforest --smt on --nmi-watchdog on
check "$TMP/p.json" sierraforest || fail "--model sierraforest"
# budget FILE EXPR...: each python EXPR over the plan p (budget b, families
# by name fam) holds
budget() {
	f=$1
	shift
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
b = p["budget"]
fam = {f["name"]: f for f in p["families"]}
for e in sys.argv[2:]:
    if not eval(e):
        sys.exit("not %s: budget %s, families %s" % (e, b, [(f["name"], f["collected"], f["share"], f["why"]) for f in p["families"]]))
' "$f" "$@"
}
TRIVIAL='all(set(g["events"]) - {"cycles", "instructions"} for g in p["groups"])'

plan --cpuid GenuineIntel-6-5E-3 --smt on --nmi-watchdog on
budget "$TMP/p.json" 'p["model"] == "skl"' 'b["families_auto"]' \
	'fam["td_l1"]["share"] >= 0.5' 'fam["td_l1"]["split"]' "$TRIVIAL" ||
	fail "Skylake, SMT and watchdog on"
plan --cpuid AuthenticAMD-25-11-1 --smt on --nmi-watchdog on
budget "$TMP/p.json" 'fam["td_l1"]["share"] >= 0.5' "$TRIVIAL" ||
	fail "Zen 4, watchdog on"
note "default families: Top-Down L1 >= 50% of the time on Skylake and Zen 4 with the watchdog"

# a guest with 4 counters, 1 kept for perf stat (the watchdog off: with it,
# 2 are left and Zen 4's pair dispatched_ops+retired_ops cannot fit with cycles)
plan --cpuid AuthenticAMD-25-11-1 --nmi-watchdog off --counters 4 --reserved 1
budget "$TMP/p.json" 'b["general_counters"] == 4' 'b["held_by_others"] == 1' \
	'b["general_free"] == 3' 'all(g["general_counters"] <= 3 for g in p["groups"])' \
	'fam["td_l1"]["collected"]' "$TRIVIAL" || fail "--counters 4 --reserved 1"
timeout 60 "$STACKD" --plan --cpuid AuthenticAMD-25-11-1 --counters 4 --reserved 1 \
	>"$TMP/p.txt" 2>&1 || fail "--plan text"
grep -q "td_l1 .*counted .*% of the time" "$TMP/p.txt" || fail "no share in the text plan"
grep -q "not collected: not in the default families" "$TMP/p.txt" ||
	fail "the text plan does not say what auto left out"

# no perf metrics: Ice Lake-SP's Top-Down family drops with the reason, the rest counts
plan --cpuid GenuineIntel-6-6A-6 --vpmu no-perf-metrics
budget "$TMP/p.json" 'p["model"] == "icx"' 'not b["perf_metrics"]' \
	'not fam["td_l2"]["collected"]' '"perf metrics" in fam["td_l2"]["why"]' \
	'any(f["collected"] for f in p["families"])' || fail "--vpmu no-perf-metrics"
note "--counters, --reserved, --vpmu no-perf-metrics"

plan --host "$HOSTS/zen4-guest"
budget "$TMP/p.json" 'b["general_counters"] == 4' 'b["nmi_watchdog"]' \
	'b["general_free"] <= 3' '"perfctr_core" in b["general_counters_from"]' ||
	fail "--host zen4-guest"
plan --host "$HOSTS/neoverse-n2-buddy"
budget "$TMP/p.json" 'not b["nmi_watchdog"]' '"buddy" in b["nmi_watchdog_from"]' \
	'b["cycles_on_fixed_counter"]' || fail "--host neoverse-n2-buddy"
note "--host: an AMD guest's 4 legacy counters, an Arm host's buddy watchdog"
exit 0
