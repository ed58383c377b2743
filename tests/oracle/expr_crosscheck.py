#!/usr/bin/env python3
"""expr_crosscheck.py - lib/perfdb/metric_expr (C) against perf_metrics.py
(Python), two evaluators of Linux 7.2's metric expressions written apart:
every metric (MetricExpr and MetricThreshold) of every table in
tables/perf-7.2-metrics.json (generated with lib/perfdb/perf_tables.c from
perf's JSON), on pseudo-random physically
plausible counts, must get the same value in both, to 1e-9 relative (NaN
and infinities alike; "no value" where perf drops the expression; "missing"
where a name has no count).

The C side is build/helpers/metric_eval (tests/helpers/metric_eval.c), fed
every table's metrics and counts on one pipe.  Hybrid tables are checked
per PMU: a metric refers to the metrics of its own PMU, as perf's
metricgroup.c resolves them.

Usage: expr_crosscheck.py HELPER [--tables JSON] [--vectors N] [--seed S]
Exit 0 when all agree (prints how many values were compared), 1 otherwise.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import perf_metrics  # noqa: E402

CLOCKS = ("cpu_clk_unhalted.thread", "cpu_clk_unhalted.thread_p", "cpu_clk_unhalted.core",
          "cpu_clk_unhalted.core_p", "cycles", "cpu_cycles", "ls_not_halted_cyc",
          "msr/aperf/")
REF_CLOCKS = ("cpu_clk_unhalted.ref_tsc", "cpu_clk_unhalted.ref_tsc_p", "msr/tsc/",
              "msr/mperf/", "cpu_clk_unhalted.ref_xclk")
INSTRUCTIONS = ("inst_retired.any", "inst_retired.any_p", "instructions", "inst_retired",
                "ex_ret_instr")
SLOTS = ("topdown.slots", "topdown.slots_p", "slots")


def canonical(name):
    """metric_expr.h's canonical form of a name perf_metrics has unescaped:
    the first and the last '@' written '/'."""
    first, last = name.find("@"), name.rfind("@")
    if first < 0:
        return name
    chars = list(name)
    chars[first] = chars[last] = "/"
    return "".join(chars)


def event_of(name):
    """The event inside a pmu/EVENT,term=v/ spelling, lower case."""
    k = name.lower()
    if "/" in k and not k.startswith("msr/"):
        k = k.split("/")[1].split(",")[0]
    return k.split(":")[0]


def vector(names, rng):
    """Counts for names: integers >= 0 (duration_time in seconds); clocks,
    instructions and slots consistent with each other, every other event
    at most the cycles, some 0 now and then (a division by zero)."""
    cycles = float(int(rng.uniform(1e8, 4e9)))
    width = rng.choice((4, 5, 6, 8))
    v = {}
    for n in names:
        k = event_of(n)
        if k == "duration_time":
            v[n] = rng.uniform(0.1, 10.0)
        elif k in SLOTS:
            v[n] = width * cycles
        elif k.startswith("topdown-"):
            v[n] = float(int(width * cycles * rng.uniform(0.0, 0.5)))
        elif k in CLOCKS:
            v[n] = cycles
        elif k in REF_CLOCKS:
            v[n] = float(int(cycles * rng.uniform(0.8, 1.2)))
        elif k in INSTRUCTIONS:
            v[n] = float(int(cycles * rng.uniform(0.2, 3.5)))
        elif rng.random() < 0.03:
            v[n] = 0.0
        else:
            v[n] = float(int(cycles * rng.random() * 10 ** -rng.uniform(0, 3)))
    return v


def literals(rng, smt_on):
    return {"smt_on": float(smt_on), "core_wide": float(rng.random() < 0.5),
            "num_cpus": 64.0, "num_cpus_online": 64.0, "num_cores": 32.0 if smt_on else 64.0,
            "num_dies": 2.0, "num_packages": 2.0, "slots": float(rng.choice((4, 5, 8))),
            "system_tsc_freq": 2.1e9, "has_pmem": float(rng.random() < 0.5),
            "target_cpu": float(rng.random() < 0.5)}


def groups(table):
    """{pmu: {name: expr}}: each PMU's metrics and the PMU-less ones, and
    each MetricThreshold as a metric "NAME#threshold" ('#' is in no name)."""
    out = {}
    pmus = sorted({m.get("pmu") or "" for m in table["metrics"]})
    for pmu in pmus:
        exprs = {}
        for m in table["metrics"]:
            if (m.get("pmu") or "") in ("", pmu):
                exprs[m["name"]] = m["expr"]
                if m.get("threshold"):
                    exprs[m["name"] + "#threshold"] = m["threshold"]
        out[pmu] = exprs
    return out


def c_value(line):
    """The helper's answer: a float, None (no value), "missing", or an error."""
    if line == "ENOENT":
        return "missing"
    if line.startswith("ERR 33 "):      # EDOM: perf drops the expression
        return None
    if line.startswith("ERR"):
        return "error: " + line
    return float(line)


def agree(a, b):
    if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def plan_group(tname, table, pmu, exprs, args, cmds, checks):
    """Commands for one table's PMU group; checks gets (what, python value)."""
    mt = perf_metrics.MetricTable(exprs)
    names = set()
    for m in sorted(exprs):
        try:
            names |= mt.events(m)
        except perf_metrics.ExprError as e:
            checks.append(("%s %s: python cannot parse: %s" % (tname, m, e), "unparsed"))
            return
    for n in list(names):
        if n.startswith(("source_count(", "aggr_nr(")):
            names.add(n[n.index("(") + 1:-1])
    has = sorted({e["name"].lower() for e in table["events"]})
    cmds.append("reset")
    checks.append((None, None))
    for m in sorted(exprs):
        cmds.append("def\t%s\t%s" % (m, exprs[m]))
        checks.append((None, None))
    cmds.append("has\t" + "\t".join(has))
    checks.append((None, None))
    for i in range(args.vectors):
        rng = random.Random("%s/%s/%d/%s" % (tname, pmu, i, args.seed))
        smt_on = i % 2 == 1
        # one count per event however it is spelled (Arm writes STALL_SLOT
        # and stall_slot): perf opens the same event for both
        lower = vector(sorted({n.lower() for n in names}), rng)
        counts = {n: lower[n.lower()] for n in names}
        for n in names:
            if n.startswith(("source_count(", "aggr_nr(")):
                counts[n] = 1.0
        lits = literals(rng, smt_on)
        cpuid = rng.random() < 0.5
        cmds.append("lit\t" + "\t".join("%s=%r" % kv for kv in sorted(lits.items())))
        cmds.append("cpuid\t%d" % cpuid)
        cmds.append("counts\t" + "\t".join(
            "%s=%r" % (canonical(n), v) for n, v in sorted(counts.items())
            if not n.startswith(("source_count(", "aggr_nr("))))
        checks += [(None, None)] * 3
        plits = {"#" + k: v for k, v in lits.items()}
        for m in sorted(exprs):
            try:
                want = mt.evaluate72(m, counts, plits, has_event=set(has), cpuid_match=cpuid)
            except perf_metrics.ExprError:
                want = "missing"
            cmds.append("eval\t%s" % m)
            checks.append(("%s%s %s (vector %d)" % (tname, "/" + pmu if pmu else "", m, i),
                           want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("helper")
    ap.add_argument("--tables", default=os.path.join(HERE, "tables", "perf-7.2-metrics.json"))
    ap.add_argument("--vectors", type=int, default=4)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args()
    with open(args.tables) as f:
        doc = json.load(f)
    cmds, checks = [], []
    for tname, table in sorted(doc["tables"].items()):
        for pmu, exprs in sorted(groups(table).items()):
            plan_group(tname, table, pmu, exprs, args, cmds, checks)
    bad = [what for what, want in checks if want == "unparsed"]
    checks = [c for c in checks if c[1] != "unparsed"]
    out = subprocess.run([args.helper], input="\n".join(cmds) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(checks):
        print("FAIL: %d answers for %d commands" % (len(out), len(checks)))
        return 1
    compared, kinds = 0, {"nan": 0, "none": 0, "missing": 0}
    for (what, want), line in zip(checks, out):
        if what is None:
            if line != "ok":
                bad.append("helper: %s" % line)
            continue
        got = c_value(line)
        compared += 1
        if want is None:
            kinds["none"] += 1
        elif want == "missing":
            kinds["missing"] += 1
        elif math.isnan(want):
            kinds["nan"] += 1
        if not agree(got, want):
            bad.append("%s: C %r, Python %r" % (what, got, want))
    for b in bad[:30]:
        print("FAIL: " + b)
    print("%d metric and threshold values compared over %d tables (%d NaN, %d dropped, %d missing), "
          "%d disagree" % (compared, len(doc["tables"]), kinds["nan"], kinds["none"],
                           kinds["missing"], len(bad)))
    return 1 if bad or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
