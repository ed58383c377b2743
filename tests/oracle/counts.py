"""counts.py - constructed, plausible counter vectors for the perf oracle.

One vector is one physical run: every event has one count, however perf's
formulas and stackd spell it (oracle.py's ALIASES).  Counts obey the
hardware's identities (a part of a count is no more than the count; with
SMT off a thread is alone on its core), so that no formula of either side
is pushed into a clamp or a max(0, ...) that the other does not have: a
disagreement then is a formula difference, not an artefact of the vector.
"""
import math

# Events in a sum on one side only (perf 6.1's Sapphire Rapids FLOPs count
# FP16 and AMX, which stackd does not record; stackd's uop-source sum counts
# the LSD, which perf's Ice Lake-SP and Sapphire Rapids DSB_Coverage leave
# out): vector 0 of each run leaves them at 0 (a workload without them),
# the others count them, so a disagreement shows where they matter.
UNRECORDED_TERMS = (
    "FP_ARITH_INST_RETIRED2.SCALAR_HALF", "FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF",
    "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF", "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF",
    "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", "AMX_OPS_RETIRED.BF16",
    "LSD.UOPS",
)
# Counts of the same events with a cmask: 0 with them (no LSD uops, no
# cycles the LSD delivered any)
OF_UNRECORDED = {"LSD.UOPS": ("LSD.CYCLES_ACTIVE", "LSD.CYCLES_OK", "LSD.CYCLES_4_UOPS")}


def _u(rng, lo, hi):
    return rng.uniform(lo, hi)


def _base(rng, smt_on):
    """Clocks, instructions and time; the SMT identities."""
    v = {}
    c = round(_u(rng, 1e9, 4e9))
    v["cycles"] = c
    secs = c / _u(rng, 1.5e9, 4e9)       # one busy thread: CPU time = wall time
    v["task-clock"] = secs * 1e9        # ns
    v["CPU_CLK_UNHALTED.REF_TSC"] = round(secs * 2.5e9)
    ref_x = round(secs * 1e8 * _u(rng, 0.6, 1.0))
    v["CPU_CLK_UNHALTED.REF_XCLK"] = ref_x
    if smt_on:
        v["CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"] = round(ref_x * _u(rng, 0.1, 0.9))
        # the thread's share of the core's clocks (what CORE_CLKS estimates)
        v["CPU_CLK_UNHALTED.DISTRIBUTED"] = round(c * _u(rng, 0.5, 0.95))
    else:
        # alone on its core: every active reference tick is a lone one, and
        # the core's clocks are the thread's
        v["CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"] = ref_x
        v["CPU_CLK_UNHALTED.DISTRIBUTED"] = c
    return v


PATHS = ("IDQ.DSB_UOPS", "IDQ.MITE_UOPS", "IDQ.MS_UOPS", "LSD.UOPS")


def _uop_sources(rng, v, issued):
    total = issued * _u(rng, 0.9, 1.05)
    shares = [_u(rng, 0.2, 1.0), _u(rng, 0.1, 0.6), _u(rng, 0.01, 0.1), _u(rng, 0.0, 0.4)]
    s = sum(shares)
    for name, sh in zip(PATHS, shares):
        v[name] = round(total * sh / s)


def _cycles_of(rng, uops, width, room):
    """Cycles a path delivered any uop (its uop event with cmask 1): at
    least uops / width (at most width uops a cycle), at most the uops (one
    a cycle at least), plus a part of the cycles no path needs (room)."""
    if uops == 0:
        return 0
    return min(uops, math.ceil(uops / width) + round(room * _u(rng, 0.0, 0.2)))


def _optimal_cycles(rng, uops, any_cycles, width):
    """The cycles of those with width uops or more (cmask width): with at
    most width uops a cycle, width x them plus 1..width-1 in each other
    cycle make the uops, so uops - (width - 1) x any <= them <= (uops -
    any) / (width - 1), and no more than the cycles."""
    lo = max(0, uops - (width - 1) * any_cycles)
    hi = min(any_cycles, (uops - any_cycles) // (width - 1))
    return round(lo + (hi - lo) * _u(rng, 0.0, 1.0))


def _path_cycles(rng, v, width, names):
    """The cycles each delivery path (DSB, MITE, MS, LSD) delivered uops to
    the IDQ, under the model's names (perf's skylake/, icelake/ and
    sapphirerapids/ frontend.json and pipeline.json: IDQ.X_UOPS and
    LSD.UOPS with cmask 1); one path a cycle, so together within the
    cycles.  MS_SWITCHES is the MS cycles' edge: within them."""
    c = v["cycles"]
    room = c - sum(math.ceil(v[p] / width) for p in PATHS)
    assert room > 0, "the paths' uops need more cycles than there are"
    cyc = {p: _cycles_of(rng, v[p], width, room) for p in PATHS}
    for p, name in zip(PATHS, names):
        v[name] = cyc[p]
    v["IDQ.MS_SWITCHES"] = min(v["IDQ.MS_SWITCHES"], cyc["IDQ.MS_UOPS"])
    return cyc


def _skylake_paths(rng, v):
    """Skylake (skylake/frontend.json): IDQ.DSB_CYCLES, MITE_CYCLES and
    MS_CYCLES are umasks 0x08, 0x04 and 0x30 with cmask 1; the MS's uops
    (0x30) are those it sent on the DSB's behalf (0x10) and the MITE's
    (0x20), and IDQ.ALL_DSB_CYCLES_*_UOPS (alias IDQ.DSB_CYCLES_ANY/_OK)
    and ALL_MITE_CYCLES_*_UOPS count umasks 0x18 and 0x24 with cmask 1
    and 4: the path's cycles and the MS's on its behalf.  At most 4 uops
    a cycle."""
    cyc = _path_cycles(rng, v, 4, ("IDQ.DSB_CYCLES", "IDQ.MITE_CYCLES", "IDQ.MS_CYCLES",
                                   "LSD.CYCLES_ACTIVE"))
    ms_c, ms_u = cyc["IDQ.MS_UOPS"], v["IDQ.MS_UOPS"]
    ms_dsb_c = round(ms_c * _u(rng, 0.0, 1.0))
    ms_mite_c = ms_c - ms_dsb_c
    # each part's uops: 1 to 4 a cycle of its own, the two summing to MS_UOPS
    lo, hi = max(ms_dsb_c, ms_u - 4 * ms_mite_c), min(4 * ms_dsb_c, ms_u - ms_mite_c)
    ms_dsb_u = lo + round((hi - lo) * _u(rng, 0.0, 1.0))
    for path, ms_part_c, ms_part_u, total in (
            ("DSB", ms_dsb_c, ms_dsb_u, "IDQ.DSB_UOPS"),
            ("MITE", ms_mite_c, ms_u - ms_dsb_u, "IDQ.MITE_UOPS")):
        any_c = cyc[total] + ms_part_c
        v["IDQ.ALL_%s_CYCLES_ANY_UOPS" % path] = any_c
        v["IDQ.ALL_%s_CYCLES_4_UOPS" % path] = _optimal_cycles(rng, v[total] + ms_part_u,
                                                               any_c, 4)
    v["IDQ.DSB_CYCLES_ANY"] = v["IDQ.ALL_DSB_CYCLES_ANY_UOPS"]
    v["IDQ.DSB_CYCLES_OK"] = v["IDQ.ALL_DSB_CYCLES_4_UOPS"]
    v["LSD.CYCLES_OK"] = _optimal_cycles(rng, v["LSD.UOPS"], cyc["LSD.UOPS"], 4)
    v["LSD.CYCLES_4_UOPS"] = v["LSD.CYCLES_OK"]


def _perf_metrics_paths(rng, v, width):
    """Ice Lake and Sapphire Rapids (icelake/, sapphirerapids/ frontend.json
    and pipeline.json): IDQ.{DSB,MITE,MS}_CYCLES_ANY and LSD.CYCLES_ACTIVE
    are the paths' uop events with cmask 1, their _OK with cmask width (5,
    6): the cycles the path delivered the most it can."""
    cyc = _path_cycles(rng, v, width, ("IDQ.DSB_CYCLES_ANY", "IDQ.MITE_CYCLES_ANY",
                                       "IDQ.MS_CYCLES_ANY", "LSD.CYCLES_ACTIVE"))
    for uops, ok in (("IDQ.DSB_UOPS", "IDQ.DSB_CYCLES_OK"),
                     ("IDQ.MITE_UOPS", "IDQ.MITE_CYCLES_OK"), ("LSD.UOPS", "LSD.CYCLES_OK")):
        v[ok] = _optimal_cycles(rng, v[uops], cyc[uops], width)


def _frontend_l3(rng, v):
    c = v["cycles"]
    for name, lo, hi in (("DSB2MITE_SWITCHES.PENALTY_CYCLES", 0.001, 0.05),
                         ("DSB2MITE_SWITCHES.COUNT", 0.0005, 0.01),
                         ("ICACHE_16B.IFDATA_STALL", 0.001, 0.05),
                         ("ICACHE_64B.IFTAG_STALL", 0.001, 0.05),
                         ("ICACHE_DATA.STALLS", 0.001, 0.05), ("ICACHE_TAG.STALLS", 0.001, 0.05),
                         ("INT_MISC.CLEAR_RESTEER_CYCLES", 0.005, 0.05),
                         ("INT_MISC.UNKNOWN_BRANCH_CYCLES", 0.001, 0.02),
                         ("BACLEARS.ANY", 0.0001, 0.002), ("IDQ.MS_SWITCHES", 0.0005, 0.01),
                         ("ILD_STALL.LCP", 0.0, 0.01), ("DECODE.LCP", 0.0, 0.01)):
        v[name] = round(c * _u(rng, lo, hi))
    # parts of a count: no more than the count
    v["cpu@ICACHE_16B.IFDATA_STALL,cmask=1,edge@"] = round(v["ICACHE_16B.IFDATA_STALL"] *
                                                           _u(rng, 0.01, 0.2))


def _flops(rng, v):
    ins = v["instructions"]
    for name in ("FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", "FP_ARITH_INST_RETIRED.SCALAR_SINGLE",
                 "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE",
                 "FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE",
                 "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE",
                 "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE",
                 "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE",
                 "FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE",
                 "FP_ARITH_INST_RETIRED2.SCALAR_HALF",
                 "FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF",
                 "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF",
                 "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF",
                 "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", "AMX_OPS_RETIRED.BF16"):
        v[name] = round(ins * _u(rng, 0.0, 0.05))
    # FP uops dispatched per port (Sapphire Rapids' FLOPS stack)
    for name in ("FP_ARITH_DISPATCHED.PORT_0", "FP_ARITH_DISPATCHED.PORT_1",
                 "FP_ARITH_DISPATCHED.PORT_5"):
        v[name] = round(v["cycles"] * _u(rng, 0.0, 0.6))


def _backend(rng, v):
    c = v["cycles"]
    v["CYCLE_ACTIVITY.STALLS_TOTAL"] = round(c * _u(rng, 0.1, 0.5))
    v["CYCLE_ACTIVITY.STALLS_MEM_ANY"] = round(v["CYCLE_ACTIVITY.STALLS_TOTAL"] * _u(rng, 0.1, 0.9))
    v["EXE_ACTIVITY.BOUND_ON_STORES"] = round(c * _u(rng, 0.0, 0.08))
    v["EXE_ACTIVITY.1_PORTS_UTIL"] = round(c * _u(rng, 0.05, 0.3))
    v["EXE_ACTIVITY.2_PORTS_UTIL"] = round(c * _u(rng, 0.05, 0.3))
    v["RS_EVENTS.EMPTY_CYCLES"] = round(c * _u(rng, 0.01, 0.2))
    v["RS.EMPTY"] = v["RS_EVENTS.EMPTY_CYCLES"]
    # the cycle-accounted CPI stack: nested stalls L3 <= L2 <= L1D <= MEM_ANY
    # (Sapphire Rapids reads them from MEMORY_ACTIVITY, MEM_ANY from
    # EXE_ACTIVITY.BOUND_ON_LOADS), divider busy and this thread's recovery
    s1 = v["CYCLE_ACTIVITY.STALLS_MEM_ANY"] * _u(rng, 0.3, 0.9)
    s2 = s1 * _u(rng, 0.2, 0.9)
    s3 = s2 * _u(rng, 0.1, 0.9)
    for prefix in ("CYCLE_ACTIVITY", "MEMORY_ACTIVITY"):
        v[prefix + ".STALLS_L1D_MISS"] = round(s1)
        v[prefix + ".STALLS_L2_MISS"] = round(s2)
        v[prefix + ".STALLS_L3_MISS"] = round(s3)
    v["EXE_ACTIVITY.BOUND_ON_LOADS"] = v["CYCLE_ACTIVITY.STALLS_MEM_ANY"]
    v["ARITH.DIVIDER_ACTIVE"] = round(c * _u(rng, 0.0, 0.05))
    v.setdefault("INT_MISC.RECOVERY_CYCLES", round(c * _u(rng, 0.002, 0.02)))


def skylake(rng, smt_on):
    """Skylake-class: level 1 from uop counts over SLOTS = 4 * CORE_CLKS."""
    v = _base(rng, smt_on)
    c = v["cycles"]
    core = c / 2 * (1 + v["CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"] / v["CPU_CLK_UNHALTED.REF_XCLK"])
    slots = 4 * core
    ret, fe, bs = _u(rng, 0.15, 0.55), _u(rng, 0.05, 0.3), _u(rng, 0.03, 0.15)
    rec = slots * _u(rng, 0.002, 0.02) / 4          # this thread's recovery cycles
    v["UOPS_RETIRED.RETIRE_SLOTS"] = round(ret * slots)
    v["IDQ_UOPS_NOT_DELIVERED.CORE"] = round(fe * slots)
    v["INT_MISC.RECOVERY_CYCLES"] = round(rec)
    # any thread: with SMT off this thread's own; with SMT on the sibling's too
    v["INT_MISC.RECOVERY_CYCLES_ANY"] = round(2 * rec) if smt_on else round(rec)
    v["UOPS_ISSUED.ANY"] = round(v["UOPS_RETIRED.RETIRE_SLOTS"] + bs * slots - 4 * rec)
    v["IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"] = round(fe * slots / 4 * _u(rng, 0.2, 0.9))
    mf = v["UOPS_RETIRED.RETIRE_SLOTS"] * _u(rng, 0.02, 0.1)
    v["UOPS_RETIRED.MACRO_FUSED"] = round(mf)
    v["instructions"] = round((v["UOPS_RETIRED.RETIRE_SLOTS"] + mf) * _u(rng, 0.75, 0.97))
    v["BR_MISP_RETIRED.ALL_BRANCHES"] = round(v["instructions"] * _u(rng, 0.001, 0.02))
    v["MACHINE_CLEARS.COUNT"] = round(v["instructions"] * _u(rng, 1e-5, 1e-3))
    _uop_sources(rng, v, v["UOPS_ISSUED.ANY"])
    _backend(rng, v)
    _frontend_l3(rng, v)
    _skylake_paths(rng, v)
    _flops(rng, v)
    v["INT_MISC.CLEARS_COUNT"] = round(c * _u(rng, 1e-4, 1e-3))
    return v


def perf_metrics_cores(width):
    """Ice Lake and later: level 1 (and on Sapphire Rapids level 2) from the
    topdown-* perf-metrics counts, whose sum is near but not exactly SLOTS."""
    def gen(rng, smt_on):
        v = _base(rng, smt_on)
        c = v["cycles"]
        slots = width * c
        v["slots"] = round(slots)
        ret, fe, bs = _u(rng, 0.15, 0.55), _u(rng, 0.08, 0.3), _u(rng, 0.04, 0.15)
        be = 1 - ret - fe - bs
        for name, share in (("topdown-retiring", ret), ("topdown-fe-bound", fe),
                            ("topdown-bad-spec", bs), ("topdown-be-bound", be)):
            v[name] = round(share * slots * _u(rng, 0.98, 1.02))
        v["topdown-heavy-ops"] = round(v["topdown-retiring"] * _u(rng, 0.05, 0.3))
        v["topdown-br-mispredict"] = round(v["topdown-bad-spec"] * _u(rng, 0.3, 0.9))
        v["topdown-mem-bound"] = round(v["topdown-be-bound"] * _u(rng, 0.2, 0.8))
        drop = slots * _u(rng, 0.001, 0.01)
        v["INT_MISC.UOP_DROPPING"] = round(drop)
        v["topdown-fetch-lat"] = round(v["topdown-fe-bound"] * _u(rng, 0.3, 0.8))
        v["IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"] = round(
            (fe * slots * _u(rng, 0.3, 0.8)) / width)
        # clears: 5 * count / SLOTS well under bad speculation
        v["INT_MISC.CLEARS_COUNT"] = round(slots * _u(rng, 0.0005, 0.003) / width)
        v["instructions"] = round(ret * slots * _u(rng, 0.7, 0.95))
        v["UOPS_ISSUED.ANY"] = round((ret + bs) * slots)
        v["BR_MISP_RETIRED.ALL_BRANCHES"] = round(v["instructions"] * _u(rng, 0.001, 0.02))
        v["MACHINE_CLEARS.COUNT"] = round(v["instructions"] * _u(rng, 1e-5, 1e-3))
        v["UOPS_RETIRED.MS"] = round(v["topdown-heavy-ops"] * _u(rng, 0.1, 0.6))
        v["UOPS_DECODED.DEC0"] = round(c * _u(rng, 0.05, 0.3))
        v["cpu@UOPS_DECODED.DEC0,cmask=1@"] = round(v["UOPS_DECODED.DEC0"] * _u(rng, 0.5, 0.95))
        _uop_sources(rng, v, v["UOPS_ISSUED.ANY"])
        _backend(rng, v)
        _frontend_l3(rng, v)
        _perf_metrics_paths(rng, v, width)
        _flops(rng, v)
        return v
    return gen


def zen4(rng, smt_on):
    """AMD Zen 4: 6 dispatch slots a cycle, each slot of a cycle counted once
    as retired, wasted (dispatched, not retired), or empty for the frontend,
    the backend or the other thread (none with SMT off: no other thread)."""
    v = _base(rng, smt_on)
    c = v["cycles"]
    slots = 6 * c
    smt = _u(rng, 0.05, 0.25) if smt_on else 0.0
    ret, fe, bs = _u(rng, 0.15, 0.45), _u(rng, 0.05, 0.25), _u(rng, 0.02, 0.1)
    v["ex_ret_ops"] = round(ret * slots)
    v["de_src_op_disp.all"] = round((ret + bs) * slots)
    v["de_no_dispatch_per_slot.no_ops_from_frontend"] = round(fe * slots)
    v["de_no_dispatch_per_slot.backend_stalls"] = round((1 - ret - bs - fe - smt) * slots)
    v["de_no_dispatch_per_slot.smt_contention"] = round(smt * slots)
    # cycles the frontend left all 6 slots empty: 6 of its slots each
    v["cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6@"] = round(
        fe * slots / 6 * _u(rng, 0.2, 0.9))
    v["instructions"] = round(v["ex_ret_ops"] * _u(rng, 0.8, 0.97))
    v["ex_ret_brn_misp"] = round(v["instructions"] * _u(rng, 0.001, 0.02))
    v["resyncs_or_nc_redirects"] = round(v["instructions"] * _u(rng, 1e-5, 1e-3))
    v["ex_no_retire.not_complete"] = round(c * _u(rng, 0.1, 0.6))
    v["ex_no_retire.load_not_complete"] = round(v["ex_no_retire.not_complete"] *
                                                _u(rng, 0.1, 0.9))
    v["ex_ret_ucode_ops"] = round(v["ex_ret_ops"] * _u(rng, 0.01, 0.2))
    disp = v["de_src_op_disp.all"]
    v["de_src_op_disp.op_cache"] = round(disp * _u(rng, 0.4, 0.9))
    v["de_src_op_disp.decoder"] = disp - v["de_src_op_disp.op_cache"]
    v["fp_ret_sse_avx_ops.all"] = round(v["instructions"] * _u(rng, 0.0, 0.5))
    # the commit stage and FMA FLOPs (the stacks of model_zen4.c)
    v["ex_no_retire.empty"] = round(c * _u(rng, 0.0, 0.2))
    v["ex_no_retire.other"] = round(c * _u(rng, 0.0, 0.02))
    v["ex_no_retire.thread_not_selected"] = round(c * _u(rng, 0.0, 0.1)) if smt_on else 0
    v["fp_ret_sse_avx_ops.mac_flops"] = round(v["fp_ret_sse_avx_ops.all"] * _u(rng, 0.0, 1.0))
    return v


def neoverse(width):
    """Arm Neoverse: STALL_SLOT = STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND
    (the 5-slot N2 counts one slot more a cycle in STALL_SLOT and
    STALL_SLOT_FRONTEND, as perf's neoverse-n2-v2 formulas take it); V1's
    4 frontend cycles per speculative mispredict fit in the frontend's
    stall slots.  No SMT: the SMT-on vectors are alike."""
    def gen(rng, smt_on):
        v = _base(rng, smt_on)
        c = v["cycles"]
        slots = width * c
        extra = c if width == 5 else 0
        fe, be = _u(rng, 0.1, 0.35), _u(rng, 0.1, 0.4)
        v["STALL_SLOT_FRONTEND"] = round(fe * slots) + extra
        v["STALL_SLOT_BACKEND"] = round(be * slots)
        v["STALL_SLOT"] = v["STALL_SLOT_FRONTEND"] + v["STALL_SLOT_BACKEND"]
        v["OP_SPEC"] = round((1 - fe - be) * slots * _u(rng, 0.8, 1.0))
        v["OP_RETIRED"] = round(v["OP_SPEC"] * _u(rng, 0.7, 0.98))
        v["instructions"] = round(v["OP_RETIRED"] * _u(rng, 0.8, 0.97))
        ins = v["instructions"]
        v["BR_MIS_PRED_RETIRED"] = round(ins * _u(rng, 0.001, 0.01))
        # speculative mispredicts: the retired ones and more, 4 x 8 slots
        # each well inside the frontend's stall slots
        v["BR_MIS_PRED"] = round(min(v["BR_MIS_PRED_RETIRED"] * _u(rng, 1.0, 1.5),
                                     fe * slots / (4 * width) * _u(rng, 0.1, 0.9)))
        v["STALL_FRONTEND"] = round(c * fe * _u(rng, 0.5, 1.0))
        v["STALL_BACKEND"] = round(c * be * _u(rng, 0.5, 1.0))
        # the part of those waiting on memory (r4005, Armv8.7 common event)
        v["STALL_BACKEND_MEM"] = round(v["STALL_BACKEND"] * _u(rng, 0.3, 0.9))
        for name, lo, hi in (("L1I_CACHE_REFILL", 1e-4, 0.02), ("L2D_CACHE_REFILL", 1e-4, 0.02),
                             ("ITLB_WALK", 1e-6, 1e-3), ("DTLB_WALK", 1e-5, 2e-3),
                             ("LL_CACHE_MISS_RD", 1e-5, 5e-3), ("FP_FIXED_OPS_SPEC", 0.0, 0.5),
                             ("FP_SCALE_OPS_SPEC", 0.0, 0.3)):
            v[name] = round(ins * _u(rng, lo, hi))
        return v
    return gen


GENERATORS = {
    "skl": skylake, "skx": skylake,
    "icl": perf_metrics_cores(5), "icx": perf_metrics_cores(5), "spr": perf_metrics_cores(6),
    "amd64_fam19h_zen4": zen4,
    "arm_n2": neoverse(5), "arm_v1": neoverse(8), "arm_v2": neoverse(8),
}


def vector(model, smt_on, rng, index):
    v = GENERATORS[model](rng, smt_on)
    if index == 0:
        for name in UNRECORDED_TERMS:
            v[name] = 0
            for cycles in OF_UNRECORDED.get(name, ()):
                if cycles in v:
                    v[cycles] = 0
    return v
