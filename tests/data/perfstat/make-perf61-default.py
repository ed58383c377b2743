#!/usr/bin/env python3
"""make-perf61-default.py - write what perf 6.1's default `perf stat` prints
on an Ice Lake (perf metrics level 1) and a Sapphire Rapids (levels 1 and
2), from counts chosen here; the files icl-default-perf6.1.txt and
spr-default-perf6.1.txt are its output (test 105).

On a CPU with perf metrics, perf 5.10-6.2's `perf stat` with no -e adds
the group {slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,
topdown-be-bound} (and topdown-heavy-ops, -br-mispredict, -fetch-lat,
-mem-bound where the CPU has them: tools/perf/arch/x86/util/evlist.c) and
prints its built-in Top-Down (tools/perf/util/stat-shadow.c before perf
6.3): no INT_MISC.UOP_DROPPING or INT_MISC.CLEARS_COUNT is recorded or
used.  Each figure is one topdown-* count over the sum of the four
level-1 counts (td_metric_ratio()); the level-2 siblings are differences:
light = retiring - heavy, machine clears = bad spec - branch mispredict,
fetch bandwidth = frontend - fetch latency, core = backend - memory.
perf 6.0-6.2 spell them capitalised ("Frontend Bound"); 5.x in lower case.

The kernel reports each topdown-* count as slots * k / 0xff, k the 8-bit
fraction of PERF_METRICS (arch/x86/events/intel/core.c,
icl_get_metrics_event_value(): mul_u64_u32_div, truncating), so the
counts here are made that way, with the level-1 fractions summing to 0xff.

Layout, perf 6.1's stat-display.c: counts "%'18.0f" (task-clock
"%'18.2f" msec), a space, the unit padded to 4, a space, the event padded
to 32 (EVNAME_LEN); each figure " # " then its format then a space and
its name padded to METRIC_LEN (35) less what came before; the built-in
figures: CPUs utilized "%8.3f", /sec (K, M, G) "%8.3f", GHz "%8.3f",
insn per cycle "%7.2f ", of all branches "%7.2f%%", Top-Down "%8.1f%%".

Usage: make-perf61-default.py DIR  (writes both files into DIR)
"""
import os
import sys

METRIC_LEN = 35


def group(n):
    return f"{n:,}"


def metric(fmt, value, name):
    text = " # " + (fmt % value)
    return text + " " + name.ljust(METRIC_LEN - len(text) - 1)


def count_line(count, event, metrics=(), msec=False):
    if msec:
        head = f"{count:,.2f}".rjust(18) + " msec " + event.ljust(32)
    else:
        head = group(count).rjust(18) + " " + "    " + " " + event.ljust(32)
    if not metrics:
        return head + " " * METRIC_LEN
    return head + "".join(metrics)


def per_sec(count, task_ns):
    """stat-shadow.c: count per second of task-clock, convert_unit_double()."""
    v = count * 1e9 / task_ns
    unit = ""
    for u in ("K", "M", "G"):
        if v > 1000.0:
            v /= 1000.0
            unit = u
    return metric("%8.3f", v, unit + "/sec")


def td_counts(slots, k):
    """topdown-* counts as the kernel makes them from 8-bit fractions."""
    return {name: slots * frac // 0xff for name, frac in k.items()}


def write(path, cpu, c, level2):
    task_ns, wall = c["task_ns"], c["wall"]
    td = c["td"]
    s4 = td["retiring"] + td["bad-spec"] + td["fe-bound"] + td["be-bound"]

    def r(name):
        return 100.0 * td[name] / s4

    lines = ["", f" Performance counter stats for '{c['command']}':", ""]
    lines.append(count_line(task_ns / 1e6, "task-clock",
                            [metric("%8.3f", task_ns / 1e9 / wall, "CPUs utilized")], msec=True))
    for ev in ("context-switches", "cpu-migrations", "page-faults"):
        lines.append(count_line(c[ev], ev, [per_sec(c[ev], task_ns)]))
    lines.append(count_line(c["cycles"], "cycles",
                            [metric("%8.3f", c["cycles"] / task_ns, "GHz")]))
    lines.append(count_line(c["instructions"], "instructions",
                            [metric("%7.2f ", c["instructions"] / c["cycles"], "insn per cycle")]))
    lines.append(count_line(c["branches"], "branches", [per_sec(c["branches"], task_ns)]))
    lines.append(count_line(c["branch-misses"], "branch-misses",
                            [metric("%7.2f%%", 100.0 * c["branch-misses"] / c["branches"],
                                    "of all branches")]))
    lines.append(count_line(c["slots"], "slots", [per_sec(c["slots"], task_ns)]))
    for ev, name in (("retiring", "Retiring"), ("bad-spec", "Bad Speculation"),
                     ("fe-bound", "Frontend Bound"), ("be-bound", "Backend Bound")):
        lines.append(count_line(td[ev], "topdown-" + ev, [metric("%8.1f%%", r(ev), name)]))
    if level2:
        for ev, name, parent, sibling in (
                ("heavy-ops", "Heavy Operations", "retiring", "Light Operations"),
                ("br-mispredict", "Branch Mispredict", "bad-spec", "Machine Clears"),
                ("fetch-lat", "Fetch Latency", "fe-bound", "Fetch Bandwidth"),
                ("mem-bound", "Memory Bound", "be-bound", "Core Bound")):
            lines.append(count_line(td[ev], "topdown-" + ev,
                                    [metric("%8.1f%%", r(ev), name),
                                     metric("%8.1f%%", r(parent) - r(ev), sibling)]))
    lines += ["", f" {wall:17.9f} seconds time elapsed", "",
              f" {c['user']:17.9f} seconds user", f" {c['sys']:17.9f} seconds sys", "", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print(f"{path}: {cpu}", file=sys.stderr)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    # Ice Lake client, 5 slots per cycle (TOPDOWN.SLOTS = 5 x unhalted
    # cycles), 3.6 GHz for 2.5 s of one thread.
    icl = {"command": "./workload", "task_ns": 2501234567, "wall": 2.504567890,
           "user": 2.480000000, "sys": 0.020000000,
           "context-switches": 12, "cpu-migrations": 1, "page-faults": 135,
           "cycles": 9004444441, "instructions": 12345678901,
           "branches": 2012345678, "branch-misses": 41234567}
    icl["slots"] = 5 * icl["cycles"]
    icl["td"] = td_counts(icl["slots"], {"retiring": 92, "bad-spec": 23,
                                         "fe-bound": 64, "be-bound": 76})
    # Sapphire Rapids, 6 slots per cycle, levels 1 and 2 (each level-2
    # fraction below its parent's).
    spr = {"command": "./workload", "task_ns": 1003456789, "wall": 1.004567891,
           "user": 0.996000000, "sys": 0.008000000,
           "context-switches": 3, "cpu-migrations": 0, "page-faults": 1021,
           "cycles": 2604567890, "instructions": 3123456789,
           "branches": 612345678, "branch-misses": 9876543}
    spr["slots"] = 6 * spr["cycles"]
    spr["td"] = td_counts(spr["slots"], {"retiring": 61, "bad-spec": 38,
                                         "fe-bound": 87, "be-bound": 69,
                                         "heavy-ops": 9, "br-mispredict": 33,
                                         "fetch-lat": 52, "mem-bound": 40})
    write(os.path.join(out, "icl-default-perf6.1.txt"), "Ice Lake", icl, False)
    write(os.path.join(out, "spr-default-perf6.1.txt"), "Sapphire Rapids", spr, True)


if __name__ == "__main__":
    main()
