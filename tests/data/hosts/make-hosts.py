#!/usr/bin/env python3
"""Write the host fixtures of tests/data/hosts/ from the fact table below.

Each fixture holds the files stackd's CPU detection reads on a Linux host
(lib/perfdb/host_cpu_read.c): proc/cpuinfo, sys/devices/system/cpu/online,
Arm's sys/devices/system/cpu/cpu*/regs/identification/midr_el1, and the PMU
directories of sys/bus/event_source/devices/.  Where each fact comes from is
in README.md; run by hand (`python3 tests/data/hosts/make-hosts.py`) after
changing the table, and commit the result.  Output is deterministic.
"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

# PMUs every kernel registers before any CPU PMU (kernel/events/core.c
# perf_event_init(): software = PERF_TYPE_SOFTWARE, cpu_clock and task_clock
# the first dynamic ids >= PERF_TYPE_MAX (6), tracepoint = PERF_TYPE_TRACEPOINT,
# kprobe and uprobe (Debian sets CONFIG_KPROBE_EVENTS and CONFIG_UPROBE_EVENTS)
# the next two; kernel/events/hw_breakpoint.c: breakpoint = PERF_TYPE_BREAKPOINT).
# None is a core PMU: no "cpus" file, not named "cpu".
BASE_PMUS = [("software", 1), ("tracepoint", 2), ("breakpoint", 5), ("cpu_clock", 6),
             ("task_clock", 7), ("kprobe", 8), ("uprobe", 9)]

# Intel's sysfs events (arch/x86/events/intel/core.c).  Non-hybrid files end
# in a newline (events_sysfs_show(): "%s\n"); a hybrid PMU's do not
# (events_hybrid_sysfs_show(): "%s", its part of the ';'-separated string).
ICL_TD = {"slots": "event=0x00,umask=0x4", "topdown-retiring": "event=0x00,umask=0x80",
          "topdown-bad-spec": "event=0x00,umask=0x81", "topdown-fe-bound": "event=0x00,umask=0x82",
          "topdown-be-bound": "event=0x00,umask=0x83"}                  # icl_td_events_attrs
GLC_TD = dict(ICL_TD, **{"topdown-heavy-ops": "event=0x00,umask=0x84",
                         "topdown-br-mispredict": "event=0x00,umask=0x85",
                         "topdown-fetch-lat": "event=0x00,umask=0x86",
                         "topdown-mem-bound": "event=0x00,umask=0x87"})  # glc_td_events_attrs
ADL_ATOM_TD = {"topdown-retiring": "event=0xc2,umask=0x0", "topdown-bad-spec": "event=0x73,umask=0x0",
               "topdown-fe-bound": "event=0x71,umask=0x0",
               "topdown-be-bound": "event=0x74,umask=0x0"}              # adl_hybrid_events_attrs
LNL_ATOM_TD = {"topdown-retiring": "event=0xc2,umask=0x02", "topdown-bad-spec": "event=0x73,umask=0x0",
               "topdown-fe-bound": "event=0x9c,umask=0x01",
               "topdown-be-bound": "event=0xa4,umask=0x02"}             # lnl_hybrid_events_attrs
INTEL_FORMAT = {"event": "config:0-7", "umask": "config:8-15"}          # intel/core.c PMU_FORMAT_ATTR
AMD_FORMAT = {"event": "config:0-7,32-35", "umask": "config:8-15"}      # amd/core.c PMU_FORMAT_ATTR


# The budget files (daemon/plan/plan_detect.c reads them): the sysctl
# (kernel/watchdog.c), SMT (drivers/base/cpu.c smt/active), the release
# and the kernel config lines that name the hard-lockup detector
# (lib/Kconfig.debug: x86 builds the perf one, arm64 without pseudo-NMI the
# buddy one).  Debian names its releases "7.2.12-amd64", "7.2.12-arm64".
def budget_files(arch, detector, smt=None, cmdline=None, config=True):
    files = {"proc/sys/kernel/nmi_watchdog": "1\n" if detector else "0\n",
             "proc/sys/kernel/osrelease": "7.2.12-%s\n" % arch}
    if config and detector:
        files["boot/config-7.2.12-%s" % arch] = (
            "CONFIG_HARDLOCKUP_DETECTOR=y\n"
            "CONFIG_HARDLOCKUP_DETECTOR_%s=y\n"
            "CONFIG_HARDLOCKUP_DETECTOR_COUNTS_HRTIMER=y\n" % detector.upper())
    if smt is not None:
        files["sys/devices/system/cpu/smt/active"] = "%d\n" % smt
    if cmdline is not None:
        files["proc/cmdline"] = cmdline + "\n"
    return files


def intel(name, model, stepping, model_name, ncpu, pmu_name, td=None, family=6, extra=None,
          flags=None, files=None):
    """A non-hybrid Intel host: one "cpu" PMU, PERF_TYPE_RAW (4)."""
    pmus = [dict(name="cpu", type=4, pmu_name=pmu_name, events=td, format=INTEL_FORMAT)]
    return dict(name=name, x86=("GenuineIntel", family, model, stepping, model_name), ncpu=ncpu,
                pmus=pmus, extra=(extra or []) + [("msr", 10)], flags=flags, files=files)


def hybrid(name, model, stepping, model_name, core, atom, ncpu, pmu_name, atom_td):
    """An Intel hybrid: cpu_core is registered as PERF_TYPE_RAW, cpu_atom
    first, with a dynamic id: the first free one >= 6, 10 after the base PMUs
    (arch/x86/events/core.c init_hw_perf_events(), an early_initcall)."""
    pmus = [dict(name="cpu_atom", type=10, cpus=atom, pmu_name=pmu_name, events=atom_td,
                 format=INTEL_FORMAT, hybrid=True),
            dict(name="cpu_core", type=4, cpus=core, pmu_name=pmu_name, events=GLC_TD,
                 format=INTEL_FORMAT, hybrid=True)]
    return dict(name=name, x86=("GenuineIntel", 6, model, stepping, model_name), ncpu=ncpu,
                pmus=pmus, extra=[("msr", 11)])


def amd(name, family, model, stepping, model_name, ncpu, flags=None, files=None):
    pmus = [dict(name="cpu", type=4, format=AMD_FORMAT)]
    return dict(name=name, x86=("AuthenticAMD", family, model, stepping, model_name), ncpu=ncpu,
                pmus=pmus, extra=[("msr", 10)], flags=flags, files=files)


def arm(name, midrs, pmus, ncpu, files=None):
    """midrs: [(first cpu, last cpu, MIDR)]; pmus: [(name, type, cpus)]."""
    return dict(name=name, midrs=midrs, ncpu=ncpu,
                pmus=[dict(name=n, type=t, cpus=c) for n, t, c in pmus], extra=[], files=files)


HOSTS = [
    intel("skylake-sp", 0x55, 4, "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", 56, "skylake"),
    intel("cascadelake", 0x55, 7, "Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz", 56, "skylake"),
    intel("icelake-sp", 0x6A, 6, "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", 80, "icelake",
          ICL_TD),
    intel("sapphirerapids", 0x8F, 8, "Intel(R) Xeon(R) Platinum 8480+", 112, "sapphire_rapids",
          GLC_TD, extra=[("uncore_imc_0", 12, "0")]),
    intel("emeraldrapids", 0xCF, 2, "INTEL(R) XEON(R) PLATINUM 8592+", 128, "sapphire_rapids",
          GLC_TD),
    intel("graniterapids", 0xAD, 1, "Intel(R) Xeon(R) 6980P", 256, "granite_rapids", GLC_TD),
    intel("sierraforest", 0xAF, 3, "Intel(R) Xeon(R) 6780E", 144, "crestmont"),
    intel("clearwaterforest", 0xDD, 0, "Intel(R) Xeon(R) 6+ 6990E", 288, "darkmont"),
    hybrid("alderlake", 0x97, 2, "12th Gen Intel(R) Core(TM) i9-12900K", "0-15", "16-23", 24,
           "alderlake_hybrid", ADL_ATOM_TD),
    hybrid("raptorlake", 0xB7, 1, "13th Gen Intel(R) Core(TM) i9-13900K", "0-15", "16-31", 32,
           "alderlake_hybrid", ADL_ATOM_TD),
    hybrid("meteorlake", 0xAA, 4, "Intel(R) Core(TM) Ultra 7 155H", "0-11", "12-21", 22,
           "meteorlake_hybrid", ADL_ATOM_TD),
    hybrid("arrowlake", 0xC6, 2, "Intel(R) Core(TM) Ultra 9 285K", "0-7", "8-23", 24,
           "arrowlake_hybrid", LNL_ATOM_TD),
    hybrid("lunarlake", 0xBD, 1, "Intel(R) Core(TM) Ultra 7 258V", "0-3", "4-7", 8,
           "lunarlake_hybrid", LNL_ATOM_TD),
    intel("skylake", 0x5E, 3, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz", 8, "skylake",
          files=budget_files("amd64", "perf", smt=1)),
    # A cloud guest on Ice Lake-SP whose virtual PMU has no perf metrics:
    # the kernel shows no events/slots (td_is_visible()).
    intel("icelake-sp-guest", 0x6A, 6, "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", 8,
          "icelake", flags="hypervisor", files=budget_files("amd64", "perf", smt=1)),
    intel("icelake", 0x7E, 5, "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz", 8, "icelake", ICL_TD),
    # No perf table in Linux 7.2.12: the generic model's hosts.
    intel("unknown-intel", 0x01, 0, "Genuine Intel(R) CPU 0000%@", 128, "panthercove", GLC_TD,
          family=19),
    intel("bartlettlake", 0xD7, 0, "Intel(R) Core(TM) 9 273PQE", 24, "generic_arch_v5+"),
    # A guest without a virtual PMU: the kernel registers no "cpu" PMU.
    dict(name="vm-nopmu", x86=("GenuineIntel", 6, 0x8F, 8,
                               "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz"),
         ncpu=8, pmus=[], extra=[("msr", 10)]),
    amd("zen2", 23, 0x31, 0, "AMD EPYC 7742 64-Core Processor", 128),
    amd("zen3", 25, 0x01, 1, "AMD EPYC 7763 64-Core Processor", 128, flags="perfctr_core"),
    amd("zen3-client", 25, 0x21, 0, "AMD Ryzen 9 5950X 16-Core Processor", 32),
    amd("zen4", 25, 0x11, 1, "AMD EPYC 9654 96-Core Processor", 192,
        flags="perfctr_core perfmon_v2", files=budget_files("amd64", "perf", smt=1)),
    # A KVM guest on Zen 4 whose CPU model hides PerfCtrExtCore: the kernel
    # runs the 4 legacy counters (amd/core.c); the perf watchdog takes one.
    amd("zen4-guest", 25, 0x11, 1, "AMD EPYC 9654 96-Core Processor", 8, flags="hypervisor",
        files=budget_files("amd64", "perf", smt=0)),
    amd("zen5", 26, 0x02, 1, "AMD EPYC 9755 128-Core Processor", 256),
    amd("zen5-dense", 26, 0x11, 0, "AMD EPYC 9965 192-Core Processor", 384),
    arm("neoverse-n1", [(0, 79, 0x413fd0c1)], [("armv8_pmuv3_0", 10, "0-79")], 80),
    arm("neoverse-n2", [(0, 127, 0x410fd490)], [("armv8_pmuv3_0", 10, "0-127")], 128),
    arm("neoverse-v1", [(0, 63, 0x411fd401)], [("armv8_pmuv3_0", 10, "0-63")], 64),
    arm("neoverse-v2", [(0, 71, 0x410fd4f0)], [("armv8_pmuv3_0", 10, "0-71")], 72,
        files=budget_files("arm64", "perf", cmdline="irqchip.gicv3_pseudo_nmi=1 quiet",
                           config=False)),
    # The buddy hard-lockup detector: kernel.nmi_watchdog = 1, no counter held.
    arm("neoverse-n2-buddy", [(0, 127, 0x410fd490)], [("armv8_pmuv3_0", 10, "0-127")], 128,
        files=budget_files("arm64", "buddy")),
    arm("neoverse-v2-dt", [(0, 71, 0x410fd4f0)], [("armv8_neoverse_v2", 10, "0-71")], 72),
    arm("neoverse-v3", [(0, 63, 0x410fd830)], [("armv8_pmuv3_0", 10, "0-63")], 64),
    arm("neoverse-n3", [(0, 63, 0x410fd8e0)], [("armv8_pmuv3_0", 10, "0-63")], 64),
    arm("ampereone", [(0, 191, 0xc00fac30)], [("armv8_pmuv3_0", 10, "0-191")], 192),
    arm("rk3588", [(0, 3, 0x412fd050), (4, 7, 0x414fd0b0)],
        [("armv8_cortex_a55", 10, "0-3"), ("armv8_cortex_a76", 11, "4-7")], 8),
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def x86_cpuinfo(vendor, family, model, stepping, model_name, ncpu, flags=None):
    """arch/x86/kernel/cpu/proc.c show_cpuinfo(): the fields we read, in its
    order, decimal; one blank line ends a block.  flags: only the words
    the budget reads (x86_cap_flags names, arch/x86/include/asm/cpufeatures.h)."""
    fl = "flags\t\t: %s\n" % flags if flags else ""
    return "".join("processor\t: %d\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %u\n"
                   "model name\t: %s\nstepping\t: %d\n%s\n"
                   % (cpu, vendor, family, model, model_name, stepping, fl)
                   for cpu in range(ncpu))


def arm_midr(midrs, cpu):
    return next(m for lo, hi, m in midrs if lo <= cpu <= hi)


def arm_cpuinfo(midrs, ncpu):
    """arch/arm64/kernel/cpuinfo.c c_show(): the MIDR fields and their formats."""
    out = []
    for cpu in range(ncpu):
        m = arm_midr(midrs, cpu)
        out.append("processor\t: %d\nCPU implementer\t: 0x%02x\nCPU architecture: 8\n"
                   "CPU variant\t: 0x%x\nCPU part\t: 0x%03x\nCPU revision\t: %d\n\n"
                   % (cpu, m >> 24, (m >> 20) & 0xf, (m >> 4) & 0xfff, m & 0xf))
    return "".join(out)


def write_pmu(dev, p):
    d = os.path.join(dev, p["name"])
    write(os.path.join(d, "type"), "%d\n" % p["type"])
    if "cpus" in p:
        write(os.path.join(d, "cpus"), p["cpus"] + "\n")
    if p.get("pmu_name"):
        write(os.path.join(d, "caps", "pmu_name"), p["pmu_name"] + "\n")
    nl = "" if p.get("hybrid") else "\n"
    for ev, text in sorted((p.get("events") or {}).items()):
        write(os.path.join(d, "events", ev), text + nl)
    for fmt, text in sorted((p.get("format") or {}).items()):
        write(os.path.join(d, "format", fmt), text + "\n")


def make(h):
    root = os.path.join(HERE, h["name"])
    shutil.rmtree(root, ignore_errors=True)
    ncpu = h["ncpu"]
    write(os.path.join(root, "sys/devices/system/cpu/online"), "0-%d\n" % (ncpu - 1))
    if "x86" in h:
        write(os.path.join(root, "proc/cpuinfo"), x86_cpuinfo(*h["x86"], ncpu, h.get("flags")))
    else:
        write(os.path.join(root, "proc/cpuinfo"), arm_cpuinfo(h["midrs"], ncpu))
        for lo, _, m in h["midrs"]:   # the first CPU of each core type
            write(os.path.join(root, "sys/devices/system/cpu/cpu%d/regs/identification/midr_el1"
                               % lo), "0x%016x\n" % m)
    dev = os.path.join(root, "sys/bus/event_source/devices")
    for name, t in BASE_PMUS:
        write(os.path.join(dev, name, "type"), "%d\n" % t)
    for e in h["extra"]:
        write(os.path.join(dev, e[0], "type"), "%d\n" % e[1])
        if len(e) > 2:   # an uncore PMU: a cpumask, not a cpus file
            write(os.path.join(dev, e[0], "cpumask"), e[2] + "\n")
    for p in h["pmus"]:
        write_pmu(dev, p)
    for rel, text in sorted((h.get("files") or {}).items()):
        write(os.path.join(root, rel), text)


if __name__ == "__main__":
    for host in HOSTS:
        make(host)
