#!/usr/bin/env python3
"""gen-perf-tables.py - Linux perf's own CPU tables as stackd's C facts.

Reads tools/perf/pmu-events/arch/{x86,arm64} of one Linux source tree and
writes lib/perfdb/perf_tables.c (the types of lib/perfdb/perfdb.h) and
tests/oracle/tables/perf-7.2-metrics.json (the same facts for the Python
side of the oracle).  Run by hand, output committed:

  make perf-tables LINUX_SRC=/path/to/linux-source-7.2

What is kept, and why (lib/perfdb/README.md says it for users):
  - one table per core row of perf's mapfile.csv (EventType "core"); the
    map rows in mapfile order;
  - every metric of the table whose expression names only core events
    (no "Unit", or the hybrid cpu_core / cpu_atom), perf's tool and
    generic events, the kernel's named core events (perf metrics, TSX),
    msr/tsc/, #literals and other kept metrics; a metric naming anything
    else (uncore, cstate, power, msr/aperf/ ...) is dropped, and so,
    transitively, is every metric that names a dropped one;
  - only the events the kept metrics (and their thresholds) name, plus
    the x86 fixed-counter and E-core TOPDOWN_*.ALL events, each under the
    name the expression gives it after perf's lexer (tools/perf/util/expr.l:
    backslash escapes removed, "pmu@EV,t=v@" written "pmu/EV,t=v/"); an
    event named with terms is an entry of its own, the base event's fields
    with the terms applied.
The metric JSON is taken as the tree holds it: perf's build may also
generate metrics with python (pmu-events/intel_metrics.py, amd_metrics.py,
arm64_metrics.py); those are not read here.  The expression text is kept
as in the JSON, with one exception jevents.py makes too (metric.py
_FixEscapes): a ',' or '=' left unescaped inside an @...@ event reference
is escaped, or perf's lexer would split the name there (the hybrids'
msr@tsc\\,cpu=cpu_core@ references).  perf's build also simplifies and
rewrites expressions in terms of other metrics (metric.py Simplify,
RewriteMetricsInTermsOfOthers); we keep the unsimplified text, which
computes the same values.

Python 3 standard library only.
"""
import argparse
import json
import os
import re
import sys
import textwrap

ARCH = "tools/perf/pmu-events/arch"
INTEL_CORE_C = "arch/x86/events/intel/core.c"
DEFAULT_FROM = ("Debian linux-source-7.2 7.2.12-1 (forky), "
                "linux-source-7.2_7.2.12-1_all.deb sha256 "
                "6ea01e48037651b01076e4a369d1c76051c97c3cce6f87d48b7f3a9f5fac46a8")

VENDOR = {"GenuineIntel": "PERFDB_INTEL", "AuthenticAMD": "PERFDB_AMD"}
CORE_PMUS = ("cpu", "cpu_core", "cpu_atom")
# arm_pmuv3.c names its PMU armv8_pmuv3_N (Arm expressions use it for raw codes)
ARM_CORE_PMU = re.compile(r"armv8_pmuv3(_[0-9]+)?")

# --- perf's expression lexer, tools/perf/util/expr.l -----------------------
# flex takes the longest match, the earlier rule on a tie.
_KEYWORDS = ("d_ratio", "max", "min", "if", "else", "source_count", "aggr_nr",
             "has_event", "strcmp_cpuid_str", "NaN")
_RULES = [("kw", re.compile(re.escape(k))) for k in _KEYWORDS] + [
    ("literal", re.compile(r"#[0-9a-zA-Z_.\-]+")),
    ("number", re.compile(r"([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?")),
    ("id", re.compile(r"(\\[-,=]|[0-9a-zA-Z_.:@?])+")),
    ("op", re.compile(r"[|^&<>\-+*/%(),]")),
]


def lex(text):
    """Tokens as perf's expr.l cuts them; anything else is skipped."""
    toks, i = [], 0
    while i < len(text):
        best = None
        for kind, rx in _RULES:
            m = rx.match(text, i)
            if m and m.end() > i and (best is None or m.end() > best[1]):
                best = (kind, m.end())
        if best is None:
            i += 1
            continue
        toks.append((best[0], text[i:best[1]]))
        i = best[1]
    return toks


def normalize(tok):
    """expr.l normalize(): a backslash keeps the character after it."""
    return re.sub(r"\\(.)", r"\1", tok)


def expr_refs(text):
    """The names an expression uses, normalized; strcmp_cpuid_str()'s
    argument is a CPU id, not a name."""
    toks, refs = lex(text), []
    for i, (kind, tok) in enumerate(toks):
        if kind != "id":
            continue
        if i >= 2 and toks[i - 2] == ("kw", "strcmp_cpuid_str"):
            continue
        refs.append(normalize(tok))
    return refs


def fix_escapes(text):
    """jevents.py's metric.py _FixEscapes on @...@ references only."""
    def fix(m):
        return re.sub(r"(?<!\\)([,=])", r"\\\1", m.group(0))
    return re.sub(r"[0-9a-zA-Z_.]+@[^@\s()]*@", fix, text)


# --- facts read from the tree ----------------------------------------------
def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_mapfile(path):
    """The core rows of a mapfile.csv: (cpuid, version, directory)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cols = line.split(",")
            if cols[0] == "Family-model" or len(cols) < 4:
                continue
            if cols[3].strip() == "core":
                rows.append((cols[0], cols[1], cols[2]))
    return rows


def read_intel_sysfs_events(src):
    """EVENT_ATTR_STR(name, var, "terms") of the kernel's Intel core PMU."""
    with open(os.path.join(src, INTEL_CORE_C), encoding="utf-8") as f:
        text = f.read()
    found = {}
    for m in re.finditer(r'EVENT_ATTR_STR\(\s*([\w.-]+)\s*,\s*\w+\s*,\s*"([^"]*)"', text):
        found.setdefault(m.group(1), []).append(m.group(2))
    return found


def perf_metrics_events(sysfs):
    """The perf-metrics events: the ones the kernel encodes event=0x00
    (slots on fixed counter 3, topdown-* read from PERF_METRICS)."""
    out = {}
    for name, strs in sysfs.items():
        for s in strs:
            m = re.fullmatch(r"event=0x00,umask=(0x[0-9a-fA-F]+)", s)
            if m:
                out[name] = int(m.group(1), 16)
    if "slots" not in out or len(out) < 5:
        sys.exit("gen-perf-tables: no perf-metrics events in %s" % INTEL_CORE_C)
    return out


def generic_names(arch):
    """perf's tool, software and legacy hardware event names
    (pmu-events/arch/common/common/*.json)."""
    names = set()
    for f in ("tool.json", "software.json", "legacy-hardware.json"):
        for e in read_json(os.path.join(arch, "common", "common", f)):
            names.add(e["EventName"])
    return names


# --- a table's JSON ---------------------------------------------------------
# jevents.py: an ArchStdEvent entry takes the event string from the
# standard event and every other field the model leaves empty; "Unit"
# never comes from it (the model's absent Unit is already "default_core").
_ENCODING = ("EventCode", "UMask", "CounterMask", "Invert", "EdgeDetect", "AnyThread",
             "MSRIndex", "MSRValue", "ConfigCode", "EventidCode", "ExtSel")


def read_arch_std(arch_dir):
    std = {}
    for f in sorted(os.listdir(arch_dir)):
        if f.endswith(".json"):
            for e in read_json(os.path.join(arch_dir, f)):
                name = e.get("EventName") or e.get("MetricName")
                std[name.lower()] = e
    return std


def merge_std(e, std, where):
    if "ArchStdEvent" not in e:
        return e
    base = std.get(e["ArchStdEvent"].lower())
    if base is None:
        sys.exit("gen-perf-tables: %s: no arch std event %s" % (where, e["ArchStdEvent"]))
    out = {k: v for k, v in base.items() if k != "Unit"}
    for k, v in e.items():
        if k == "ArchStdEvent" or k in _ENCODING or v in (None, ""):
            continue
        out[k] = v
    return out


def load_dir(path, std):
    """Core events {(pmu, lower name): entry}, metrics [entry], counters."""
    events, metrics, counters, seen = {}, [], {}, set()
    for f in sorted(os.listdir(path)):
        if not f.endswith(".json") or f.endswith("metricgroups.json"):
            continue
        entries = read_json(os.path.join(path, f))
        if f == "counter.json":
            for c in entries:
                counters[c["Unit"]] = (int(c["CountersNumGeneric"]), int(c["CountersNumFixed"]))
            continue
        for e in entries:
            e = merge_std(e, std, "%s/%s" % (path, f))
            unit = e.get("Unit")
            if unit not in (None, "cpu_core", "cpu_atom"):
                continue
            if "EventName" in e:
                events.setdefault((unit, e["EventName"].lower()), e)
            if "MetricName" in e and (e["MetricName"], unit) not in seen:
                seen.add((e["MetricName"], unit))
                metrics.append(e)
    return events, metrics, counters


# --- events -----------------------------------------------------------------
# jevents.py real_event(): the fixed-counter events perf opens by their
# general-counter encoding rather than the JSON's pseudo encoding.
REAL_EVENT = {
    "inst_retired.any": (0xc0, 0, 0),
    "cpu_clk_unhalted.thread": (0x3c, 0, 0),
    "cpu_clk_unhalted.core": (0x3c, 0, 0),
    "cpu_clk_unhalted.thread_any": (0x3c, 0, 1),
    "cpu_clk_unhalted.ref": (0x00, 0x03, 0),
}
# Kept on Intel though no metric of a table may name them: the E-core
# Top-Down level 1 events (Clearwater Forest's JSON has events, no metric).
ALWAYS = re.compile(r"TOPDOWN_(FE_BOUND|BAD_SPECULATION|BE_BOUND|RETIRING)\.ALL")
MSR_TERM = {"offcore_rsp": 0x1a6, "ldlat": 0x3f6, "frontend": 0x3f7}


def num(v):
    return int(str(v).split(",")[0], 0)


def counter_bits(text, n_all):
    """"0,1,2,3" -> bit mask; 0 when absent or when it lists all."""
    if not text:
        return 0
    idx = [int(x) for x in text.split(",")]
    if n_all and sorted(idx) == list(range(n_all)):
        return 0
    mask = 0
    for i in idx:
        mask |= 1 << i
    return mask


def base_event(e, pmu, n_all):
    ev = {"pmu": pmu, "kind": "RAW", "fixed": 0,
          "event": num(e.get("EventCode", "0")), "umask": num(e.get("UMask", "0")),
          "cmask": num(e.get("CounterMask", "0")), "inv": num(e.get("Invert", "0")),
          "edge": num(e.get("EdgeDetect", "0")), "any": num(e.get("AnyThread", "0")),
          "msr": num(e.get("MSRIndex", "0")), "msr_value": num(e.get("MSRValue", "0")),
          "counters": 0, "retire_lat": 0}
    ctr = e.get("Counter", "")
    m = re.fullmatch(r"Fixed counter (\d+)", ctr)
    if m:
        ev["kind"], ev["fixed"] = "FIXED", int(m.group(1))
        real = REAL_EVENT.get(e["EventName"].lower())
        if real:
            ev["event"], ev["umask"], ev["any"] = real
    else:
        ev["counters"] = counter_bits(ctr, n_all)
    return ev


def apply_terms(ev, terms, what):
    """perf's event terms (pmu/EV,cmask=1,edge/) over the base fields."""
    ev = dict(ev)
    for t in terms:
        k, _, v = t.partition("=")
        val = int(v, 0) if v else 1
        if k in ("umask", "cmask", "inv", "edge", "any", "event"):
            ev[k] = val
        elif k in MSR_TERM:
            ev["msr"] = ev["msr"] or MSR_TERM[k]
            ev["msr_value"] = val
        else:
            return None, "%s: term %s" % (what, k)
    if ev["kind"] == "FIXED" and terms:
        ev["kind"], ev["fixed"] = "RAW", 0
    return ev, None


class Table:
    """One directory of perf's tree and what its expressions may name."""

    def __init__(self, name, vendor, path, facts):
        self.name, self.vendor, self.facts = name, vendor, facts
        self.events, self.metrics, counters = load_dir(path, facts["std"])
        core = counters.get("core") or counters.get("cpu_core") or (0, 0)
        atom = counters.get("cpu_atom") or (0, 0)
        self.counters = (core[0], core[1], atom[0], atom[1])
        self.n_all = {None: core[0], "cpu_core": core[0], "cpu_atom": atom[0]}
        listed = {}     # no counter.json: the counters the JSON lists at all
        for (pmu, _), e in self.events.items():
            if re.fullmatch(r"[0-9,]+", e.get("Counter", "")):
                top = max(int(x) for x in e["Counter"].split(",")) + 1
                listed[pmu] = max(listed.get(pmu, 0), top)
        for pmu, n in listed.items():
            self.n_all[pmu] = self.n_all.get(pmu) or n
        self.metric_names = {}
        for m in self.metrics:
            self.metric_names.setdefault(m.get("Unit"), set()).add(m["MetricName"])

    def named_event(self, name, mod, pmu):
        """A name without @: the table's event, a kernel-named or generic
        event; (event, None) or (None, why not)."""
        lname = name.lower()
        e = self.events.get((pmu, lname))
        f = self.facts
        if e is not None:
            ev = base_event(e, pmu, self.n_all.get(pmu))
            ev["name"] = e["EventName"] + (":" + mod if mod else "")
            if "R" in mod:
                # intel-tpebs.c: unsampled, the value is rint() of the
                # JSON's mean, 0.0 where the JSON gives none (pmu.c)
                ev["kind"] = "RETIRE_LATENCY"
                ev["retire_lat"] = round(float(e.get("RetirementLatencyMean", 0)))
            return ev, None
        full = name + (":" + mod if mod else "")
        if self.vendor == "PERFDB_INTEL" and lname in f["perf_metrics"]:
            if pmu == "cpu_atom":
                return None, "%s on cpu_atom" % name
            kind = "FIXED" if lname == "slots" else "PERF_METRICS"
            return dict(generic(full, pmu), kind=kind, fixed=3,
                        umask=f["perf_metrics"][lname]), None
        if self.vendor == "PERFDB_INTEL" and lname in f["intel_sysfs"]:
            return generic(full, pmu), None
        if name in f["generic"]:
            return generic(full, pmu), None
        if self.vendor == "PERFDB_ARM" and lname in f["arm_std"]:
            ev = base_event(f["arm_std"][lname], pmu, 0)
            ev["name"] = f["arm_std"][lname]["EventName"] + (":" + mod if mod else "")
            return ev, None
        return None, name

    def at_event(self, ref, pmu):
        """pmu@EV\\,t\\=v@mod (or EV@t\\=v@) -> pmu/EV,t=v/mod."""
        i, j = ref.index("@"), ref.rindex("@")
        if i == j:
            return None, ref
        head, body, mod = ref[:i], ref[i + 1:j], ref[j + 1:]
        name = "%s/%s/%s" % (head, body, mod)
        terms = body.split(",")
        if head == "msr" and terms[0] == "tsc":
            return generic(name, pmu), None
        if head in CORE_PMUS or ARM_CORE_PMU.fullmatch(head):
            epmu = head if head in ("cpu_core", "cpu_atom") else pmu
            if "=" in terms[0]:     # pmu/event=0x11/: a raw code, no name
                ev, why = dict(generic(name, epmu), kind="RAW"), None
            else:
                ev, why = self.named_event(terms[0], mod, epmu)
                terms = terms[1:]
        elif (pmu, head.lower()) in self.events:
            ev, why = self.named_event(head, mod, pmu)
        else:
            return None, name
        if ev is None:
            return None, why
        if terms and ev["kind"] not in ("RAW", "FIXED"):
            return None, "%s: terms on a %s event" % (name, ev["kind"])
        ev, why = apply_terms(ev, terms, name)
        if ev is not None:
            ev["name"] = name
        return ev, why

    def resolve(self, ref, pmu):
        """("metric", name), ("event", ev) or ("drop", why)."""
        if ref in self.metric_names.get(pmu, ()):
            return "metric", ref
        if "@" in ref:
            ev, why = self.at_event(ref, pmu)
        else:
            name, _, mod = ref.partition(":")
            ev, why = self.named_event(name, mod, pmu)
        return ("event", ev) if ev is not None else ("drop", why)


def generic(name, pmu):
    return {"name": name, "pmu": pmu, "kind": "GENERIC", "fixed": 0, "event": 0, "umask": 0,
            "cmask": 0, "inv": 0, "edge": 0, "any": 0, "msr": 0, "msr_value": 0,
            "counters": 0, "retire_lat": 0}


def select(t):
    """Keep the metrics whose names all resolve; drop the rest and,
    transitively, what names them.  Returns (metrics, events, dropped)."""
    res, kept, why = {}, {}, {}
    for m in t.metrics:
        key = (m["MetricName"], m.get("Unit"))
        res[key] = [t.resolve(r, key[1]) for r in expr_refs(fix_escapes(m["MetricExpr"]))]
        bad = [w for k, w in res[key] if k == "drop"]
        kept[key] = not bad
        if bad:
            why[key] = bad[0]
    changed = True
    while changed:
        changed = False
        for key, refs in res.items():
            if kept[key] and any(k == "metric" and not kept.get((w, key[1]), False)
                                 for k, w in refs):
                kept[key], why[key], changed = False, "metric " + next(
                    w for k, w in refs if k == "metric" and not kept.get((w, key[1]))), True
    events, metrics = {}, []
    for m in t.metrics:
        key = (m["MetricName"], m.get("Unit"))
        if not kept[key]:
            continue
        thr = m.get("MetricThreshold")
        trefs = []
        if thr:
            trefs = [t.resolve(r, key[1]) for r in expr_refs(fix_escapes(thr))]
            if any(k == "drop" or (k == "metric" and not kept.get((w, key[1])))
                   for k, w in trefs):
                thr, trefs = None, []
        metrics.append(dict(m, MetricExpr=fix_escapes(m["MetricExpr"]),
                            MetricThreshold=fix_escapes(thr) if thr else None))
        for k, ev in res[key] + trefs:
            if k == "event":
                add_event(events, ev, t.name)
    if t.vendor == "PERFDB_INTEL":
        for (pmu, _), e in sorted(t.events.items(), key=lambda x: (x[0][0] or "", x[0][1])):
            if e.get("Counter", "").startswith("Fixed counter") or ALWAYS.fullmatch(e["EventName"]):
                ev = base_event(e, pmu, t.n_all.get(pmu))
                ev["name"] = e["EventName"]
                add_event(events, ev, t.name)
    evs = sorted(events.values(), key=lambda e: (e["pmu"] or "", e["name"].lower()))
    dropped = {k: why[k] for k in res if not kept[k]}
    return metrics, evs, dropped


_FIELDS = ("kind", "fixed", "event", "umask", "cmask", "inv", "edge", "any", "msr",
           "msr_value", "counters", "retire_lat")


# What each field of struct perfdb_event holds.
_WIDTH = {"event": 16, "umask": 16, "cmask": 8, "inv": 1, "edge": 1, "any": 1, "msr": 32,
          "msr_value": 64, "counters": 32, "retire_lat": 32, "fixed": 8}


def add_event(events, ev, table):
    for f, bits in _WIDTH.items():
        if not 0 <= ev[f] < 1 << bits:
            sys.exit("gen-perf-tables: %s: %s: %s=%#x does not fit" % (table, ev["name"], f, ev[f]))
    key = (ev["name"].lower(), ev["pmu"])
    old = events.get(key)
    if old is None:
        events[key] = ev
    elif any(old[f] != ev[f] for f in _FIELDS):
        sys.exit("gen-perf-tables: %s: %s resolves two ways" % (table, ev["name"]))


# --- output -----------------------------------------------------------------
def c_string(s):
    """A C string literal: ASCII as is, the rest as three-digit octal
    escapes (so no digit after one can extend it), '?' escaped (no
    trigraphs under -std=c11)."""
    out = ['"']
    for b in s.encode("utf-8"):
        c = chr(b)
        if c in '"\\?':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    out.append('"')
    return "".join(out)


class Pool:
    """Strings used more than once become one static array each."""

    def __init__(self, strings):
        count = {}
        for s in strings:
            if s is not None:
                count[s] = count.get(s, 0) + 1
        shared = sorted(s for s, n in count.items() if n > 1 and len(s) > 12)
        self.ids = {s: "s%d" % i for i, s in enumerate(shared)}

    def ref(self, s):
        if s is None:
            return "NULL"
        return self.ids.get(s) or c_string(s)

    def definitions(self):
        return ["static const char %s[] = %s;" % (i, c_string(s))
                for s, i in sorted(self.ids.items(), key=lambda x: int(x[1][1:]))]


def metric_fields(m):
    return (m["MetricName"], m["MetricExpr"], m.get("MetricGroup") or None,
            m.get("ScaleUnit") or None, m.get("MetricThreshold") or None, m.get("Unit"),
            m.get("MetricConstraint") or None, m.get("BriefDescription") or None)


def c_opt(s):
    return "NULL" if s is None else c_string(s)


def c_ident(name):
    return re.sub(r"[^0-9a-zA-Z]", "_", name)


def hexs(v):
    return "0x%x" % v if v > 9 else str(v)


def emit_c(out, args, version, tables, maps):
    strings = []
    for t in tables:
        for m in t["metrics"]:
            strings += metric_fields(m)[1:]
    pool = Pool(strings)
    w = out.write
    source = "\n".join(" * " + line for line in textwrap.wrap(
        "Source: %s." % args.source_name, 72, break_on_hyphens=False))
    w("/*\n * perf_tables.c - GENERATED, do not edit: Linux perf's event and metric\n"
      " * tables (tools/perf/pmu-events/arch/{x86,arm64}) of Linux %s, as the\n"
      " * facts of lib/perfdb/perfdb.h.\n%s\n"
      " * Generator: tools/perfdb/gen-perf-tables.py (make perf-tables\n"
      " * LINUX_SRC=...); lib/perfdb/README.md says what is kept.\n */\n"
      % (version, source))
    w('#include "lib/perfdb/perfdb.h"\n\n#include <stddef.h>\n\n')
    w("const struct perfdb_source perfdb_source = {\n\t%s,\n\t%s,\n};\n\n"
      % (c_string(version), c_string(args.obtained_from)))
    for line in pool.definitions():
        w(line + "\n")
    w("\n/* events: name, pmu, kind, fixed, event_code, umask, cmask, inv, edge, any,\n"
      " * msr_index, msr_value, counters, retire_lat */\n")
    for t in tables:
        ident = c_ident(t["name"])
        w("\nstatic const struct perfdb_event ev_%s[] = {\n" % ident)
        for e in t["events"]:
            w("\t{ %s, %s, PERFDB_EV_%s, %d, %s, %s, %d, %d, %d, %d, %s, %s, %s, %d },\n"
              % (c_string(e["name"]), c_opt(e["pmu"]), e["kind"], e["fixed"],
                 hexs(e["event"]), hexs(e["umask"]), e["cmask"], e["inv"], e["edge"], e["any"],
                 hexs(e["msr"]), hexs(e["msr_value"]), hexs(e["counters"]), e["retire_lat"]))
        w("};\n")
        w("\nstatic const struct perfdb_metric mt_%s[] = {\n" % ident)
        for m in t["metrics"]:
            w("\t{ %s },\n" % ", ".join(pool.ref(x) for x in metric_fields(m)))
        w("};\n")
    w("\nconst struct perfdb_table perfdb_tables[] = {\n")
    for t in tables:
        ident = c_ident(t["name"])
        w("\t{ %s, %s, %s, %d, %d, %d, %d, ev_%s, %u, mt_%s, %u },\n"
          % (c_string(t["name"]), c_string(t["version"]), t["vendor"], *t["counters"],
             ident, len(t["events"]), ident, len(t["metrics"])))
    w("};\n\nconst unsigned perfdb_n_tables = %d;\n\n" % len(tables))
    w("const struct perfdb_map perfdb_maps[] = {\n")
    for cpuid, idx in maps:
        w("\t{ %s, %d },\n" % (c_string(cpuid), idx))
    w("};\n\nconst unsigned perfdb_n_maps = %d;\n" % len(maps))


def emit_json(out, args, version, tables, maps):
    """The oracle's copy: per table its map rows, metrics and events, one
    metric or event a line."""
    def dump(x):
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))

    about = ("Linux perf's core metrics and the events they name, per CPU table, from "
             "tools/perf/pmu-events/arch of Linux %s (%s). Generated with "
             "lib/perfdb/perf_tables.c by tools/perfdb/gen-perf-tables.py: do not edit. "
             "Event fields as lib/perfdb/perfdb.h (absent = 0)." % (version, args.obtained_from))
    out.write('{"about":%s,\n"linux_version":%s,\n"tables":{\n' % (dump(about), dump(version)))
    for i, t in enumerate(tables):
        head = {"vendor": t["vendor"][len("PERFDB_"):].lower(), "version": t["version"],
                "cpuids": [c for c, idx in maps if idx == i]}
        out.write("%s%s:%s,\n" % ("," if i else "", dump(t["name"]), dump(head)[:-1]))
        lines = []
        for m in t["metrics"]:
            d = {"name": m["MetricName"], "expr": m["MetricExpr"]}
            for k, v in (("groups", m.get("MetricGroup")), ("unit", m.get("ScaleUnit")),
                         ("threshold", m.get("MetricThreshold")), ("pmu", m.get("Unit")),
                         ("constraint", m.get("MetricConstraint"))):
                if v:
                    d[k] = v
            lines.append(dump(d))
        out.write('"metrics":[\n%s],\n' % ",\n".join(lines))
        lines = []
        for e in t["events"]:
            d = {"name": e["name"], "kind": e["kind"].lower()}
            for k in ("pmu",) + _FIELDS[1:]:
                if e[k]:
                    d[k] = e[k]
            lines.append(dump(d))
        out.write('"events":[\n%s]}\n' % ",\n".join(lines))
    out.write("}}\n")


def linux_version(src):
    with open(os.path.join(src, "Makefile"), encoding="utf-8") as f:
        text = f.read(2000)
    v = {k: re.search(r"^%s = (\S*)" % k, text, re.M).group(1)
         for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")}
    return "%s.%s.%s" % (v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"])


def build(src, log):
    arch = os.path.join(src, ARCH)
    sysfs = read_intel_sysfs_events(src)
    arm_dir = os.path.join(arch, "arm64")
    common = read_json(os.path.join(arm_dir, "common-and-microarch.json"))
    facts = {"perf_metrics": perf_metrics_events(sysfs),
             "intel_sysfs": {k for k in sysfs if not k.startswith(("mem-", "topdown-"))},
             "generic": generic_names(arch), "std": {},
             "arm_std": {e["EventName"].lower(): e for e in common}}
    tables, maps, index = [], [], {}
    for sub in ("x86", "arm64"):
        if sub == "arm64":
            facts = dict(facts, std=read_arch_std(arm_dir))
        for cpuid, version, dirname in read_mapfile(os.path.join(arch, sub, "mapfile.csv")):
            if dirname not in index:
                vendor = "PERFDB_ARM" if sub == "arm64" else VENDOR[cpuid.split("-")[0]]
                t = Table(dirname, vendor, os.path.join(arch, sub, dirname), facts)
                metrics, events, dropped = select(t)
                for (name, pmu), why in sorted(dropped.items(), key=lambda x: (x[0][0], x[0][1] or "")):
                    log.write("%s: dropped %s%s: %s\n" % (dirname, name,
                                                          " (%s)" % pmu if pmu else "", why))
                index[dirname] = len(tables)
                tables.append({"name": dirname, "version": version, "vendor": vendor,
                               "counters": t.counters, "events": events, "metrics": metrics})
            maps.append((cpuid, index[dirname]))
    return tables, maps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("linux_src", help="the unpacked Linux source (lib/perfdb/README.md)")
    ap.add_argument("--obtained-from", default=DEFAULT_FROM,
                    help="where the Linux source came from (package, version, digest)")
    ap.add_argument("--source-name", default=None,
                    help="how the header comment names the source (default: the package)")
    ap.add_argument("--out-c", default="lib/perfdb/perf_tables.c")
    ap.add_argument("--out-json", default="tests/oracle/tables/perf-7.2-metrics.json")
    ap.add_argument("--log", default=None, help="write the dropped metrics and why here")
    args = ap.parse_args()
    args.source_name = args.source_name or args.obtained_from
    version = linux_version(args.linux_src)
    log = open(args.log, "w", encoding="utf-8") if args.log else open(os.devnull, "w")
    tables, maps = build(args.linux_src, log)
    log.close()
    with open(args.out_c, "w", encoding="utf-8") as f:
        emit_c(f, args, version, tables, maps)
    with open(args.out_json, "w", encoding="utf-8") as f:
        emit_json(f, args, version, tables, maps)
    n_ev = sum(len(t["events"]) for t in tables)
    n_mt = sum(len(t["metrics"]) for t in tables)
    print("gen-perf-tables: Linux %s: %d tables, %d map rows, %d events, %d metrics"
          % (version, len(tables), len(maps), n_ev, n_mt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
