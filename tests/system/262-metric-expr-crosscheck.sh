#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# The C evaluator of perf's metric expressions (lib/perfdb/metric_expr) and
# the separate Python one (tests/oracle/perf_metrics.py, evaluate72) give
# the same value, to 1e-9, for every metric of every CPU table generated
# from Linux 7.2's JSON (tests/oracle/tables/perf-7.2-metrics.json), on
# constructed plausible counts, SMT off and on (tests/oracle/expr_crosscheck.py).
# No root, no daemon, a few seconds.
. "$(dirname "$0")/lib.sh"
ORACLE=$(cd "$(dirname "$0")/../oracle" && pwd)

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed: the oracle is a Python script"
[ -x "$HELPERS/metric_eval" ] || fail "$HELPERS/metric_eval is not built (make $HELPERS/metric_eval)"
python3 "$ORACLE/expr_crosscheck.py" "$HELPERS/metric_eval" --vectors 6 ||
	fail "the two evaluators disagree (above)"
exit 0
