"""perf_metrics.py - Linux perf's own metric formulas, as the local perf
prints them (`PERF_CPUID=... perf list --details metric`) or, for CPUs the
local perf has no table for, as the kernel's JSON holds them (tables/*.json,
copied with the file and commit they came from), evaluated for given event
counts: the oracle stackd's models are checked against.

The expression language is perf's tools/perf/util/expr.y (6.1): numbers,
event and metric names (backslash escapes any character: topdown\\-fe\\-bound,
cpu@EVENT\\,cmask\\=1\\,edge@), #literals (#SMT_on, #core_wide, #num_cores),
+ - * / %, unary -, < >, | & ^, min(), max(), d_ratio(), source_count(), and
`A if COND else B` whose else part may be another if (right-nested, the
6.1 grammar's `if_expr: expr IF expr ELSE if_expr`).  A name that is a
metric of the table is that metric, evaluated recursively; any other name
is an event whose count must be given.

Linux 7.2's expr.y adds has_event(NAME), strcmp_cpuid_str(NAME),
aggr_nr(NAME) and NaN; MetricTable.evaluate72() gives 7.2's values, as
expr.y's actions compute them when evaluating (expr__parse): x / 0 is NaN,
NaN in + - * < > is NaN, | & ^ are logical with expr.y's finite-operand
rules, min/max are C's "a < b ? a : b", % truncates like C's (long) cast.
tests/oracle/expr_crosscheck.py holds it against lib/perfdb/metric_expr.
"""
import json
import math
import os
import re
import subprocess

_NUMBER = re.compile(r"([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?")
# expr.l: sym [0-9a-zA-Z_\.:@?]+ and spec \\. , a symbol is a run of both
_SYMBOL = re.compile(r"(?:\\.|[0-9a-zA-Z_.:@?])+")
_LITERAL = re.compile(r"#(?:\\.|[0-9a-zA-Z_.:@?])+")
_KEYWORDS = ("if", "else", "min", "max", "d_ratio", "source_count",
             # Linux 7.2's expr.l
             "has_event", "strcmp_cpuid_str", "aggr_nr")


class ExprError(Exception):
    pass


def unescape(name):
    """perf's name without its backslash escapes: topdown-fe-bound."""
    return re.sub(r"\\(.)", r"\1", name)


def tokenize(text):
    toks, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c in "+-*/%()<>,|&^":
            toks.append(("op", c))
            i += 1
            continue
        if c == "#":
            m = _LITERAL.match(text, i)
            if not m:
                raise ExprError("bad literal at %r" % text[i:])
            toks.append(("lit", unescape(m.group(0))))
            i = m.end()
            continue
        m = _NUMBER.match(text, i)
        # a number only when no symbol character follows (2_PORTS_UTIL is a name)
        if m and m.end() > i and not _SYMBOL.match(text, m.end()):
            toks.append(("num", float(m.group(0))))
            i = m.end()
            continue
        m = _SYMBOL.match(text, i)
        if not m:
            raise ExprError("unexpected %r in %r" % (c, text))
        word = m.group(0)
        if word == "NaN":  # expr.l: NaN { return nan_value(yyscanner); }
            toks.append(("num", float("nan")))
        else:
            toks.append(("kw", word) if word in _KEYWORDS else ("id", unescape(word)))
        i = m.end()
    return toks


class _Parser:
    """Recursive descent, perf's precedence (lowest first): if/else, |, ^,
    &, < >, + -, * / %, unary -.  Builds nested tuples."""

    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, kind=None, val=None):
        tok = self.peek()
        if (kind and tok[0] != kind) or (val is not None and tok[1] != val):
            raise ExprError("expected %s %s, got %r" % (kind, val, tok))
        self.i += 1
        return tok

    def if_expr(self):
        e = self.binary(0)
        if self.peek() == ("kw", "if"):
            self.take()
            cond = self.binary(0)
            self.take("kw", "else")
            return ("if", e, cond, self.if_expr())
        return e

    _LEVELS = (("|",), ("^",), ("&",), ("<", ">"), ("+", "-"), ("*", "/", "%"))

    def binary(self, level):
        if level == len(self._LEVELS):
            return self.unary()
        e = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self._LEVELS[level]:
            op = self.take()[1]
            e = (op, e, self.binary(level + 1))
        return e

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        kind, val = self.take()
        if kind == "num":
            return ("num", val)
        if kind in ("id", "lit"):
            return (kind, val)
        if kind == "op" and val == "(":
            e = self.if_expr()
            self.take("op", ")")
            return e
        if kind == "kw" and val in ("min", "max", "d_ratio"):
            self.take("op", "(")
            a = self.if_expr()
            self.take("op", ",")
            b = self.if_expr()
            self.take("op", ")")
            return (val, a, b)
        if kind == "kw" and val == "source_count":
            # how many PMUs counted the event (uncore): an input like a count
            self.take("op", "(")
            name = self.take("id")[1]
            self.take("op", ")")
            return ("id", "source_count(%s)" % name)
        if kind == "kw" and val == "aggr_nr":
            # like source_count: how many CPUs were aggregated, an input
            self.take("op", "(")
            name = self.take("id")[1]
            self.take("op", ")")
            return ("id", "aggr_nr(%s)" % name)
        if kind == "kw" and val in ("has_event", "strcmp_cpuid_str"):
            # a constant perf answers from the host: given to evaluate72()
            self.take("op", "(")
            name = self.take("id")[1]
            self.take("op", ")")
            return (val, name)
        raise ExprError("unexpected %r" % ((kind, val),))


def parse(text):
    p = _Parser(tokenize(text))
    e = p.if_expr()
    if p.i != len(p.t):
        raise ExprError("trailing %r in %r" % (p.t[p.i:], text))
    return e


def read_metric_list(text):
    """{metric name: expression text} from `perf list --details metric`:
    a name indented 2 spaces, then [description] and [expression] lines."""
    metrics, name, brackets = {}, None, []
    for line in text.splitlines():
        if re.match(r"^  \S", line):
            if name and brackets:
                metrics[name] = brackets[-1]
            name, brackets = line.strip(), []
        elif name and line.strip().startswith("[") and line.strip().endswith("]"):
            brackets.append(line.strip()[1:-1])
        elif not line.strip():
            continue
        elif name and brackets and not line.startswith("  "):
            name = None  # a new section (none follows metrics today)
        elif name and brackets:
            brackets[-1] += " " + line.strip()  # a wrapped line
    if name and brackets:
        metrics[name] = brackets[-1]
    return metrics


def perf_metrics(cpuid, perf="perf"):
    """The metric table the local perf holds for CPUID (GenuineIntel-6-5E-3)."""
    env = dict(os.environ, PERF_CPUID=cpuid, PAGER="cat")
    out = subprocess.run([perf, "list", "--details", "metric"], env=env,
                         capture_output=True, text=True, check=True).stdout
    return MetricTable(read_metric_list(out))


def load_table(path):
    """A kernel metric table copied into tables/: its sources in jevents'
    order, the standard metrics (arm64/sbsa.json) first; a later entry
    overrides an earlier of the same name.  An entry naming an
    ArchStdEvent is that standard metric (names match case-insensitively,
    as in jevents), with its own MetricExpr if it gives one.  Returns the
    MetricTable and the table's literals ({"#slots": 5})."""
    with open(path) as f:
        doc = json.load(f)
    exprs = {}
    for src in doc["sources"]:
        for m in src["metrics"]:
            name = (m.get("MetricName") or m["ArchStdEvent"]).lower()
            if "MetricExpr" in m:
                exprs[name] = m["MetricExpr"]
            elif name not in exprs:
                raise ExprError("%s: %s names no standard metric" % (path, name))
    return MetricTable(exprs), {k.lower(): float(v) for k, v in doc["literals"].items()}


class MetricTable:
    def __init__(self, exprs):
        self.text = exprs
        self._ast = {}

    def ast(self, name):
        if name not in self._ast:
            self._ast[name] = parse(self.text[name])
        return self._ast[name]

    def events(self, name, literals=None):
        """Every event the metric reads, through its metric references (both
        branches of an if unless literals decide the condition)."""
        found, seen = set(), set()

        def walk(e):
            kind = e[0]
            if kind == "id":
                if e[1] in self.text:
                    if e[1] not in seen:
                        seen.add(e[1])
                        walk(self.ast(e[1]))
                else:
                    found.add(e[1])
            elif kind in ("num", "lit", "has_event", "strcmp_cpuid_str"):
                return
            elif kind == "if" and literals is not None and _constant(e[2], literals) is not None:
                walk(e[1] if _constant(e[2], literals) != 0 else e[3])
            else:
                for sub in e[1:]:
                    walk(sub)
        walk(self.ast(name))
        return found

    def evaluate(self, name, counts, literals):
        """The metric's value, or None where perf would not print one (a
        division by zero, as expr.y's YYABORT)."""
        memo = {}

        def ev(e):
            kind = e[0]
            if kind == "num":
                return e[1]
            if kind == "lit":
                if e[1].lower() not in literals:
                    raise ExprError("literal %s not given" % e[1])
                return literals[e[1].lower()]
            if kind == "id":
                if e[1] in self.text:
                    if e[1] not in memo:
                        memo[e[1]] = ev(self.ast(e[1]))
                    return memo[e[1]]
                if e[1] not in counts:
                    raise ExprError("no count for event %s" % e[1])
                return float(counts[e[1]])
            if kind == "neg":
                return -ev(e[1])
            if kind == "if":
                return ev(e[1]) if ev(e[2]) != 0 else ev(e[3])
            if kind in ("min", "max"):
                a, b = ev(e[1]), ev(e[2])
                return min(a, b) if kind == "min" else max(a, b)
            if kind == "d_ratio":
                a, b = ev(e[1]), ev(e[2])
                return 0.0 if b == 0 else a / b
            a, b = ev(e[1]), ev(e[2])
            if kind == "+":
                return a + b
            if kind == "-":
                return a - b
            if kind == "*":
                return a * b
            if kind in ("/", "%"):
                if b == 0:
                    raise ZeroDivisionError(name)
                return a / b if kind == "/" else float(int(a) % int(b))
            if kind == "<":
                return 1.0 if a < b else 0.0
            if kind == ">":
                return 1.0 if a > b else 0.0
            ia, ib = int(a), int(b)
            return float(ia | ib if kind == "|" else ia & ib if kind == "&" else ia ^ ib)
        try:
            return ev(self.ast(name))
        except ZeroDivisionError:
            return None

    def evaluate72(self, name, counts, literals, has_event=frozenset(), cpuid_match=False):
        """The metric's value as Linux 7.2's expr.y computes it (NaN where
        perf prints NaN), or None where perf drops the expression (x % 0:
        YYABORT).  has_event: the lower-case names has_event() finds;
        cpuid_match: what strcmp_cpuid_str() answers, or a function of its
        argument that answers it (and may raise ExprError: no CPU id).  A name with no count
        raises ExprError."""
        memo = {}

        def ev(e):
            kind = e[0]
            if kind == "num":
                return e[1]
            if kind == "lit":
                if e[1].lower() not in literals:
                    raise ExprError("literal %s not given" % e[1])
                return float(literals[e[1].lower()])
            if kind == "id":
                if e[1] in self.text:
                    if e[1] not in memo:
                        memo[e[1]] = ev(self.ast(e[1]))
                    return memo[e[1]]
                if e[1] not in counts:
                    raise ExprError("no count for event %s" % e[1])
                return float(counts[e[1]])
            if kind == "has_event":
                return 1.0 if e[1].lower() in has_event else 0.0
            if kind == "strcmp_cpuid_str":
                if callable(cpuid_match):
                    return 1.0 if cpuid_match(e[1]) else 0.0
                return 1.0 if cpuid_match else 0.0
            if kind == "neg":
                return -ev(e[1])
            if kind == "if":
                # only a condition equal to 0 takes the else side (fpclassify)
                return ev(e[3]) if ev(e[2]) == 0 else ev(e[1])
            return _binary72(kind, ev(e[1]), ev(e[2]))
        try:
            return ev(self.ast(name))
        except _Abort:
            return None


class _Abort(Exception):
    """expr.y's YYABORT: perf prints no value."""


def _finite(x):
    return not (math.isnan(x) or math.isinf(x))


def _logic72(op, a, b):
    """expr.y's '|', '&', '^': is_const() is isfinite()."""
    nan = float("nan")
    if _finite(a) and _finite(b):
        if op == "|":
            return 0.0 if a == 0 and b == 0 else 1.0
        if op == "&":
            return 1.0 if a != 0 and b != 0 else 0.0
        return 1.0 if (a == 0) != (b == 0) else 0.0
    if op == "^":
        return nan
    if _finite(a):
        if op == "|":
            return b if a == 0 else 1.0
        return b if a != 0 else 0.0
    if _finite(b):
        if op == "|":
            return a if b == 0 else 1.0
        return a if b != 0 else 0.0
    return nan


def _mod72(a, b):
    """(long)a % (long)b as C computes it (truncating); where C would be
    undefined (NaN, infinity, out of long's range) NaN, and where perf
    would divide by zero ((long)b == 0), no value."""
    if b == 0:
        raise _Abort()
    if not (_finite(a) and _finite(b)) or abs(a) >= 2.0 ** 63 or abs(b) >= 2.0 ** 63:
        return float("nan")
    ia, ib = int(a), int(b)
    if ib == 0:
        raise _Abort()
    r = abs(ia) % abs(ib)
    return float(-r if ia < 0 else r)


def _binary72(kind, a, b):
    nan = float("nan")
    if kind in ("|", "&", "^"):
        return _logic72(kind, a, b)
    if kind == "min":
        return a if a < b else b
    if kind == "max":
        return a if a > b else b
    if kind == "d_ratio":
        return 0.0 if b == 0 else a / b
    if kind == "/":
        return nan if b == 0 else a / b
    if kind == "%":
        return _mod72(a, b)
    if math.isnan(a) or math.isnan(b):
        return nan
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "<":
        return 1.0 if a < b else 0.0
    if kind == ">":
        return 1.0 if a > b else 0.0
    raise ExprError("unknown operator %r" % kind)


def _constant(e, literals):
    """The value of a condition made of literals and numbers only, else None."""
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "lit":
        return literals.get(e[1].lower())
    if kind == "<" or kind == ">":
        a, b = _constant(e[1], literals), _constant(e[2], literals)
        if a is None or b is None:
            return None
        return 1.0 if (a < b if kind == "<" else a > b) else 0.0
    return None
