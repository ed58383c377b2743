#!/usr/bin/env python3
"""gen-kernel-constraints.py - the kernel's own counter constraints, for the
simulated PMU's scheduler (tests/sim/simpmu_kernel.c).

Reads the Linux source tree (7.2.12) and writes tests/sim/kernel_constraints.c:
  - the Intel event constraint tables of arch/x86/events/intel/core.c named
    in TABLES, entry by entry in the kernel's order (x86_get_event_constraints
    takes the first entry that matches), each as the kernel keys it: the
    event codes code..end, the config bits compared (cmask: what the macro
    puts there, e.g. INTEL_EVENT_CONSTRAINT the event code alone,
    INTEL_UEVENT_CONSTRAINT event and umask, FIXED_EVENT_CONSTRAINT
    X86_RAW_EVENT_MASK and the TSX bits), and the counters (idxmsk);
  - the macros' masks, evaluated from arch/x86/include/asm/perf_event.h;
  - AMD's large-increment ("pair") event codes from arch/x86/events/amd/
    core.c, amd_is_pair_event_code().
Only facts are carried over; the code that applies them is ours.

Usage: gen-kernel-constraints.py LINUX_SRC > tests/sim/kernel_constraints.c
(make sim-kernel-constraints LINUX_SRC=...).  Run by hand when the pinned
kernel changes; the output is committed.
"""
import os
import re
import sys

VERSION = "Linux 7.2.12"

# The tables the simulator selects (simpmu_kernel.c says which CPU uses which).
TABLES = ["skl", "icl", "glc", "lnc", "pnc", "grt", "skt", "arw"]

# Each macro: (arguments, cmask expression, index of the counter mask
# argument, how the counter mask becomes idxmsk).
MACROS = {
    "FIXED_EVENT_CONSTRAINT": ("c,n", "FIXED_EVENT_FLAGS", "fixed"),
    "METRIC_EVENT_CONSTRAINT": ("c,n", "INTEL_ARCH_EVENT_MASK", "metric"),
    "INTEL_EVENT_CONSTRAINT": ("c,n", "ARCH_PERFMON_EVENTSEL_EVENT", "gp"),
    "INTEL_EVENT_CONSTRAINT_RANGE": ("c,e,n", "ARCH_PERFMON_EVENTSEL_EVENT", "gp"),
    "INTEL_UEVENT_CONSTRAINT": ("c,n", "INTEL_ARCH_EVENT_MASK", "gp"),
    "INTEL_UBIT_EVENT_CONSTRAINT": ("c,n", "ARCH_PERFMON_EVENTSEL_EVENT|c", "gp"),
    "INTEL_FLAGS_UEVENT_CONSTRAINT": ("c,n", "INTEL_ARCH_EVENT_MASK|X86_ALL_EVENT_FLAGS", "gp"),
    "INTEL_FLAGS_EVENT_CONSTRAINT": ("c,n", "ARCH_PERFMON_EVENTSEL_EVENT|X86_ALL_EVENT_FLAGS",
                                     "gp"),
    "INTEL_EXCLEVT_CONSTRAINT": ("c,n", "ARCH_PERFMON_EVENTSEL_EVENT", "gp"),
    "INTEL_EXCLUEVT_CONSTRAINT": ("c,n", "INTEL_ARCH_EVENT_MASK", "gp"),
    "INTEL_ALL_EVENT_CONSTRAINT": ("c,n", "X86_ALL_EVENT_FLAGS", "gp"),
}

HEADERS = ["arch/x86/include/asm/perf_event.h", "arch/x86/events/perf_event.h"]


def read_defines(src):
    defs = {}
    for h in HEADERS:
        with open(os.path.join(src, h)) as f:
            text = f.read().replace("\\\n", " ")
        for m in re.finditer(r"^#define\s+(\w+)\s+([^\n]*)$", text, re.M):
            body = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
            if body and "(" not in m.group(1):
                defs.setdefault(m.group(1), body)
    return defs


def evaluate(expr, defs, depth=0):
    if depth > 20:
        raise SystemExit("cannot evaluate " + expr)
    expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(ULL|ull|UL|ul|U|u)\b", r"\1", expr)
    expr = re.sub(r"BIT_ULL\(([^()]*)\)", r"(1 << (\1))", expr)

    def name(m):
        n = m.group(0)
        if n in defs:
            return "(%d)" % evaluate(defs[n], defs, depth + 1)
        raise SystemExit("unknown name %s" % n)
    expr = re.sub(r"\b[A-Za-z_]\w*\b", name, expr)
    return eval(expr, {"__builtins__": {}})


def table_text(core, name):
    m = re.search(r"static struct event_constraint intel_%s_event_constraints\[\][^=]*=\s*\{(.*?)"
                  r"EVENT_CONSTRAINT_END" % name, core, re.S)
    if m is None:
        raise SystemExit("no intel_%s_event_constraints in intel/core.c" % name)
    return m.group(1)


def entries(text, defs):
    out = []
    text = re.sub(r"/\*.*?\*/", lambda m: " /*%s*/ " % " ".join(m.group(0)[2:-2].split()), text,
                  flags=re.S)
    for m in re.finditer(r"(\w+)\(([^()]*)\)\s*,\s*(/\*(.*?)\*/)?", text):
        macro, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
        if macro not in MACROS:
            raise SystemExit("unknown constraint macro " + macro)
        names, cmask_expr, kind = MACROS[macro]
        names = names.split(",")
        if len(args) != len(names):
            raise SystemExit("%s: %d arguments" % (macro, len(args)))
        a = dict(zip(names, (evaluate(x, defs) for x in args)))
        code = a["c"]
        end = a.get("e", code)
        cmask = evaluate(cmask_expr.replace("|c", "|%d" % code), defs)
        if kind == "fixed":
            idx = 1 << (evaluate("INTEL_PMC_IDX_FIXED", defs) + a["n"])
        elif kind == "metric":
            idx = 1 << (evaluate("INTEL_PMC_IDX_METRIC_BASE", defs) + a["n"])
        else:
            idx = a["n"]
        comment = (m.group(4) or "").strip()
        out.append((code, end, cmask, idx, "%s(%s)%s" % (macro, ", ".join(args),
                                                        ": " + comment if comment else "")))
    return out


def amd_pair_codes(src):
    with open(os.path.join(src, "arch/x86/events/amd/core.c")) as f:
        text = f.read()
    m = re.search(r"amd_is_pair_event_code\(.*?switch \(amd_get_event_code\(hwc\)\) \{(.*?)\}",
                  text, re.S)
    if m is None:
        raise SystemExit("no amd_is_pair_event_code in amd/core.c")
    return [(int(c, 16), why.strip()) for c, why in
            re.findall(r"case (0x[0-9a-fA-F]+):\s*return true;\s*/\*(.*?)\*/", m.group(1))]


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    src = sys.argv[1]
    defs = read_defines(src)
    with open(os.path.join(src, "arch/x86/events/intel/core.c")) as f:
        core = f.read()
    out = sys.stdout
    out.write("/*\n * kernel_constraints.c - GENERATED by tests/sim/gen-kernel-constraints.py from\n"
              " * %s: arch/x86/events/intel/core.c (intel_*_event_constraints),\n"
              " * arch/x86/include/asm/perf_event.h (the masks) and arch/x86/events/amd/\n"
              " * core.c (amd_is_pair_event_code).  Facts only; do not edit.\n */\n" % VERSION)
    out.write('#include "simpmu_hw.h"\n\n')
    for name in TABLES:
        out.write("/* intel_%s_event_constraints */\n" % name)
        out.write("static const struct simpmu_kconstraint kc_%s[] = {\n" % name)
        for code, end, cmask, idx, what in entries(table_text(core, name), defs):
            out.write("\t{ 0x%x, 0x%x, 0x%x, 0x%x },\t/* %s */\n" % (code, end, cmask, idx, what))
        out.write("};\n\n")
    out.write("const struct simpmu_ktable simpmu_ktables[] = {\n")
    for name in TABLES:
        out.write('\t{ "%s", kc_%s, sizeof(kc_%s) / sizeof(kc_%s[0]) },\n' % ((name,) * 4))
    out.write("};\n\nconst size_t simpmu_n_ktables = %d;\n\n" % len(TABLES))
    out.write("/* FIXED_EVENT_FLAGS: the cmask of FIXED_EVENT_CONSTRAINT, which\n"
              " * intel_pmu_check_event_constraints() recognises */\n")
    out.write("const uint64_t simpmu_kfixed_event_flags = 0x%x;\n\n"
              % evaluate("FIXED_EVENT_FLAGS", defs))
    out.write("/* amd_is_pair_event_code(): amd_get_event_code() values */\n")
    out.write("const uint16_t simpmu_amd_pair_codes[] = {\n")
    pairs = amd_pair_codes(src)
    for code, why in pairs:
        out.write("\t0x%03x,\t/* %s */\n" % (code, why))
    out.write("};\n\nconst size_t simpmu_n_amd_pair_codes = %d;\n" % len(pairs))


main()
