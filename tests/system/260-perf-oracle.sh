#!/bin/sh
# stackctl analyze's metrics agree with Linux perf's own formulas: for each
# Intel model perf prints metrics for (PERF_CPUID=... perf list --details
# metric), SMT off and on, constructed count vectors go through both
# (tests/oracle/oracle.py); a stackd metric the same as a perf metric must
# agree to 1e-9, and other spellings of the events must give the same
# metrics.  No root, no daemon.
. "$(dirname "$0")/lib.sh"
ORACLE=$(cd "$(dirname "$0")/../oracle" && pwd)

command -v perf >/dev/null 2>&1 || skip "perf is not installed (linux-perf): no formulas to check against"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed: the oracle is a Python script"
PERF_CPUID=GenuineIntel-6-5E-3 perf list --details metric 2>/dev/null | grep -q '^  tma_frontend_bound$' ||
	skip "this perf prints no Skylake metrics for PERF_CPUID (perf older than 6.1?)"

python3 "$ORACLE/oracle.py" --stackctl "$STACKCTL" || fail "stackd disagrees with perf (above)"
exit 0
