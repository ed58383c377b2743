#!/bin/sh
# stackctl export prints the stored rows as sqlite3 itself prints them:
# rows written straight into a store (awkward text included: a comma, a
# quote, spaces, a NULL user and unit), exported from the file (--db) and
# through the daemon (--url, which asks /api/v1/export?format=csv), in
# pages of 7 rows, are field by field what `sqlite3 -csv` prints for the
# same join, each row's v0.. placed under its group's event names (as
# counter_group.events lists them); and the two ways give the same bytes
# (issue 34: one row model, no JSON between the store and the CSV).  The
# daemon's CSV pages are text/csv bodies whose cursor, walked with curl,
# gives the same bytes again; a page cut short on the wire is an error.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "python3 is not installed"
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
DB=$TMP/db

# the schema, a boot and the groups from a short real run
start_daemon "$DB"
stop_daemon
# 6 processes x 12 intervals x every group, ending now, in their own unit
sqlite3 "$DB" >/dev/null <<'SQL' || fail "cannot write the rows"
BEGIN;
INSERT INTO process (boot, pid, start_ns, comm, cmdline, uid, unit) VALUES
  ((SELECT max(id) FROM boot), 900001, 11, 'plain', 'x', 1000, 'exp.service'),
  ((SELECT max(id) FROM boot), 900002, 12, 'with,comma', 'x', 0, 'exp.service'),
  ((SELECT max(id) FROM boot), 900003, 13, 'say "hi"', 'x', 0, 'exp.service'),
  ((SELECT max(id) FROM boot), 900004, 14, 'two  spaces ', 'x', NULL, 'exp.service'),
  ((SELECT max(id) FROM boot), 900005, 15, 'kworker/0:1', 'x', 0, 'exp.service'),
  ((SELECT max(id) FROM boot), 900006, 16, 'émigré', 'x', 65534, 'exp.service');
WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 11)
INSERT INTO interval (boot, start_ns, end_ns, ncpus, model, samples, periodic_ns)
  SELECT (SELECT max(id) FROM boot), (strftime('%s','now') - 12 + k) * 1000000000,
         (strftime('%s','now') - 11 + k) * 1000000000, 2, 'software', 10, k * 1000 FROM t;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0, v1)
  SELECT i.id, p.id, g.id, 1000 * p.pid + i.id, p.pid % 7 + i.id, (p.id * 31 + i.id) % 97,
         CASE WHEN p.pid % 2 = 0 THEN NULL ELSE i.id * 3 END
  FROM interval AS i, process AS p, counter_group AS g
  WHERE p.unit = 'exp.service' AND i.model = 'software' AND i.samples = 10;
COMMIT;
SQL

# the peer: sqlite3's own CSV of the same join, in the store's key order
sqlite3 -readonly -csv -header "$DB" "SELECT i.start_ns, i.end_ns, p.pid, p.start_ns, p.comm,
	p.uid, p.unit, g.model, g.name, s.task_clock_ns, s.context_switches, i.rollup_s,
	i.periodic_ns, g.events, s.v0, s.v1, s.v2, s.v3, s.v4, s.v5, s.v6, s.v7
	FROM sample s JOIN interval i ON i.id = s.interval_id JOIN process p ON p.id = s.process_id
	JOIN counter_group g ON g.id = s.group_id WHERE p.unit = 'exp.service'
	ORDER BY s.interval_id, s.process_id, s.group_id" >"$TMP/peer.csv" ||
	fail "sqlite3 -csv failed"

# compare EXPORT: EXPORT (stackctl's CSV) field by field against the peer
compare() {
	python3 - "$TMP/peer.csv" "$1" <<'PY' || fail "$1 differs from sqlite3 -csv"
import csv, sys
peer = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
ours = list(csv.reader(open(sys.argv[2], newline='', encoding='utf-8')))
fixed = ["interval_start_ns", "interval_end_ns", "pid", "start_ns", "comm", "uid", "unit",
         "model", "group", "task_clock_ns", "context_switches", "rollup_s",
         "interval_periodic_ns"]
head = ours[0]
if head[:len(fixed)] != fixed:
    sys.exit("header %r" % head)
if len(ours) != len(peer) or len(peer) < 2 * 72:
    sys.exit("%d rows exported, sqlite3 printed %d" % (len(ours) - 1, len(peer) - 1))
for n, (p, o) in enumerate(zip(peer[1:], ours[1:]), 1):
    want = dict(zip(head, [""] * len(head)))
    want.update(zip(fixed, p[:13]))
    for k, name in enumerate(p[13].split(",")):
        want[name] = p[14 + k]
    got = dict(zip(head, o))
    if got != want:
        sys.exit("row %d: %r, sqlite3 %r" % (n, o, p))
print("# %d rows, %d columns, as sqlite3 -csv prints them" % (len(ours) - 1, len(head)))
PY
}

"$STACKCTL" export --db "$DB" --since 1h --who unit:exp.service --page-rows 7 \
	>"$TMP/db.csv" || fail "export --db failed"
compare "$TMP/db.csv"

start_daemon "$DB" --listen "127.0.0.1:$PORT"
wait_more_intervals "$DB" 1 || fail "the daemon stored no new interval"
"$STACKCTL" export --url "$URL" --since 1h --who unit:exp.service --page-rows 7 \
	>"$TMP/url.csv" || fail "export --url failed"
compare "$TMP/url.csv"
cmp -s "$TMP/db.csv" "$TMP/url.csv" || fail "--db and --url exports differ: $(diff "$TMP/db.csv" "$TMP/url.csv" | head -5)"
# the daemon's CSV page is that same printer's, as the body itself (no
# JSON around it), the next page's cursor in a header field; walking the
# cursor by hand with curl gives the export's bytes, pages of 7 rows
# (a page boundary inside the export: 144 rows are 21 pages)
page() {  # page AFTER: the page's body into page.csv, its header fields into page.h
	curl -sf -D "$TMP/page.h" -o "$TMP/page.csv" \
		"$URL/api/v1/export?from=1h&who=unit:exp.service&limit=7&format=csv$1" ||
		fail "/api/v1/export?format=csv failed"
	tr -d '\r' <"$TMP/page.h" >"$TMP/page.hh"
}
page ""
grep -qi '^content-type: text/csv' "$TMP/page.hh" ||
	fail "a CSV page is not text/csv: $(cat "$TMP/page.hh" "$TMP/page.csv" | head -c 1500)"
grep -qi '^stackd-rows: 7$' "$TMP/page.hh" || fail "no Stackd-Rows: 7 field: $(cat "$TMP/page.hh")"
head -n 8 "$TMP/db.csv" | cmp -s - "$TMP/page.csv" ||
	fail "the first CSV page is not the export's first 7 rows: $(head -c 300 "$TMP/page.csv")"
cp "$TMP/page.csv" "$TMP/walk.csv"
pages=1
while next=$(sed -n 's/^[Ss]tackd-[Nn]ext: //p' "$TMP/page.hh") && [ -n "$next" ]; do
	page "&after=$next"
	[ "$(head -n 1 "$TMP/page.csv")" = "$(head -n 1 "$TMP/db.csv")" ] ||
		fail "page $((pages + 1)) does not start with the header line"
	tail -n +2 "$TMP/page.csv" >>"$TMP/walk.csv"
	pages=$((pages + 1))
	[ "$pages" -lt 100 ] || fail "the cursor never ends"
done
cmp -s "$TMP/db.csv" "$TMP/walk.csv" ||
	fail "the CSV pages walked by their cursor differ from the export: $(diff "$TMP/db.csv" "$TMP/walk.csv" | head -5)"
[ "$pages" -ge 21 ] || fail "only $pages pages of 7 rows"
# JSON export through the daemon: the same rows
"$STACKCTL" export --url "$URL" --since 1h --who unit:exp.service --json >"$TMP/url.json" ||
	fail "export --json failed"
[ "$(jq length "$TMP/url.json")" -eq "$(( $(wc -l <"$TMP/db.csv") - 1 ))" ] ||
	fail "JSON export has $(jq length "$TMP/url.json") rows"
stop_daemon

# A page cut short on the way (a server that dies mid-answer, a proxy's
# timeout): Content-Length promises more than arrives.  The export must
# fail and leave no file, never pass a short page for a whole one.
head -n 8 "$TMP/db.csv" >"$TMP/whole.csv"
python3 - "$PORT" "$TMP/whole.csv" <<'PY' &
import socket, sys
body = open(sys.argv[2], "rb").read()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(4)
s.settimeout(20)
c, _ = s.accept()
c.recv(65536)
c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/csv; charset=utf-8\r\nStackd-Rows: 7\r\n"
          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body[:len(body) // 2])
c.close()
PY
cut=$!
sleep 0.5
"$STACKCTL" export --url "$URL" --since 1h -o "$TMP/cut.csv" 2>"$TMP/cut.err" &&
	fail "an export of a page cut short succeeded"
wait "$cut"
grep -q "cut short" "$TMP/cut.err" || fail "a page cut short said: $(cat "$TMP/cut.err")"
[ ! -e "$TMP/cut.csv" ] || fail "a page cut short left $TMP/cut.csv"
echo "ok"
