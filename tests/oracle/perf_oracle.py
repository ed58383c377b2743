#!/usr/bin/env python3
"""perf_oracle.py - `stackctl analyze` against Linux 7.2's own metrics, on
every CPU table issue 29 names.

For each model (a table model such as "graniterapids" or
"alderlake_cpu_atom", or a hand model whose perf table
lib/model/model_hand_tables.c names), from the facts generated from perf's
JSON (tables/perf-7.2-metrics.json):
 1. every core event the table's metrics need (of the model's core type on
    a hybrid) gets a physically possible count
    (table_counts.py), and the counts are written as `perf stat -x,` prints
    them: value,unit,event,run time,running %,metric,metric unit; the event
    as perf echoes it from its command line (INT_MISC.UOP_DROPPING,
    cpu/UOPS_ISSUED.ANY,cmask=1/, cpu_core/TOPDOWN.SLOTS/, topdown-fe-bound);
    once plain and once -I (three intervals);
 2. `stackctl analyze --json --model M` (and `--smt on` where the table has
    #SMT_on formulas) reads it;
 3. perf_metrics.py (evaluate72: Linux 7.2's expr.y, written apart from
    lib/perfdb/metric_expr) evaluates every metric on the same counts,
    with analyze's literals: #SMT_on as passed, #core_wide = not #SMT_on
    (one thread's counts), #slots only where given (--slots), duration_time
    the recording's seconds, "EV:R" the table's retirement latency (what
    perf stat uses without --record-tpebs), has_event() whether the table
    knows the event, strcmp_cpuid_str() perf's arm64 MIDR comparison
    (tools/perf/arch/arm64/util/header.c) for a hand model's CPU id; then
    perf's ScaleUnit (a percentage held as a 0..1 share).
Every metric Python computes to a finite number must be in analyze's
output with that value (1e-9 relative, plus the rounding of analyze's 9
significant digits); a metric Python cannot compute (an event or literal
missing, NaN: perf prints nothing) must not be.

A hybrid's recordings hold its core type's events only, as perf stat
--cputype prints them; --hybrid-both writes both core types' (perf stat -a),
which analyze does not yet read apart (cpu_core/X/ and cpu_atom/X/ are one
name to cli/perfstat.c).

Usage: perf_oracle.py --stackctl PATH [--tables JSON] [--seed S] [--jobs N]
       [--skip MODEL=REASON]... [--hybrid-both] [MODEL...]
(PERF_ORACLE_ALL=1: every disagreement on stderr, not the first 60.)
Exit 0: all agree; 1: a disagreement; 2: usage.
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import perf_metrics  # noqa: E402
import table_counts  # noqa: E402

# Issue 29's CPUs: the models analyze --model takes for them.  Table models
# are named after perf's directory (lib/model/models.c model_table_name),
# a hybrid's per core type.
# Clearwater Forest, Zen 2, Zen 3 and Neoverse N1 get no table model: their
# tables hold no Top-Down, frontend or FLOPS metric to make a family of
# (stackd --list-models); the last three are served by our hand models
# below, with perf's metrics added, and checked as those.
TABLE_MODELS = ["skylakex", "cascadelakex", "icelakex", "sapphirerapids", "emeraldrapids",
                "graniterapids", "sierraforest"]
for _hybrid in ("alderlake", "arrowlake", "lunarlake", "meteorlake"):
    TABLE_MODELS += [_hybrid + "_cpu_core", _hybrid + "_cpu_atom"]
TABLE_MODELS += ["skylake", "icelake", "tigerlake", "amdzen4", "amdzen5",
                 "neoverse-n2-v2", "neoverse-v1", "neoverse-v3", "neoverse-n3", "ampereone"]

# Hand models -> (perf table, CPU id for strcmp_cpuid_str, #slots): the
# tables of lib/model/model_hand_tables.c; the Arm ids are those rows';
# #slots, the PMU's caps/slots (PMMIR_EL1.SLOTS), as tables/arm_neoverse_*.json
# copied it with its source.  Zen 2 and Zen 3 have no table model (perf's
# tables have no metric group for a family), so their hand models stand in.
HAND_MODELS = {
    "skl": ("skylake", None, None, None), "skx": ("skylakex", None, None, None),
    "icl": ("icelake", None, None, None), "icx": ("icelakex", None, None, None),
    "spr": ("sapphirerapids", None, None, None),
    "amd64_fam19h_zen4": ("amdzen4", None, None, None),
    "amd64_fam19h_zen3": ("amdzen3", None, None, None),
    "amd64_fam17h_zen2": ("amdzen2", None, None, None),
    "arm_n1": ("arm/neoverse-n1", None, "0x00000000410fd0c0", None),
    "arm_n2": ("arm/neoverse-n2-v2", None, "0x00000000410fd490", 5),
    "arm_v2": ("arm/neoverse-n2-v2", None, "0x00000000410fd4f0", 8),
    "arm_v1": ("arm/neoverse-v1", None, "0x00000000410fd400", 8),
}
DEFAULT_MODELS = TABLE_MODELS + list(HAND_MODELS)

# Relative agreement: 1e-9, plus half a unit in the 9th significant digit
# analyze prints ("%.9g").
TOLERANCE = 1e-9 + 5e-9


def table_of(model, tables):
    """(table name, core type or None, cpuid, #slots) of a model, or None."""
    if model in HAND_MODELS:
        return HAND_MODELS[model]
    unit = None
    base = model
    for u in ("_cpu_core", "_cpu_atom"):
        if model.endswith(u):
            base, unit = model[:-len(u)], u[1:]
    for name in tables:
        if name.split("/")[-1] == base:
            return name, unit, None, None
    return None


def metric_set(table, unit):
    """{name: metric} of the metrics of core type unit (the JSON's "Unit";
    None: a table without core types).  A hybrid's metrics without a Unit
    (the TSX ones) are left out on both sides: perf's metricgroup.c takes
    them as "default_core", matched against events of any core PMU, which
    is no one core type's figure."""
    return {m["name"]: m for m in table["metrics"] if (m.get("pmu") or None) == unit}


def midr_match(test_id, cpuid):
    """perf's arm64 strcmp_cpuid_str() == 0: the same part, and a variant
    and revision no older than test_id's (tools/perf/arch/arm64/util/header.c:
    variant bits 20-23, revision bits 0-3)."""
    a, b = int(test_id, 16), int(cpuid, 16)
    fields = ~((0xf << 20) | 0xf)
    if a & fields != b & fields:
        return False
    va, ra, vb, rb = (a >> 20) & 0xf, a & 0xf, (b >> 20) & 0xf, b & 0xf
    return vb > va or (vb == va and rb >= ra)


def scale(metric, raw):
    """perf's printed figure as stackd holds it: the value times the
    ScaleUnit's number; a percentage as a 0..1 share."""
    su = metric.get("unit") or ""
    m = re.match(r"\s*([0-9.]+(?:e-?[0-9]+)?)?\s*(.*)", su)
    factor = float(m.group(1)) if m.group(1) else 1.0
    rest = m.group(2)
    if rest.startswith("%") or rest.startswith("percent"):
        return raw * factor / 100.0
    return raw * factor


def python_values(mt, metrics, counts, lits, has, cpuid):
    """{name: finite value, or None where perf prints nothing}."""
    def cpuid_fn(arg):
        if cpuid is None:
            raise perf_metrics.ExprError("no CPU id for strcmp_cpuid_str")
        return midr_match(arg, cpuid)
    out = {}
    for name in metrics:
        try:
            v = mt.evaluate72(name, counts, lits, has_event=has, cpuid_match=cpuid_fn)
        except perf_metrics.ExprError:
            v = None
        if v is not None and math.isfinite(v):
            out[name] = scale(metrics[name], v)
        else:
            out[name] = None
    return out


def agree(a, b):
    return a == b or abs(a - b) <= TOLERANCE * max(abs(a), abs(b))


def compare(what, py, got, bad):
    """One interval: py {name: value|None} against analyze's metrics."""
    n = 0
    for name in sorted(py):
        want = py[name]
        if want is None:
            if name in got:
                bad.append("%s %s: analyze prints %r, perf's formula gives no value on these "
                           "counts" % (what, name, got[name]))
            continue
        n += 1
        if name not in got:
            bad.append("%s %s: missing from analyze's output (perf: %r)" % (what, name, want))
        elif not agree(got[name], want):
            bad.append("%s %s: analyze %r, perf's formula %r" % (what, name, got[name], want))
    return n


class Model:
    """One model's table, metrics and recordings (runs)."""

    def __init__(self, args, doc, name, tmp):
        self.name, self.runs, self.error = name, [], None
        found = table_of(name, doc["tables"])
        if found is None:
            self.error = "%s: no perf table of that name" % name
            return
        self.tname, self.unit, self.cpuid, hand_slots = found
        self.table = dict(doc["tables"][self.tname], _name=self.tname)
        self.metrics = metric_set(self.table, self.unit)
        self.mt = perf_metrics.MetricTable({n: m["expr"] for n, m in self.metrics.items()})
        self.has = {e["name"].lower() for e in self.table["events"]}
        uses = " ".join(m["expr"] for m in self.metrics.values()).lower()
        # SMT off, plain and -I; SMT on (where a formula asks) -I only
        passes = [(False, False), (False, True)] + ([(True, True)] if "#smt_on" in uses else [])
        # #slots: a hand model's fact, else analyze knows none; a table
        # model that needs it is run again with --slots
        slot_runs = [hand_slots]
        if "#slots" in uses and not hand_slots:
            slot_runs.append(table_counts.arm_width(self.table))
        for smt, interval in passes:
            for slots in slot_runs:
                rng = random.Random("%s/%s/%d/%s/%s" % (args.seed, name, smt, slots, interval))
                rec = table_counts.recording(self.table, self.unit, rng, smt, interval,
                                             self.cpuid, hand_slots, args.hybrid_both)
                path = os.path.join(tmp, "%s-%d.csv" % (name, len(self.runs)))
                with open(path, "w") as f:
                    f.write(rec.text)
                cmd = [args.stackctl, "analyze", "--json", "--model", name, "--smt",
                       "on" if smt else "off"] + (["--slots", str(slots)] if slots else [])
                self.runs.append({"smt": smt, "slots": slots, "interval": interval, "rec": rec,
                                  "cmd": cmd + [path]})

    def check(self, bad):
        """Returns (values compared, metrics with a value, metrics of the set)."""
        if self.error:
            bad.append(self.error)
            return 0, 0, 0
        compared, valued = 0, set()
        for run in self.runs:
            out, err = run["out"]
            if err:
                bad.append(err)
                break
            if out.get("perf_table", {}).get("table") != self.tname:
                bad.append("%s: analyze used perf table %r, not %s" %
                           (self.name, out.get("perf_table"), self.tname))
            rec = run["rec"]
            if len(out["intervals"]) != len(rec.vectors):
                bad.append("%s: %d intervals read, %d written" %
                           (self.name, len(out["intervals"]), len(rec.vectors)))
                continue
            smt = run["smt"]
            lits = {"#smt_on": float(smt), "#core_wide": float(not smt), "#has_pmem": 0.0}
            if run["slots"]:
                lits["#slots"] = float(run["slots"])
            for i, (counts, iv) in enumerate(zip(rec.vectors, out["intervals"])):
                py = python_values(self.mt, self.metrics, counts, lits, self.has, self.cpuid)
                what = "%s (smt %s%s, %s interval %d)" % (
                    self.name, "on" if smt else "off",
                    ", slots %s" % run["slots"] if run["slots"] else "",
                    "-I" if run["interval"] else "plain", i)
                compared += compare(what, py, iv["metrics"], bad)
                valued |= {n for n, v in py.items() if v is not None}
        return compared, len(valued), len(self.metrics)


def run_analyze(cmd):
    """(analyze's JSON, None) or (None, what went wrong)."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, "%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-2000:])
    try:
        return json.loads(r.stdout), None
    except ValueError as e:
        return None, "%s: not JSON (%s): %s" % (" ".join(cmd), e, r.stdout[:300])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stackctl", required=True)
    ap.add_argument("--tables", default=os.path.join(HERE, "tables", "perf-7.2-metrics.json"))
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=2, help="analyze runs at once")
    ap.add_argument("--skip", action="append", default=[],
                    help="MODEL=REASON: a model analyze cannot take yet, reported, not failed")
    ap.add_argument("--hybrid-both", action="store_true",
                    help="a hybrid's recordings hold both core types' events (perf stat -a)")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    with open(args.tables) as f:
        doc = json.load(f)
    skips = dict(s.split("=", 1) for s in args.skip)
    bad, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        models = []
        for name in args.models or DEFAULT_MODELS:
            if name in skips:
                print("SKIP: %s: %s" % (name, skips[name]))
            else:
                models.append(Model(args, doc, name, tmp))
        runs = [r for m in models for r in m.runs]
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for run, out in zip(runs, pool.map(run_analyze, [r["cmd"] for r in runs])):
                run["out"] = out
        for m in models:
            before = len(bad)
            n, valued, size = m.check(bad)
            total += n
            print("%-22s %5d values compared, %3d of its %3d perf metrics had one%s" %
                  (m.name, n, valued, size, "" if len(bad) == before else
                   "  (%d disagree)" % (len(bad) - before)))
    if os.environ.get("PERF_ORACLE_ALL"):
        for b in bad:
            print("ALL: " + b, file=sys.stderr)
    for b in bad[:60]:
        print("FAIL: " + b)
    if len(bad) > 60:
        print("FAIL: ... and %d more" % (len(bad) - 60))
    print("%d perf metric values compared, %d disagree" % (total, len(bad)))
    return 1 if bad or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
