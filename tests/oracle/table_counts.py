"""table_counts.py - a physically possible count for every event a perf
table's metrics name, written as `perf stat -x,` prints it (perf_oracle.py).

counts.py builds vectors for the events of our hand models by name; this
builds them for any table of tables/perf-7.2-metrics.json from what the
names and the table's event fields say.  What holds in every vector (one
vector = one thread of one core type over one interval):
 - every count is an integer >= 0; duration_time is the interval's wall
   time, the thread unhalted for part of it (REF_TSC at most the TSC's
   ticks), its clock between 0.6 and 1.6 times the TSC's;
 - spellings of one encoding are one count (IDQ.MS_CYCLES_ANY is
   cpu_core/IDQ.MS_UOPS,cmask=1/: event, umask, cmask, inv, edge, any and
   MSR values from the table);
 - the counts the kernel makes one (cycles, CPU_CLK_UNHALTED.THREAD/_P/
   .CORE/_P, cpu_cycles, ls_not_halted_cyc: fixed counter 1 or event 0x3c;
   instructions, INST_RETIRED.ANY/_P/PREC_DIST, ex_ret_instr, inst_retired:
   fixed counter 0 or 0xc0) are equal; an ":k"/":u" part is at most its whole;
 - slots (TOPDOWN.SLOTS, slots) = width x cycles; the topdown-* level-1
   counts partition the slots, each level-2 count is inside its level-1 one;
   likewise the E-cores' TOPDOWN_{RETIRING,FE_BOUND,BAD_SPECULATION,
   BE_BOUND}.ALL(_P) partition width x CPU_CLK_UNHALTED.CORE, AMD's
   dispatched ops and no-dispatch slots partition total_dispatch_slots, and
   Arm's STALL_SLOT is STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND (plus one
   slot a cycle where perf's formula takes that off: N2 before r0p3), with
   OP_SPEC in the slots left, OP_RETIRED <= OP_SPEC, STALL_FRONTEND/BACKEND
   at most their stalled slots / width;
 - a count of cycles (a cmask, inv or edge in the name or the event's
   fields, or CYCLES/STALL/ACTIVE in its name) is at most the cycles; the
   cycles with >= k per cycle fall as k rises and k times them stay within
   the count they threshold; an edge count is within its cycles; inv with
   cmask k is the cycles minus those with >= k;
 - a part is at most its total: X.S <= X.ALL / X.ANY / X.ALL_BRANCHES /
   X.ALL_LOADS (..._LOADS) / X.ALL_STORES, Arm's A_B <= A (L1D_CACHE_REFILL
   <= L1D_CACHE), and a few named chains (the CYCLE_ACTIVITY and
   MEMORY_ACTIVITY stalls nested L3 <= L2 <= L1D <= MEM_ANY <= TOTAL,
   mispredicted <= branches); an event whose umask has several bits
   (FP_ARITH_INST_RETIRED.SCALAR, or a umask= term) is the sum of the
   table's events of the same code it covers (at most the cycles when they
   count cycles);
 - with SMT off a thread is alone on its core: THREAD_ANY = THREAD,
   ONE_THREAD_ACTIVE = REF_XCLK, DISTRIBUTED = THREAD, no SMT contention.
Some counts are 0 now and then, as a real run has them: perf then divides
by zero and prints nothing, and so must analyze.
"""
import re

import perf_metrics

CYCLES = {"cycles", "cpu-cycles", "cpu_clk_unhalted.thread", "cpu_clk_unhalted.thread_p",
          "cpu_clk_unhalted.core", "cpu_clk_unhalted.core_p", "cpu_cycles", "ls_not_halted_cyc"}
INSTRUCTIONS = {"instructions", "inst_retired.any", "inst_retired.any_p",
                "inst_retired.prec_dist", "ex_ret_instr", "inst_retired"}
SLOTS = {"slots", "topdown.slots", "topdown.slots_p"}
REF = {"cpu_clk_unhalted.ref_tsc", "cpu_clk_unhalted.ref_tsc_p"}
TSC_HZ = 2.5e9      # the reference clock; REF_XCLK ticks at 100 MHz
L1 = ("retiring", "fe-bound", "bad-spec", "be-bound")
L2 = {"heavy-ops": "retiring", "fetch-lat": "fe-bound", "br-mispredict": "bad-spec",
      "mem-bound": "be-bound"}
ATOM_L1 = ("TOPDOWN_RETIRING", "TOPDOWN_FE_BOUND", "TOPDOWN_BAD_SPECULATION",
           "TOPDOWN_BE_BOUND")
AMD_SLOTS = ("de_src_op_disp.all", "de_no_dispatch_per_slot.no_ops_from_frontend",
             "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention")
# part -> total, where the names alone do not say it
CHAINS = {}
for _p in ("cycle_activity", "memory_activity"):
    CHAINS.update({_p + ".stalls_l3_miss": _p + ".stalls_l2_miss",
                   _p + ".stalls_l2_miss": _p + ".stalls_l1d_miss",
                   _p + ".stalls_l1d_miss": "cycle_activity.stalls_mem_any",
                   "cycle_activity.stalls_mem_any": "cycle_activity.stalls_total"})
CHAINS.update({
    "br_misp_retired.all_branches": "br_inst_retired.all_branches",
    "ex_ret_brn_misp": "ex_ret_brn", "ex_ret_ops": "de_src_op_disp.all",
    "ex_no_retire.load_not_complete": "ex_no_retire.not_complete",
    "br_mis_pred_retired": "br_retired", "ll_cache_miss_rd": "ll_cache_rd",
    "l1d_cache_lmiss_rd": "l1d_cache_rd", "l2d_cache_lmiss_rd": "l2d_cache_rd",
    "sve_pred_empty_spec": "sve_pred_spec", "sve_pred_full_spec": "sve_pred_spec",
    "sve_pred_partial_spec": "sve_pred_spec", "sve_pred_spec": "sve_inst_spec",
    "br_immed_retired": "br_retired", "br_ind_retired": "br_retired",
    "br_return_retired": "br_retired", "cycles-ct": "cycles-t",
    "tx-start": "cycles-t", "el-start": "cycles-t",
})
# Arm's *_SPEC instruction mix: each a share of INST_SPEC, all together at
# most it; these *_SPEC count something else (ops, predicates)
NOT_MIX = {"inst_spec", "op_spec", "fp_fixed_ops_spec", "fp_scale_ops_spec",
           "sve_pred_spec", "sve_pred_empty_spec", "sve_pred_full_spec", "sve_pred_partial_spec"}
# #slots of the Arm tables, where tables/arm_neoverse_*.json has it
# (PMMIR_EL1.SLOTS); others are run at an assumed width
ARM_SLOTS = {"arm/neoverse-v1": 8, "arm/neoverse-n2-v2": 5}


def arm_width(table):
    """Slots per cycle of an Arm table's core (its "_name"): the copied
    fact, else 8 (any width gives counts a core of that width can make)."""
    return ARM_SLOTS.get(table.get("_name", ""), 8)


def canonical(name):
    """The name as analyze's evaluator and perf's command line spell it:
    "cpu@EV,cmask=1@" -> "cpu/EV,cmask=1/" (the first and last '@')."""
    first, last = name.find("@"), name.rfind("@")
    if first < 0:
        return name
    return name[:first] + "/" + name[first + 1:last] + "/" + name[last + 1:]


class Event:
    """One event of a metric expression: its base event, terms, modifiers,
    its core PMU, and how perf prints it."""

    def __init__(self, expr_name, unit):
        self.expr_name = expr_name
        c = canonical(expr_name)
        self.retire = c.endswith(":R") or (c.endswith("/R") and "/" in c[:-2])
        self.pmu, self.terms, self.mods = unit, {}, ""
        if "/" in c:
            fields = c.split("/")
            head, parts, self.mods = fields[0], "/".join(fields[1:-1]).split(","), fields[-1]
            if head == "msr":  # msr/tsc/, msr/tsc,cpu=cpu_core/: the TSC
                base, terms = "msr/" + parts[0] + "/", []
            elif head in ("cpu", "cpu_core", "cpu_atom"):
                base, terms = parts[0], parts[1:]
                if head != "cpu":
                    self.pmu = head
            else:  # EVENT/term=v/: the event's own name carries the terms
                base, terms = head, parts
            for t in terms:
                k, _, v = t.partition("=")
                self.terms[k] = int(v, 0) if v else 1
            self.printed = c
        else:
            base = c
            if ":" in c:
                base, self.mods = c.rsplit(":", 1)
            # a hybrid's perf names a core event by its PMU
            generic = base in ("duration_time",) or base.startswith("msr/")
            self.printed = c if unit is None or generic else "%s/%s/%s" % (
                unit, base, self.mods if self.mods else "")
        self.base = base
        self.low = base.lower()


class Thread:
    """Counts of one thread of one core type over one interval."""

    def __init__(self, table, unit, rng, smt, secs, width, n2_extra):
        self.table, self.unit, self.rng, self.smt, self.secs = table, unit, rng, smt, secs
        self.width, self.n2_extra = width, n2_extra
        self.facts = {}
        for e in table["events"]:
            if (e.get("pmu") or None) in (None, unit) or unit is None:
                n = canonical(e["name"]).lower()
                m = re.match(r"^cpu(?:_core|_atom)?/([^/,]*)/$", n)
                self.facts.setdefault(m.group(1) if m else n, e)
        self.busy = rng.uniform(0.5, 1.0)
        self.ref = round(TSC_HZ * secs * self.busy)
        self.cycles = round(self.ref * rng.uniform(0.6, 1.6))
        self.memo = {}
        self.names = set()    # the lower-case base names this vector holds

    def u(self, lo, hi):
        return self.rng.uniform(lo, hi)

    def fact(self, low):
        return self.facts.get(low, {})

    def is_cycles(self, low):
        f = self.fact(low)
        return (f.get("cmask") or f.get("inv") or f.get("edge") or
                re.search(r"cycles|stall|_active|_cyc\b|\.cyc", low) is not None)

    def free(self, low):
        """A count nothing else bounds: at most the cycles, now and then 0."""
        if self.rng.random() < 0.03:
            return 0
        if self.is_cycles(low):
            return round(self.cycles * self.u(0.0, 0.6))
        return round(self.cycles * self.rng.random() * 10 ** -self.u(0, 3))

    def block(self, names, total):
        """Counts of names that partition total."""
        shares = [self.u(0.05, 1.0) for _ in names]
        s = sum(shares)
        vals = [round(total * sh / s) for sh in shares]
        vals[-1] = max(0, total - sum(vals[:-1]))
        for n, v in zip(names, vals):
            self.memo[n] = v

    def union_parts(self, low):
        """The table's events that a raw event's umask bits cover, where it
        has several (FP_ARITH_INST_RETIRED.SCALAR = SCALAR_SINGLE +
        SCALAR_DOUBLE): it counts what they count together."""
        f = self.fact(low)
        um = f.get("umask") or 0
        if f.get("kind") != "raw" or bin(um).count("1") < 2 or f.get("msr") or \
                f.get("cmask") or f.get("edge") or f.get("inv"):
            return []
        return [n for n, e in self.facts.items()
                if n != low and e.get("kind") == "raw" and e.get("event") == f.get("event") and
                e.get("umask") and not (e["umask"] & ~um) and e["umask"] != um and
                not (e.get("msr") or e.get("cmask") or e.get("edge") or e.get("inv"))]

    def total_of(self, low):
        """The count low is a part of, if the names say so (not a total
        made of its parts)."""
        total = self._total_of(low)
        return None if total is None or self.union_parts(total) else total

    def _total_of(self, low):
        if low in CHAINS:
            return CHAINS[low]
        if "." in low:
            prefix, sub = low.split(".", 1)
            words = sub.split("_")
            cands = ["%s.all_%s" % (prefix, words[-1])] if len(words) > 1 else []
            cands += [prefix + ".all", prefix + ".any", prefix + ".all_branches"]
            for c in cands:
                if c != low and c in self.names and (not self.is_cycles(low) or self.is_cycles(c)):
                    return c
            return None
        # Arm: A_B is a part of A (the longest such A this vector holds)
        best = None
        for n in self.names:
            if "." not in n and low.startswith(n + "_") and (best is None or len(n) > len(best)):
                best = n
        if best in ("stall_slot",):
            return None
        return best

    def count(self, low):
        if low not in self.memo:
            self.memo[low] = self._count(low)
        return self.memo[low]

    def _count(self, low):
        c, f = self.cycles, self.fact(low)
        kind = f.get("kind")
        if low in CYCLES or (kind == "fixed" and f.get("fixed") == 1):
            return c
        if low in INSTRUCTIONS or (kind == "fixed" and f.get("fixed", 0) == 0):
            if low != "instructions":
                return self.count("instructions")
            return round(c * self.u(0.2, min(3.5, self.width * 0.9)))
        if low in SLOTS or (kind == "fixed" and f.get("fixed") == 3):
            return self.width * c
        if low in REF or (kind == "fixed" and f.get("fixed") == 2):
            return self.ref
        if low.startswith("msr/tsc"):
            return round(TSC_HZ * self.secs)
        if low == "cpu_clk_unhalted.ref_xclk":
            return round(self.ref / 25)
        if low == "cpu_clk_unhalted.one_thread_active":
            x = self.count("cpu_clk_unhalted.ref_xclk")
            return round(x * self.u(0.1, 0.9)) if self.smt else x
        if low in ("cpu_clk_unhalted.distributed", "cpu_clk_unhalted.thread_any"):
            if not self.smt:
                return c
            return round(c * (self.u(0.5, 0.95) if "distributed" in low else self.u(1.0, 2.0)))
        if low.startswith("topdown-"):
            what = low[len("topdown-"):]
            if what in L1:
                self.block(["topdown-" + w for w in L1], self.width * c)
                return self.memo[low]
            if what in L2:
                return round(self.count("topdown-" + L2[what]) * self.u(0.0, 1.0))
        m = re.match(r"^(topdown_\w+)\.all(_p)?$", low)
        if m and m.group(1).upper() in ATOM_L1:
            names = [a.lower() + ".all" for a in ATOM_L1]
            self.block(names, self.width * c)
            for n in names:
                self.memo[n + "_p"] = self.memo[n]
            return self.memo[low]
        if low in AMD_SLOTS:
            self.block(list(AMD_SLOTS[:3]), self.width * c)
            self.memo[AMD_SLOTS[3]] = 0
            if self.smt:  # the other thread's share, out of the backend's
                self.memo[AMD_SLOTS[3]] = round(self.memo[AMD_SLOTS[2]] * self.u(0, 0.5))
                self.memo[AMD_SLOTS[2]] -= self.memo[AMD_SLOTS[3]]
            return self.memo[low]
        return self._count_arm(low) if self._arm(low) else self._count_part(low)

    def _arm(self, low):
        return low in ("stall_slot", "stall_slot_frontend", "stall_slot_backend", "op_spec",
                       "op_retired", "stall_frontend", "stall_backend", "inst_spec")

    def _count_arm(self, low):
        c, w = self.cycles, self.width
        if low.startswith("stall_slot"):
            fe, be = self.u(0.05, 0.4), self.u(0.05, 0.5)
            self.memo["stall_slot_frontend"] = round(fe * w * c)
            self.memo["stall_slot_backend"] = round(be * w * c)
            self.memo["stall_slot"] = (self.memo["stall_slot_frontend"] +
                                       self.memo["stall_slot_backend"])
            if self.n2_extra:  # one slot more a cycle in both (perf takes it off)
                self.memo["stall_slot_frontend"] += c
                self.memo["stall_slot"] += c
            return self.memo[low]
        stalled = self.count("stall_slot") - (c if self.n2_extra else 0)
        if low == "op_spec":
            return round((w * c - stalled) * self.u(0.5, 1.0))
        if low == "op_retired":
            return round(self.count("op_spec") * self.u(0.6, 1.0))
        if low == "inst_spec":
            return round(self.count("op_spec") * self.u(0.7, 1.0))
        side = "frontend" if low == "stall_frontend" else "backend"
        slots = self.count("stall_slot_" + side) - (c if self.n2_extra and side == "frontend"
                                                    else 0)
        return round(slots / w * self.u(0.2, 1.0))

    def _count_part(self, low):
        if (low.endswith("_spec") and "." not in low and low not in NOT_MIX and
                "inst_spec" in self.names):
            n_mix = sum(1 for n in self.names if n.endswith("_spec") and "." not in n and
                        n not in NOT_MIX)
            return round(self.count("inst_spec") * self.u(0, 1.0) / max(n_mix, 1))
        if self.union_parts(low):
            return self.union(low, self.fact(low)["umask"])
        total = self.total_of(low)
        if total is not None:
            return round(self.count(total) * self.u(0.0, 1.0))
        return self.free(low)

    def resolve(self, ev):
        """(base, cmask, inv, edge): a raw event as the plain event of the
        same encoding and its threshold terms, so that two spellings of one
        encoding (IDQ.MS_CYCLES_ANY and cpu_core/IDQ.MS_UOPS,cmask=1/) are
        one count; None where the table has no such plain event."""
        f, t = self.fact(ev.low), ev.terms
        if f.get("kind") != "raw" or "offcore_rsp" in t:
            return None
        um = t.get("umask", f.get("umask") or 0)
        cm, inv, edge = (t.get(k, f.get(k) or 0) for k in ("cmask", "inv", "edge"))
        for n, e in self.facts.items():
            if e.get("kind") == "raw" and e.get("event") == f.get("event") and \
                    (e.get("umask") or 0) == um and \
                    not (e.get("cmask") or e.get("inv") or e.get("edge")) and \
                    all(e.get(k) == f.get(k) for k in ("msr", "msr_value", "any")):
                return n, cm, inv, edge
        return None

    def value(self, ev):
        """The count of one event of an expression."""
        r = self.resolve(ev)
        if r is None:
            return self.with_terms(ev) if (ev.terms or ev.mods) else self.count(ev.low)
        key = ("enc",) + r + (ev.mods,)
        if key not in self.memo:
            if ev.mods and ev.mods in "ku":  # the kernel's or the user's part
                self.memo[key] = round(self.encoded(*r) * self.u(0.0, 1.0))
            else:
                self.memo[key] = self.encoded(*r)
        return self.memo[key]

    def encoded(self, base, cm, inv, edge):
        if not (cm or inv or edge):
            return self.count(base)
        key = ("enc", base, cm, inv, edge, "")
        if key not in self.memo:
            if inv and cm:
                v = self.cycles - self.threshold(base, cm)
            elif edge:
                v = round(self.threshold(base, cm or 1) * self.u(0.0, 0.5))
            else:
                v = self.threshold(base, cm)
            self.memo[key] = v
        return self.memo[key]

    def with_terms(self, ev):
        """A count with cmask/edge/inv/umask terms (or :k, :u)."""
        c, base, t = self.cycles, ev.low, ev.terms
        key = (base, tuple(sorted(t.items())), ev.mods)
        if key in self.memo:
            return self.memo[key]
        if "umask" in t:
            v = self.union(base, t["umask"])
        elif "inv" in t and t.get("cmask"):
            v = c - self.threshold(base, t["cmask"])
        elif "edge" in t:
            v = round(self.threshold(base, t.get("cmask", 1)) * self.u(0.0, 0.5))
        elif "cmask" in t:
            v = self.threshold(base, t["cmask"])
        elif ev.mods and ev.mods in "ku":  # the kernel's or the user's part
            v = round(self.count(base) * self.u(0.0, 1.0))
        else:
            v = self.free(ev.low + str(t))
        self.memo[key] = v
        return v

    def threshold(self, base, k):
        """Cycles with at least k of base: t^k of the cycles base spans,
        t <= 0.5, so that they fall with k and their sum stays within base."""
        tk = ("threshold-t", base)
        if tk not in self.memo:
            self.memo[tk] = self.u(0.05, 0.5)
        v = self.count(base)
        if self.is_cycles(base):
            return round(min(v, self.cycles) * self.memo[tk] ** (k - 1) * self.u(0.9, 1.0)
                         ) if k > 1 else v
        return round(min(self.cycles, v) * self.memo[tk] ** k)

    def union(self, base, umask):
        """event=E,umask=U: the table's events of E whose umasks U covers."""
        code = self.fact(base).get("event")
        parts = [n for n, e in self.facts.items()
                 if e.get("event") == code and code is not None and e.get("umask")
                 and not (e["umask"] & ~umask) and e.get("kind") == "raw" and
                 not e.get("cmask") and not e.get("edge") and not e.get("inv") and
                 not e.get("msr") and not self.union_parts(n)]
        vals = [self.count(p) for p in parts] or [self.free(base)]
        if self.is_cycles(base):
            return round(min(self.cycles, max(vals) + sum(vals) * self.u(0, 0.3)))
        return sum(vals)


class Recording:
    def __init__(self):
        self.text = ""
        self.vectors = []   # per interval: {expression name: count} of the model's thread


def needed(table, unit):
    """Event objects every metric of the core type's set names."""
    metrics = {m["name"]: m["expr"] for m in table["metrics"] if (m.get("pmu") or None) == unit}
    mt = perf_metrics.MetricTable(metrics)
    names = set()
    for m in metrics:
        names |= mt.events(m)
    for n in list(names):
        if n.startswith(("source_count(", "aggr_nr(")):
            names.discard(n)
            names.add(n[n.index("(") + 1:-1])
    return [Event(n, unit) for n in sorted(names)]


def widths(table, unit):
    """The slots per cycle of the table's core type: the N of its own
    slots metric ("4 * tma_info_core_core_clks", Skylake), its E-core
    Top-Down ("TOPDOWN_FE_BOUND.ALL / (5 * CPU_CLK_UNHALTED.CORE)") or AMD's
    total_dispatch_slots ("6 * ls_not_halted_cyc"); else, for the cores
    whose slots are the TOPDOWN.SLOTS counter, Intel's issue widths (Sunny
    and Willow Cove 5, Golden and Redwood Cove 6, Lion Cove and Skymont 8)."""
    metrics = {m["name"]: m["expr"] for m in table["metrics"]
               if (m.get("pmu") or None) in (None, unit)}
    for name in ("tma_info_thread_slots", "tma_frontend_bound", "total_dispatch_slots"):
        m = re.search(r"(\d+) \* (?:tma_info_core_core_clks|(?:cpu_atom@)?CPU_CLK_UNHALTED"
                      r"\.CORE|ls_not_halted_cyc)", metrics.get(name, ""))
        if m:
            return int(m.group(1))
    name = table.get("_name", "")
    if name in ("icelake", "icelakex", "tigerlake"):
        return 5
    if name in ("arrowlake", "lunarlake", "clearwaterforest"):
        return 8
    return 6


def recording(table, unit, rng, smt, interval, cpuid, slots=None, both=False):
    """A perf stat -x, recording (plain: one interval; -I: three) of every
    event the core type's metrics name, in random order; on a hybrid with
    both, the other core type's too, as perf stat -a prints both there
    (without, as perf stat --cputype prints one)."""
    units = [unit] + ([u for u in ("cpu_core", "cpu_atom") if u != unit] if unit and both else [])
    events = {u: needed(table, u) for u in units}
    n2_extra = cpuid is not None and cpuid.lower().startswith("0x00000000410fd49") and \
        int(cpuid, 16) & 0xf < 3 and (int(cpuid, 16) >> 20) & 0xf == 0
    arm = table.get("vendor") == "arm"
    rec = Recording()
    lines, t = [], 0.0
    for i in range(3 if interval else 1):
        secs = rng.uniform(0.2, 2.0)
        t += secs
        printed = {"duration_time": round(secs * 1e9)}
        for u in units:
            w = (slots or arm_width(table)) if arm else widths(table, u)
            th = Thread(table, u, rng, smt, secs, w, n2_extra)
            th.names = {e.low for e in events[u] if not e.retire}
            counts = {}
            for ev in events[u]:
                if ev.retire:
                    continue
                if ev.low == "duration_time":  # as printed, in ns
                    counts[ev.expr_name] = printed["duration_time"] / 1e9
                    continue
                v = th.value(ev)
                counts[ev.expr_name] = v
                printed.setdefault(ev.printed.lower(), (ev.printed, v))
            for ev in events[u]:
                if ev.retire:
                    counts[ev.expr_name] = retire_latency(table, ev)
            if u == unit:
                rec.vectors.append(counts)
        rows = [(k, v) for k, v in printed.items()]
        rng.shuffle(rows)
        for k, v in rows:
            if k == "duration_time":
                name, value, unit_col = "duration_time", v, "ns"
            else:
                (name, value), unit_col = v, ""
            line = "%d,%s,%s,%d,100.00,," % (value, unit_col, name, round(secs * 1e9))
            lines.append(("%.9f," % t if interval else "") + line)
    rec.text = "\n".join(lines) + "\n"
    return rec


def retire_latency(table, ev):
    """perf stat's figure for "EV:R" without --record-tpebs: the table's
    RetirementLatencyMean (rounded), 0 where the JSON has none."""
    want = canonical(ev.expr_name).lower()
    for e in table["events"]:
        if e.get("kind") == "retire_latency" and canonical(e["name"]).lower() == want:
            return float(e.get("retire_lat", 0))
    return 0.0
