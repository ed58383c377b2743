#!/bin/sh
# An uncached answer has a CPU time cap (http_query_cpu_limit): on a store
# of 300 processes x 20 min of 1 s intervals (720,000 sample rows), a top
# over the hour is given up at a 50 ms cap with 503 naming the cap, while
# cheap answers go on; with the default cap (10 s) the same query is
# answered.  A peer without full access computes its answers at nice 10.
# (Issue 28, item 7: API work bounded per request, not by a CPU quota on
# the whole daemon.)  Bounded: about 30 s.
. "$(dirname "$0")/lib.sh"
need_root

port=$(free_port)
url="http://127.0.0.1:$port"
db="$TMP/big.db"

# the schema, boot row and groups from a short run; then 20 minutes of
# synthetic intervals ending now (tests/bench/run's part http, smaller)
start_daemon "$db"
stop_daemon
sqlite3 "$db" >/dev/null <<'SQL' || fail "cannot seed the store"
PRAGMA synchronous = OFF;
BEGIN;
DELETE FROM sample WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval_group WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval WHERE rollup_s > 0;
DELETE FROM rollup_state;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO process (boot, pid, start_ns, comm, cmdline, uid, unit)
  SELECT 1, 100000 + i, i * 1000, 'cpucap' || (i % 30), '/usr/bin/cpucap ' || i, 0,
         'cpucap.service' FROM n;
WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 1199)
INSERT INTO interval (boot, start_ns, end_ns, ncpus, model, samples)
  SELECT 1, (strftime('%s','now') - 1200 + k) * 1000000000,
         (strftime('%s','now') - 1199 + k) * 1000000000, 2, 'software', 1000 FROM t;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT i.id, p.id, g.id, 1000000 + (p.id * 7919 + i.id) % 500000, 10, (p.id + i.id) % 100
  FROM interval AS i, process AS p, counter_group AS g
  WHERE i.rollup_s = 0 AND i.end_ns > (strftime('%s','now') - 1300) * 1000000000
    AND p.comm LIKE 'cpucap%';
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
ANALYZE;
SQL
note "store: $(sqlite3 "$db" 'SELECT count(*) FROM sample') sample rows"

# wait_http: the daemon answers (the store had intervals before it started)
wait_http() {
	i=0
	until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/api/v1/system")" = 200 ]; do
		i=$((i + 1))
		[ "$i" -le 100 ] || { cat "$TMP/stackd.log"; fail "the API did not answer in 20 s"; }
		sleep 0.2
	done
}

heavy="$url/api/v1/top?window=1h&limit=5"
echo "http_query_cpu_limit = 50ms" >"$TMP/capped.conf"
start_daemon "$db" --config "$TMP/capped.conf" --listen "127.0.0.1:$port"
wait_http
got=$(curl -s -o "$TMP/heavy" -w '%{http_code} %{time_total}' --max-time 20 "$heavy")
note "at a 50 ms cap: $got s: $(cat "$TMP/heavy")"
[ "${got% *}" = 503 ] || fail "a top over 720,000 rows at a 50 ms CPU cap answered ${got% *}"
grep -q "more than 0.05 s of CPU time" "$TMP/heavy" || fail "the 503 does not name the cap"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url/api/v1/system")
[ "$code" = 200 ] || fail "a cheap answer beside the capped one answered $code"
# nobody's request: its thread computes at nice 10 (and is capped too)
setpriv --reuid=65534 --regid=65534 --clear-groups \
	curl -s -o /dev/null --max-time 20 "$url/api/v1/top?window=1h&limit=5&all=1" &
slow=$!
niced=0 i=0
while kill -0 "$slow" 2>/dev/null && [ "$i" -lt 100 ]; do
	# field 19 of /proc/PID/task/TID/stat is the nice value
	if cat /proc/"$DAEMON_PID"/task/*/stat 2>/dev/null |
		awk '{ sub(/.*\) /, ""); if ($17 == 10) found = 1 } END { exit !found }'; then
		niced=1
		break
	fi
	i=$((i + 1))
	sleep 0.01
done
wait "$slow"
if [ "$niced" = 1 ]; then
	note "nobody's answer was computed by a thread at nice 10"
else
	skip_check "nobody's answer ended before a thread at nice 10 was seen"
fi
stop_daemon

start_daemon "$db" --listen "127.0.0.1:$port"
wait_http
got=$(curl -s -o "$TMP/heavy" -w '%{http_code} %{time_total}' --max-time 20 "$heavy")
note "at the default cap (10 s): $got s"
[ "${got% *}" = 200 ] || fail "the same top at the default cap answered ${got% *}: $(head -c 300 "$TMP/heavy")"
stop_daemon
echo ok
