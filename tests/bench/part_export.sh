# Part "export" of tests/bench/run (sourced; BENCH_PARTS=export).
#
# stackctl export against its peer, sqlite3 -csv (issue 34: at most 2x
# for the same rows, from the file and through the API).
# Store: the schema, boot and groups from a short real run, then 1000
# processes x 600 intervals of 1 s x 2 groups = 1.2M synthetic sample
# rows ending now (what part_http builds, 10 minutes of it).  The daemon
# then runs on it (listening on loopback) until it has rolled those
# minutes up, so its own work does not land in the timings.
# Method: each figure is the median wall time of 5 runs, output to
# /dev/null, in this order: `export --url` (the daemon running: its
# text/csv pages of 20000 rows walked by their cursor), then, the daemon
# stopped, the peer (`sqlite3 -readonly -csv -header` of the same join in
# the same key order, the same ten minutes) and `export --db`.  A ratio
# is per row (the running daemon's window slides while it stores), with
# the target (<= 2) and met/MISSED beside it, and rows/s.
part_export() {
echo "bench: stackctl export vs sqlite3 -csv, 1000 processes x 10 min x 2 groups, median of 5"
# The figure is the export's, not the collector's: beside another stackd
# if one runs (a shared host), when the build allows it.
second=
"$STACKD" --help 2>&1 | grep -q -- --allow-second && second=--allow-second
# shellcheck disable=SC2086
"$STACKD" --user root --db "$TMP/exp.db" --interval 1s --listen none $second >"$TMP/exp0.log" 2>&1 &
ep=$!
sleep 2.5
kill -TERM "$ep"
wait "$ep"
sqlite3 "$TMP/exp.db" >/dev/null <<'SQL'
PRAGMA synchronous = OFF;
BEGIN;
DELETE FROM sample WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval_group WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval WHERE rollup_s > 0;
DELETE FROM rollup_state;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO process (boot, pid, start_ns, comm, cmdline, uid, unit)
  SELECT 1, 100000 + i, i * 1000, 'bench' || (i % 50), '/usr/bin/bench --worker ' || i, 0,
         'bench' || (i % 20) || '.service' FROM n;
WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 599)
INSERT INTO interval (boot, start_ns, end_ns, ncpus, model, samples)
  SELECT 1, (strftime('%s','now') - 600 + k) * 1000000000, (strftime('%s','now') - 599 + k) * 1000000000,
         2, 'software', 1000 FROM t;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT i.id, p.id, g.id, 1000000 + (p.id * 7919 + i.id) % 500000, 10, (p.id + i.id) % 100
  FROM interval AS i, process AS p, counter_group AS g
  WHERE i.id > (SELECT min(id) + 1 FROM interval) AND p.comm LIKE 'bench%';
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
ANALYZE;
SQL
EPORT=19477
# shellcheck disable=SC2086
"$STACKD" --user root --db "$TMP/exp.db" --interval 1s --listen "127.0.0.1:$EPORT" $second \
	>"$TMP/exp.log" 2>&1 &
ep=$!
t0=$(date +%s)
while [ "$(sqlite3 -readonly "$TMP/exp.db" "SELECT count(*) FROM interval WHERE rollup_s = 60")" -lt 9 ] &&
	[ $(( $(date +%s) - t0 )) -lt 120 ]; do sleep 1; done
emed() {  # emed CMD...: the median wall time of 5 runs, output discarded
	for _ in 1 2 3 4 5; do
		t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
	done | median
}
e_url=$(emed "$BUILD/stackctl" export --url "http://127.0.0.1:$EPORT" --since 10m)
url_rows=$(( $("$BUILD/stackctl" export --url "http://127.0.0.1:$EPORT" --since 10m | wc -l) - 1 ))
kill -TERM "$ep"
wait "$ep"
sql="SELECT i.start_ns, i.end_ns, p.pid, p.start_ns, p.comm, p.uid, p.unit, g.model, g.name, s.task_clock_ns, s.context_switches, i.rollup_s, i.periodic_ns, s.v0, s.v1 FROM sample s JOIN interval i ON i.id = s.interval_id JOIN process p ON p.id = s.process_id JOIN counter_group g ON g.id = s.group_id WHERE s.interval_id IN (SELECT id FROM interval WHERE rollup_s = 0 AND end_ns > (SELECT max(end_ns) FROM interval) - 600000000000) ORDER BY s.interval_id, s.process_id, s.group_id"
e_peer=$(emed sqlite3 -readonly -csv -header "$TMP/exp.db" "$sql")
peer_rows=$(( $(sqlite3 -readonly -csv -header "$TMP/exp.db" "$sql" | wc -l) - 1 ))
e_db=$(emed "$BUILD/stackctl" export --db "$TMP/exp.db" --since 10m)
db_rows=$(( $("$BUILD/stackctl" export --db "$TMP/exp.db" --since 10m | wc -l) - 1 ))
awk -v pr="$peer_rows" -v p="$e_peer" -v dr="$db_rows" -v d="$e_db" -v ur="$url_rows" \
	-v u="$e_url" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
	pr_s = p / pr
	printf "  peer sqlite3 -csv: %d rows in %.2f s (%.0f rows/s)\n", pr, p, pr / p
	printf "  export --db:  %d rows in %.2f s (%.0f rows/s): %.2fx sqlite3 (target <= 2: %s)\n",
		dr, d, dr / d, (d / dr) / pr_s, (d / dr) / pr_s <= 2 ? "met" : "MISSED"
	printf "  export --url: %d rows in %.2f s (%.0f rows/s): %.2fx sqlite3 (target <= 2: %s)\n",
		ur, u, ur / u, (u / ur) / pr_s, (u / ur) / pr_s <= 2 ? "met" : "MISSED"
	printf "  load average during the part: %s\n", load }'
}
