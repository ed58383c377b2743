#!/usr/bin/env python3
"""oracle.py - stackd's metrics against Linux perf's own formulas.

For each Intel model and SMT off/on: constructed count vectors (counts.py)
are written as a `perf stat -x,` recording, run through `stackctl analyze
--json --model M --smt on|off`, and every stackd metric that is the same
quantity as a perf metric (MAPPING) is compared with that perf metric
evaluated on the same counts (perf_metrics.py, from the local `perf list
--details metric`).  A stackd metric analyze does not print is reported
"not yet produced"; a printed one that differs fails.  One vector per model
is also written with its lines reversed, and with other spellings (perf
-M's, libpfm4's): analyze must give the same metrics.

Exit 0: all agree; 1: a disagreement or a spelling not matched; 2: usage.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counts  # noqa: E402
import perf_metrics  # noqa: E402

# stackd model -> the CPUID perf 6.1 takes its tables for (DESIGN.md sec. 8)
MODELS = {
    "skl": "GenuineIntel-6-5E-3", "skx": "GenuineIntel-6-55-4",
    "icl": "GenuineIntel-6-7E-5", "icx": "GenuineIntel-6-6A-6",
    "spr": "GenuineIntel-6-8F-8",
}
# TODO(zen4, arm_*): perf 6.1 prints no metrics for AMD Zen 4 or Arm
# Neoverse here (no PERF_CPUID table with them); they are not checked.

# ---------------------------------------------------------------------------
# MAPPING: stackd metric -> perf metric that is the SAME quantity.  (A later
# change may move the perf names into the models themselves.)  Both sides
# are fractions: perf's tma_* expressions are fractions (perf stat shows
# them x100 through the JSON ScaleUnit, which the expression does not hold).
# Entry: (stackd name, perf name, models it holds for, or None for all).
# ---------------------------------------------------------------------------
MAPPING = [
    ("frontend_bound", "tma_frontend_bound", None),
    ("bad_speculation", "tma_bad_speculation", None),
    ("backend_bound", "tma_backend_bound", None),
    ("retiring", "tma_retiring", None),
    ("fetch_latency", "tma_fetch_latency", None),
    ("fetch_bandwidth", "tma_fetch_bandwidth", None),
    ("branch_mispredicts", "tma_branch_mispredicts", None),
    ("machine_clears", "tma_machine_clears", None),
    ("memory_bound", "tma_memory_bound", None),
    ("core_bound", "tma_core_bound", None),
    ("light_ops", "tma_light_operations", None),
    ("heavy_ops", "tma_heavy_operations", None),
    ("ipc", "IPC", None),
    ("cpi", "CPI", None),
    # perf 6.1's icx and spr DSB_Coverage leave the LSD's uops out of the
    # sum (DSB / (DSB + MITE + MS)); stackd's dsb_coverage is the DSB's
    # share of all delivered uops, the LSD's included, as perf's icl has
    # it: the same quantity on skl/skx (no LSD) and icl only.
    ("dsb_coverage", "DSB_Coverage", ("skl", "skx", "icl")),
    # FLOPs per cycle: both count an FMA twice and weigh each width by its
    # lanes; perf divides by CORE_CLKS (the core's clocks this thread had)
    ("flops_per_cycle", "FLOPc", None),
    # GFLOP/s per wall second (duration_time), as perf's GFLOPs: analyze's
    # gflops_wall.  (stackd's gflops is per second of the task's CPU time;
    # the recordings run two threads' worth of CPU time in the wall time,
    # so the two differ and only gflops_wall may be perf's.)
    ("gflops_wall", "GFLOPs", None),
    ("itlb_stall_fraction", "tma_itlb_misses", None),
    ("dsb_switch_fraction", "tma_dsb_switches", None),
    # Skylake's tma_icache_misses adds 2 x the miss episodes (cpu@ICACHE_16B.
    # IFDATA_STALL,cmask=1,edge@) to the stall cycles: another quantity
    # than stackd's icache_stall_fraction (stall cycles / cycles) there.
    ("icache_stall_fraction", "tma_icache_misses", ("icl", "icx", "spr")),
    # Level-3 frontend nodes named as perf's without tma_ (being added):
    # checked once analyze prints them.
    ("icache_misses", "tma_icache_misses", None),
    ("itlb_misses", "tma_itlb_misses", None),
    ("branch_resteers", "tma_branch_resteers", None),
    ("ms_switches", "tma_ms_switches", None),
    ("dsb_switches", "tma_dsb_switches", None),
    ("lcp", "tma_lcp", None),
    ("mite", "tma_mite", None),
    ("dsb", "tma_dsb", None),
    ("lsd", "tma_lsd", None),
]
# Not mapped, not the same quantity as any perf 6.1 metric: mite_share,
# ms_share, lsd_share (perf has DSB_Coverage only); dsb_p_only/overall,
# mite_p_only/overall (the thesis's throughputs); flop_peak_fraction and
# the FLOPS stack (perf's FP_Arith_Utilization is FP instructions per port
# cycle, not FLOPs over the core's peak); flops_*_share; the multi-stage
# frontend/backend_bound_low/high ranges (no perf metric).

# perf 6.1's Ice Lake-SP tma_lsd alone carries its percent in the
# expression (100 * (...)): scaled back to a fraction.
SCALE = {("icx", "tma_lsd"): 0.01}

# ---------------------------------------------------------------------------
# ALIASES: one physical count under two spellings.  Every name (perf's,
# unescaped, and stackd's) maps to the key its count has in the vector.
# ---------------------------------------------------------------------------
ALIASES = {
    # the fixed counters: perf's generic cycles/instructions on Intel
    "CPU_CLK_UNHALTED.THREAD": "cycles",
    "CPU_CLK_UNHALTED.THREAD_P": "cycles",
    "INST_RETIRED.ANY": "instructions",
    "INST_RETIRED.ANY_P": "instructions",
    # the slots fixed counter (the perf-metrics leader)
    "TOPDOWN.SLOTS": "slots",
    # INT_MISC.CLEARS_COUNT is event 0x0d umask 0x01 cmask 1 edge: the
    # recovery periods, which perf's Ice Lake formulas spell raw
    "cpu@INT_MISC.RECOVERY_CYCLES,cmask=1,edge@": "INT_MISC.CLEARS_COUNT",
    # Skylake's ICACHE_16B.IFDATA_STALL is event 0x80 umask 0x04: stackd
    # records its miss episodes (cmask 1, edge) in raw terms
    "cpu/event=0x80,umask=0x4,cmask=1,edge/": "cpu@ICACHE_16B.IFDATA_STALL,cmask=1,edge@",
    # Ice Lake's UOPS_DECODED.DEC0 is event 0x56 umask 0x01: its cycles
    # (cmask 1), likewise in raw terms
    "cpu/event=0x56,umask=0x1,cmask=1/": "cpu@UOPS_DECODED.DEC0,cmask=1@",
}


def key(name):
    name = perf_metrics.unescape(name)
    return ALIASES.get(name, name)


def stackd_events(stackctl, model):
    """perf event spellings of stackd's groups, in its order, once each."""
    out = subprocess.run([stackctl, "analyze", "--perf-command", "--model", model],
                         capture_output=True, text=True, check=True).stdout
    names = []
    for group in re.findall(r"-e '\{([^}]*)\}'", out):
        for n in split_events(group):
            if n not in names:
                names.append(n)
    return names


def split_events(group):
    """perf's event list: commas inside pmu/.../ terms do not split."""
    names, cur, inside = [], "", False
    for ch in group:
        if ch == "," and not inside:
            names.append(cur)
            cur = ""
            continue
        if ch == "/":
            inside = not inside
        cur += ch
    names.append(cur)
    return names


def printed(name):
    """An event as perf stat prints it: cpu@X\\,cmask\\=1@ -> cpu/X,cmask=1/."""
    name = perf_metrics.unescape(name)
    m = re.match(r"^(\w+)@(.*)@$", name)
    return "%s/%s/" % (m.group(1), m.group(2)) if m else name


# Other spellings of one event, as tools print them
PERF_M = {  # perf stat -M prints the formula's names
    "cycles": "CPU_CLK_UNHALTED.THREAD", "instructions": "INST_RETIRED.ANY",
    "slots": "TOPDOWN.SLOTS",
    "INT_MISC.CLEARS_COUNT": "cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/",
}


def perf_m_spelling(name):
    """perf -M's name, with the :u perf adds when it may count user space only."""
    n = PERF_M.get(name, printed(name))
    return n + "u" if n.endswith("/") else n + ":u"


def libpfm_spelling(name):
    """libpfm4's EVENT:UMASK[:c=N:e=1] (perf built with libpfm4, --pfm-events)."""
    fixed = {"cycles": "CPU_CLK_UNHALTED:THREAD_P", "instructions": "INST_RETIRED:ANY_P",
             "slots": "TOPDOWN:SLOTS", "INT_MISC.CLEARS_COUNT": "INT_MISC:RECOVERY_CYCLES:c=1:e=1"}
    if name in fixed:
        return fixed[name]
    if "." not in name or name.startswith("topdown-"):
        return name
    m = re.match(r"^(\w+)@([^,]*)((?:,.*)?)@$", name)
    terms = ""
    if m:
        name = m.group(2)
        terms = "".join(":c=" + t.split("=")[1] if t.startswith("cmask") else ":e=1"
                        for t in m.group(3).split(",")[1:])
    return name.replace(".", ":", 1) + terms


def wall_ns(vec):
    """The run's wall time: two threads' CPU time in half the time."""
    return int(round(vec["task-clock"])) // 2


def recording(vec, names, spell=printed, reverse=False):
    """perf stat -x, text: task-clock, then one line per event."""
    ns = int(round(vec["task-clock"]))
    lines = ["%d.%06d,msec,task-clock,%d,100.00,0.999,CPUs utilized"
             % (ns // 10**6, ns % 10**6, ns),
             "%d,ns,duration_time,%d,100.00,," % (wall_ns(vec), wall_ns(vec))]
    for n in names:
        lines.append("%d,,%s,%d,100.00,," % (vec[key(n)], spell(perf_metrics.unescape(n)), ns))
    if reverse:
        lines.reverse()
    return "# started on (constructed by tests/oracle/oracle.py)\n\n" + "\n".join(lines) + "\n"


def analyze(stackctl, model, smt_on, text, tmp):
    path = os.path.join(tmp, "rec.csv")
    with open(path, "w") as f:
        f.write(text)
    r = subprocess.run([stackctl, "analyze", "--json", "--model", model,
                        "--smt", "on" if smt_on else "off", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("stackctl analyze failed (%d): %s" % (r.returncode, r.stderr.strip()))
    out = json.loads(r.stdout)
    return out["intervals"][0]["metrics"], out.get("perf_names", {})


def agrees(s, p):
    # analyze prints %.9g: half a unit of the 9th significant digit, so
    # 1e-9 absolute below 1 and 1e-8 relative above
    return abs(s - p) <= max(1e-9, 1e-8 * abs(p))


def check_model(args, model, table, tmp):
    """{stackd name: result dict}, spelling problems list."""
    mapped = [(s, p) for s, p, only in MAPPING if only is None or model in only]
    results = {s: {"perf": p, "checks": 0, "bad": [], "absent": 0} for s, p in mapped}
    own = stackd_events(args.stackctl, model)
    problems = []
    for smt_on in (False, True):
        lits = {"#smt_on": 1.0 if smt_on else 0.0,
                # stackd counts per task, never all of a core's CPUs system-wide
                "#core_wide": 0.0}
        needed = set()
        for _, p in mapped:
            if p in table.text:
                needed |= table.events(p, lits)
        extra = sorted(n for n in needed if key(n) not in {key(o) for o in own}
                       and key(n) != "duration_time")
        names = own + extra
        for i in range(args.vectors):
            rng = random.Random("%s/%s/%d/%s" % (model, smt_on, i, args.seed))
            vec = counts.vector(model, smt_on, rng, i)
            missing = [n for n in names if key(n) not in vec]
            if missing:
                raise RuntimeError("%s: no count constructed for %s" % (model, missing))
            got, claims = analyze(args.stackctl, model, smt_on, recording(vec, names), tmp)
            if i == 0 and not smt_on:
                problems += check_claims(model, mapped, claims)
            perf_counts = {perf_metrics.unescape(n): vec[key(n)] for n in needed
                           if key(n) != "duration_time"}
            perf_counts["duration_time"] = wall_ns(vec) / 1e9
            for s, p in mapped:
                r = results[s]
                if p not in table.text:
                    continue
                if s not in got:
                    r["absent"] += 1
                    continue
                want = table.evaluate(p, perf_counts, lits)
                if want is not None:
                    want *= SCALE.get((model, p), 1.0)
                r["checks"] += 1
                if want is None or not agrees(got[s], want):
                    r["bad"].append((smt_on, i, got[s], want))
            if i == 0 and not smt_on:
                problems += check_spellings(args, model, vec, own, extra, got, tmp)
    return results, problems


def check_claims(model, mapped, claims):
    """The product's perf_names (analyze --json, lib/model/perf_names.c)
    must be exactly the pairs checked here: a claim this oracle does not
    check, or a checked pair the product does not claim, is a problem."""
    problems = []
    want = dict(mapped)
    for s, names in sorted(claims.items()):
        if want.get(s) != names[0]:
            problems.append("perf_names claims %s = %s, which the oracle does not check"
                            % (s, names[0]))
    for s, p in sorted(want.items()):
        if s not in claims:
            problems.append("perf_names does not claim %s = %s" % (s, p))
    return problems


def check_spellings(args, model, vec, own, extra, want, tmp):
    problems = []
    for label, spell, rev in (("the same names, lines reversed", printed, True),
                              ("perf -M names", perf_m_spelling, False),
                              ("libpfm4 names", libpfm_spelling, False)):
        text = recording(vec, own + extra, spell, reverse=rev)
        try:
            got, _ = analyze(args.stackctl, model, False, text, tmp)
        except RuntimeError as e:
            problems.append("%s: %s" % (label, e))
            continue
        diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        if diff:
            problems.append("%s: %s" % (label, ", ".join(
                "%s %s -> %s" % (k, want.get(k, "absent"), got.get(k, "absent")) for k in diff)))
    return problems


def report(model, results, problems):
    n_checked = n_agree = n_bad = n_absent = n_noperf = 0
    print("model %s (perf tables of %s), SMT off and on:" % (model, MODELS[model]))
    for s, r in results.items():
        p = r["perf"]
        if r["checks"] == 0 and r["absent"] == 0:
            n_noperf += 1
            print("  no perf metric    %-22s (perf 6.1 has no %s here)" % (s, p))
        elif r["checks"] == 0:
            n_absent += 1
            print("  not yet produced  %-22s = %s" % (s, p))
        elif r["bad"]:
            n_checked += 1
            n_bad += 1
            print("  DISAGREE          %-22s = %s: %d of %d vectors" % (s, p, len(r["bad"]), r["checks"]))
            for smt_on, i, got, want in r["bad"]:
                d = "n/a" if want is None else "%+.3g" % (got - want)
                print("      SMT %-3s vector %d: stackd %.9g, perf %s (diff %s)"
                      % ("on" if smt_on else "off", i, got, want, d))
        else:
            n_checked += 1
            n_agree += 1
            print("  agree             %-22s = %s (%d vectors)" % (s, p, r["checks"]))
    for prob in problems:
        print("  PROBLEM: " + prob)
    if not problems:
        print("  spellings: reversed lines, perf -M and libpfm4 names give the same metrics")
    print("%s: %d checked, %d agreed, %d disagreed, %d not yet produced, %d without a perf 6.1 "
          "metric, %d spelling or naming problem(s)" % (model, n_checked, n_agree, n_bad, n_absent,
                                             n_noperf, len(problems)))
    return n_bad + len(problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stackctl", required=True)
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--vectors", type=int, default=4)
    ap.add_argument("--seed", default=os.environ.get("ORACLE_SEED", "0"))
    ap.add_argument("models", nargs="*", default=list(MODELS))
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="stackd-oracle.") as tmp:
        for model in args.models:
            if model not in MODELS:
                print("unknown model %s (have %s)" % (model, ", ".join(MODELS)))
                return 2
            table = perf_metrics.perf_metrics(MODELS[model], args.perf)
            results, problems = check_model(args, model, table, tmp)
            failures += report(model, results, problems)
    print("TODO: zen4 and the Arm models: perf 6.1 has no metric tables for them here; not checked")
    print("perf oracle: %s" % ("all checked metrics agree" if failures == 0 else
                               "%d disagreement(s) or spelling problem(s)" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
