#!/bin/sh
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
exit 0
