#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# stackctl analyze's metrics agree with Linux perf's own formulas: for each
# Intel model perf prints metrics for (PERF_CPUID=... perf list --details
# metric), and Zen 4 and Neoverse from the kernel's JSON tables in
# tests/oracle/tables, SMT off and on, constructed count vectors go through both
# (tests/oracle/oracle.py); a stackd metric the same as a perf metric must
# agree to 1e-9, and other spellings of the events must give the same
# metrics.  No root, no daemon.
. "$(dirname "$0")/lib.sh"
ORACLE=$(cd "$(dirname "$0")/../oracle" && pwd)

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed: the oracle is a Python script"
# Zen 4 and Arm come from the kernel's JSON kept in tests/oracle/tables:
# checked whether or not this host's perf can print the Intel tables
MODELS=
if ! command -v perf >/dev/null 2>&1; then
	skip_check "perf is not installed (linux-perf): the Intel models are not checked"
	MODELS="amd64_fam19h_zen4 arm_n2 arm_v1 arm_v2"
elif ! PERF_CPUID=GenuineIntel-6-5E-3 perf list --details metric 2>/dev/null |
	grep -q '^  tma_frontend_bound$'; then
	skip_check "this perf prints no Skylake metrics for PERF_CPUID: the Intel models are not checked"
	MODELS="amd64_fam19h_zen4 arm_n2 arm_v1 arm_v2"
fi
# shellcheck disable=SC2086
python3 "$ORACLE/oracle.py" --stackctl "$STACKCTL" $MODELS || fail "stackd disagrees with perf (above)"
exit 0
