#!/usr/bin/env python3
"""oracle.py - stackd's metrics against Linux perf's own formulas.

For each model and SMT off/on: constructed count vectors (counts.py) are
written as a `perf stat -x,` recording, run through `stackctl analyze
--json --model M --smt on|off`, and every stackd metric that is the same
quantity as a perf metric (MAPPING) is compared with that perf metric
evaluated on the same counts (perf_metrics.py: Intel from the local `perf
list --details metric`; AMD Zen 4 and Arm Neoverse, which perf 6.1 has no
tables for, from the kernel's JSON copied into tables/ with its commit).  A stackd metric analyze does not print is reported
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

# stackd model -> the CPUID perf 6.1 takes its tables for (DESIGN.md sec. 8),
# or the kernel table in tables/ where perf 6.1 has none
TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tables")
MODELS = {
    "skl": "GenuineIntel-6-5E-3", "skx": "GenuineIntel-6-55-4",
    "icl": "GenuineIntel-6-7E-5", "icx": "GenuineIntel-6-6A-6",
    "spr": "GenuineIntel-6-8F-8",
    "amd64_fam19h_zen4": "amdzen4.json",
    "arm_n2": "arm_neoverse_n2.json", "arm_v1": "arm_neoverse_v1.json",
    "arm_v2": "arm_neoverse_v2.json",
}
INTEL = ("skl", "skx", "icl", "icx", "spr")
ZEN4 = ("amd64_fam19h_zen4",)
NEOVERSE = ("arm_n2", "arm_v1", "arm_v2")


def perf_table(model, perf):
    """(MetricTable, literals) of the model's perf formulas, and where from."""
    src = MODELS[model]
    if src.endswith(".json"):
        table, lits = perf_metrics.load_table(os.path.join(TABLES, src))
        with open(os.path.join(TABLES, src)) as f:
            table.cpuid = json.load(f).get("cpuid")
        return table, lits, "perf 7.2.12's table in tests/oracle/tables/" + src
    return perf_metrics.perf_metrics(src, perf), {}, "perf 6.1 tables of " + src

# ---------------------------------------------------------------------------
# MAPPING: stackd metric -> perf metric that is the SAME quantity.  (A later
# change may move the perf names into the models themselves.)  Both sides
# are fractions: perf's tma_* expressions are fractions (perf stat shows
# them x100 through the JSON ScaleUnit, which the expression does not hold).
# Entry: (stackd name, perf name, models it holds for; None: every Intel one).
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
    # AMD Zen 4 (amdzen4/pipeline.json): level 1 under perf's names, level 2
    # under the generic ones; the same formulas (model_zen4.c).  No perf
    # metric for ipc, cpi, dsb_coverage (op cache) or FLOPs on Zen 4.
    ("retiring", "retiring", ZEN4 + NEOVERSE),
    ("bad_speculation", "bad_speculation", ZEN4 + NEOVERSE),
    ("frontend_bound", "frontend_bound", ZEN4 + NEOVERSE),
    ("backend_bound", "backend_bound", ZEN4 + NEOVERSE),
    ("smt_contention", "smt_contention", ZEN4),
    ("fetch_latency", "frontend_bound_latency", ZEN4),
    ("fetch_bandwidth", "frontend_bound_bandwidth", ZEN4),
    ("branch_mispredicts", "bad_speculation_mispredicts", ZEN4),
    ("machine_clears", "bad_speculation_pipeline_restarts", ZEN4),
    ("memory_bound", "backend_bound_memory", ZEN4),
    ("core_bound", "backend_bound_cpu", ZEN4),
    ("light_ops", "retiring_fastpath", ZEN4),
    ("heavy_ops", "retiring_microcode", ZEN4),
    # Arm Neoverse (arm64/sbsa.json, then neoverse-n2-v2/ or neoverse-v1/
    # metrics.json): level 1 (V1's frontend_bound and bad_speculation are
    # Arm's, with the mispredict slots moved; stackd follows since formula
    # version 2 of arm_v1), per-kilo-instruction counts and IPC.  cpi, the
    # regression CPI stack and FLOPs have no perf metric; N2 and V2's
    # stall cycles neither (only V1's file defines them).
    ("ipc", "ipc", NEOVERSE),
    ("branch_mpki", "branch_mpki", NEOVERSE),
    ("l1i_mpki", "l1i_cache_mpki", NEOVERSE),
    ("l2_mpki", "l2_cache_mpki", NEOVERSE),
    ("itlb_walk_pki", "itlb_mpki", NEOVERSE),
    ("dtlb_walk_pki", "dtlb_mpki", NEOVERSE),
    ("llc_read_mpki", "ll_cache_read_mpki", NEOVERSE),
    ("frontend_stalled_cycles", "frontend_stalled_cycles", ("arm_v1",)),
    ("backend_stalled_cycles", "backend_stalled_cycles", ("arm_v1",)),
]
# Not mapped, not the same quantity as any perf 6.1 metric: mite_share,
# ms_share, lsd_share (perf has DSB_Coverage only); dsb_p_only/overall,
# mite_p_only/overall, fe_p_overall and the frontend-cycles stack
# fe_cycles_* (the thesis's throughputs and cycle decomposition: perf 6.1
# has no metric of IDQ.MITE_CYCLES, IDQ.MS_CYCLES(_ANY) or
# LSD.CYCLES_ACTIVE; test 264 checks perf 7.2's tma_info_pipeline_fetch_*
# of the tables); flop_peak_fraction and
# the FLOPS stack (perf's FP_Arith_Utilization is FP instructions per port
# cycle, not FLOPs over the core's peak); flops_*_share; the multi-stage
# per-stage bounds (*_low/_high), the issue- and commit-stage stacks
# (issue_*, commit_*): no perf metric.

# perf 6.1's Ice Lake-SP tma_lsd alone carries its percent in the
# expression (100 * (...)): scaled back to a fraction.
SCALE = {("icx", "tma_lsd"): 0.01}
# Neoverse V1's metrics.json (Arm's telemetry formulas) likewise carries
# percent in its expressions
SCALE.update({("arm_v1", p): 0.01 for p in ("frontend_stalled_cycles",
                                            "backend_stalled_cycles")})
# perf 7.2's Arm level 1 (sbsa.json and the cores' metrics.json) is in percent
SCALE.update({(m, p): 0.01 for m in ("arm_n2", "arm_v1", "arm_v2")
              for p in ("frontend_bound", "bad_speculation", "retiring", "backend_bound")})

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
    # Zen 4: perf's formulas count cycles as ls_not_halted_cyc; stackd
    # records DISPATCH_STALLS_1:FE_NO_OPS:c=6 (event 0x1a0 umask 0x01) raw
    "ls_not_halted_cyc": "cycles",
    "cpu/event=0x1a0,umask=0x1,cmask=0x6/":
        "cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6@",
    # Arm: CPU_CYCLES and INST_RETIRED are perf's cycles and instructions
    "CPU_CYCLES": "cycles", "INST_RETIRED": "instructions",
}
# sbsa.json spells Arm's events in lower case; perf matches either
ARM_EVENTS = ("STALL_SLOT", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "OP_RETIRED",
              "OP_SPEC", "BR_MIS_PRED", "BR_MIS_PRED_RETIRED", "STALL_FRONTEND",
              "STALL_BACKEND", "STALL_BACKEND_MEM", "L1I_CACHE_REFILL", "L2D_CACHE_REFILL", "ITLB_WALK",
              "DTLB_WALK", "LL_CACHE_MISS_RD", "FP_FIXED_OPS_SPEC", "FP_SCALE_OPS_SPEC")
ALIASES.update({e.lower(): e for e in ARM_EVENTS})
ALIASES.update({"cpu_cycles": "cycles", "inst_retired": "instructions"})


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


# Zen 4: perf -M prints its formulas' names; libpfm4 its own (model_zen4.c)
ZEN4_PERF_M = {"cycles": "ls_not_halted_cyc",
               "cpu/event=0x1a0,umask=0x1,cmask=0x6/":
                   "cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/"}
ZEN4_LIBPFM = {
    "cycles": "CYCLES_NOT_IN_HALT", "instructions": "RETIRED_INSTRUCTIONS",
    "de_src_op_disp.all": "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER",
    "ex_ret_ops": "RETIRED_OPS",
    "de_no_dispatch_per_slot.no_ops_from_frontend": "DISPATCH_STALLS_1:FE_NO_OPS",
    "de_no_dispatch_per_slot.backend_stalls": "DISPATCH_STALLS_1:BE_STALLS",
    "de_no_dispatch_per_slot.smt_contention": "DISPATCH_STALLS_1:SMT_CONTENTION",
    "cpu/event=0x1a0,umask=0x1,cmask=0x6/": "DISPATCH_STALLS_1:FE_NO_OPS:c=6",
    "ex_ret_brn_misp": "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "resyncs_or_nc_redirects": "RESYNCS",
    "ex_no_retire.load_not_complete": "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD",
    "ex_no_retire.not_complete": "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU",
    "ex_ret_ucode_ops": "RETIRED_UCODE_OPS",
    "de_src_op_disp.op_cache": "OPS_SOURCE_DISPATCHED_FROM_DECODER:OPCACHE",
    "de_src_op_disp.decoder": "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER",
    "fp_ret_sse_avx_ops.all": "RETIRED_SSE_AVX_FLOPS:ANY",
    "fp_ret_sse_avx_ops.mac_flops": "RETIRED_SSE_AVX_FLOPS:MAC_FLOPS",
    "ex_no_retire.empty": "CYCLES_NO_RETIRE:EMPTY",
    "ex_no_retire.other": "CYCLES_NO_RETIRE:OTHER",
    "ex_no_retire.thread_not_selected": "CYCLES_NO_RETIRE:THREAD_NOT_SELECTED",
}
# Arm: the architected numbers, as perf's raw form (rNNNN)
ARM_RAW = {"CPU_CYCLES": 0x11, "INST_RETIRED": 0x08, "STALL_SLOT": 0x3f,
           "STALL_SLOT_FRONTEND": 0x3e, "STALL_SLOT_BACKEND": 0x3d, "OP_RETIRED": 0x3a,
           "OP_SPEC": 0x3b, "BR_MIS_PRED": 0x10, "BR_MIS_PRED_RETIRED": 0x22,
           "STALL_FRONTEND": 0x23, "STALL_BACKEND": 0x24, "STALL_BACKEND_MEM": 0x4005,
           "L1I_CACHE_REFILL": 0x01,
           "L2D_CACHE_REFILL": 0x17, "ITLB_WALK": 0x35, "DTLB_WALK": 0x34,
           "LL_CACHE_MISS_RD": 0x37, "FP_FIXED_OPS_SPEC": 0x80c1, "FP_SCALE_OPS_SPEC": 0x80c0}


def with_u(n):
    return n + "u" if n.endswith("/") else n + ":u"


def spellings(model):
    """(label, spelling function) of the other ways tools print the model's events."""
    if model in ZEN4:
        return (("perf -M names", lambda n: with_u(ZEN4_PERF_M.get(n, n))),
                ("libpfm4 names", lambda n: ZEN4_LIBPFM[n]))
    if model in NEOVERSE:  # perf -M: sbsa.json's lower case; libpfm4's are perf's
        return (("perf -M names", lambda n: with_u(n.lower())),
                ("raw codes", lambda n: "r%x" % ARM_RAW[n]))
    return (("perf -M names", perf_m_spelling), ("libpfm4 names", libpfm_spelling))


def wall_ns(vec):
    """The run's wall time: two threads' CPU time in half the time."""
    return int(round(vec["task-clock"])) // 2


# The shapes perf stat -x, writes one run in: (label, lines of one count).
# Per CPU (-A) and per core (--per-core) split each count in two rows that
# sum to it; -I puts the interval's end first.  duration_time is one wall
# time, never split.
def _rows(shape, value, rest, split=True):
    if shape == "plain":
        return ["%s,%s" % (value, rest)]
    if shape == "interval":
        return ["1.000100000,%s,%s" % (value, rest)]
    halves = (value // 2, value - value // 2) if split else (value, value)
    if shape == "per-cpu":
        return ["CPU%d,%d,%s" % (i, h, rest) for i, h in enumerate(halves)]
    if shape == "per-core":
        return ["S0-D0-C%d,1,%d,%s" % (i, h, rest) for i, h in enumerate(halves)]
    if shape == "interval-per-core":
        return ["1.000100000,S0-D0-C%d,1,%d,%s" % (i, h, rest) for i, h in enumerate(halves)]
    raise ValueError(shape)


SHAPES = ("interval", "per-cpu", "per-core", "interval-per-core")


def recording(vec, names, spell=printed, reverse=False, shape="plain"):
    """perf stat -x, text: task-clock, duration_time, then each event."""
    ns = int(round(vec["task-clock"]))
    lines = _rows(shape, ns, "nsec,task-clock,%d,100.00,0.999,CPUs utilized" % ns)
    lines += _rows(shape, wall_ns(vec), "ns,duration_time,%d,100.00,," % wall_ns(vec), False)
    for n in names:
        lines += _rows(shape, int(vec[key(n)]),
                       ",%s,%d,100.00,," % (spell(perf_metrics.unescape(n)), ns))
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


def mapped_of(model):
    return [(s, p) for s, p, only in MAPPING if model in (INTEL if only is None else only)]


def midr_matches(arg, cpuid):
    """perf's arm64 strcmp_cpuid_str(): the same implementer and part, and a
    variant.revision at least arg's (tools/perf/arch/arm64/util/header.c)."""
    a, c = int(arg, 16), int(cpuid, 16)
    same = (a & 0xff0fff0) == (c & 0xff0fff0)
    return same and ((c >> 20) & 0xf, c & 0xf) >= ((a >> 20) & 0xf, a & 0xf)


def evaluate(table, name, counts, lits):
    """perf's value of metric name: Linux 7.2's grammar (strcmp_cpuid_str on
    the table's CPU) for the tables copied from perf 7.2, perf 6.1's for the
    local perf's."""
    cpuid = getattr(table, "cpuid", None)
    if cpuid is None:
        return table.evaluate(name, counts, lits)
    v = table.evaluate72(name, counts, lits, cpuid_match=lambda a: midr_matches(a, cpuid))
    return None if v is None or v != v else v


def check_model(args, model, table, table_lits, tmp):
    """{stackd name: result dict}, spelling problems list."""
    mapped = mapped_of(model)
    results = {s: {"perf": p, "checks": 0, "bad": [], "absent": 0} for s, p in mapped}
    own = stackd_events(args.stackctl, model)
    problems = []
    for smt_on in (False, True):
        lits = {"#smt_on": 1.0 if smt_on else 0.0,
                # stackd counts per task, never all of a core's CPUs system-wide
                "#core_wide": 0.0}
        lits.update(table_lits)
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
                want = evaluate(table, p, perf_counts, lits)
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


def shape_flag(shape):
    return {"interval": "-I", "per-cpu": "-A", "per-core": "--per-core",
            "interval-per-core": "-I --per-core"}[shape]


def _perf72_names():
    """{model: names of its perf 7.2 table's metrics} (perf-7.2-metrics.json)."""
    tables = {"skl": "skylake", "skx": "skylakex", "icl": "icelake", "icx": "icelakex",
              "spr": "sapphirerapids", "amd64_fam19h_zen4": "amdzen4",
              "arm_n2": "arm/neoverse-n2-v2", "arm_v2": "arm/neoverse-n2-v2",
              "arm_v1": "arm/neoverse-v1"}
    with open(os.path.join(TABLES, "perf-7.2-metrics.json")) as f:
        doc = json.load(f)["tables"]
    return {m: {x["name"] for x in doc[t]["metrics"]} for m, t in tables.items()}


PERF72 = _perf72_names()


def check_spellings(args, model, vec, own, extra, want, tmp):
    problems = []
    others = tuple((label, spell, False) for label, spell in spellings(model))
    forms = (("the same names, lines reversed", printed, True, "plain"),)
    forms += tuple((label, spell, rev, "plain") for label, spell, rev in others)
    forms += tuple(("as perf stat -x, %s writes it" % shape_flag(sh), printed, False, sh)
                   for sh in SHAPES)
    for label, spell, rev, shape in forms:
        text = recording(vec, own + extra, spell, reverse=rev, shape=shape)
        try:
            got, _ = analyze(args.stackctl, model, False, text, tmp)
        except RuntimeError as e:
            problems.append("%s: %s" % (label, e))
            continue
        # stackd's own metrics; perf's table metrics analyze adds (which
        # test 264 checks against perf 7.2) follow perf's own names
        ours = {name for name, _ in mapped_of(model)}
        diff = sorted(k for k in set(want) | set(got)
                      if want.get(k) != got.get(k) and
                      (k in ours or k not in PERF72.get(model, ())))
        if diff:
            problems.append("%s: %s" % (label, ", ".join(
                "%s %s -> %s" % (k, want.get(k, "absent"), got.get(k, "absent")) for k in diff)))
    return problems


def report(model, source, results, problems):
    n_checked = n_agree = n_bad = n_absent = n_noperf = 0
    print("model %s (%s), SMT off and on:" % (model, source))
    for s, r in results.items():
        p = r["perf"]
        if r["checks"] == 0 and r["absent"] == 0:
            n_noperf += 1
            print("  no perf metric    %-22s (no %s in %s)" % (s, p, source))
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
        print("  spellings: reversed lines, %s give the same metrics; so do the shapes %s"
              % (" and ".join(label for label, _ in spellings(model)),
                 ", ".join(shape_flag(sh) for sh in SHAPES)))
    print("%s: %d checked, %d agreed, %d disagreed, %d not yet produced, %d without the perf "
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
            table, lits, source = perf_table(model, args.perf)
            results, problems = check_model(args, model, table, lits, tmp)
            failures += report(model, source, results, problems)
    print("perf oracle: %s" % ("all checked metrics agree" if failures == 0 else
                               "%d disagreement(s) or spelling problem(s)" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
