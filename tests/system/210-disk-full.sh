#!/bin/sh
# A database on a filesystem too small for max_database_mb (an 8 MB tmpfs,
# half of it old data): retention keeps it to what fits, so writes go on
# (the newest interval keeps advancing), little is dropped and that is
# counted, the log stays quiet (a line a minute at most), and a SIGHUP
# lowering max_database_mb shrinks the file (issue 14, items 1 and 2).
. "$(dirname "$0")/lib.sh"
need_root
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
FS=$TMP/fs
LOAD=""
cleanup_fs() {
	[ -z "$LOAD" ] || kill "$LOAD" 2>/dev/null
	if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then
		kill -KILL "$DAEMON_PID" 2>/dev/null
		sleep 0.5
	fi
	umount "$FS" 2>/dev/null
	cleanup
}
trap cleanup_fs EXIT INT TERM

# --- an hour-old database of about 4 MB -------------------------------------
start_daemon "$TMP/seed.db" --interval 100ms
"$HELPERS/spin" 0.5 seedspin >/dev/null
wait_more_intervals "$TMP/seed.db" 10 || fail "no intervals to seed with"
stop_daemon
# copies of the raw intervals, each moved back by an hour and a copy's span;
# rollups are made again by the daemon from the oldest
seed_hour_old "$TMP/seed.db" 4200000 || fail "cannot seed the database"
seed=$(stat -c %s "$TMP/seed.db")
note "seed database: $seed bytes, $(intervals "$TMP/seed.db") intervals"

mkdir "$FS"
mount -t tmpfs -o size=8m tmpfs "$FS" || skip "cannot mount a tmpfs"
cp "$TMP/seed.db" "$FS/db"
cat >"$TMP/stackd.conf" <<EOF2
interval = 100ms
listen = 127.0.0.1:$PORT
max_database_mb = 4096
EOF2
# load: many short processes, each a new row of every interval
( while :; do
	for n in 1 2 3 4 5 6 7 8; do "$HELPERS/spin" 0.005 "load$n" & done
	sleep 0.05
done ) >/dev/null 2>&1 &
LOAD=$!
"$STACKD" --user root --db "$FS/db" --config "$TMP/stackd.conf" >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$FS/db" 1 20 || { cat "$TMP/stackd.log"; fail "no interval stored"; }

# --- it fills up, and goes on writing ----------------------------------------
i=0
until grep -q "does not fit on the filesystem" "$TMP/stackd.log" || [ "$i" -ge 900 ]; do
	sleep 0.1
	i=$((i + 1))
done
df -k "$FS" | tail -1 | sed 's/^/# /'
note "capped after $((i / 10)) s"
grep -q "max_database_mb = 4096 does not fit on the filesystem of $FS/db: keeping the database under" \
	"$TMP/stackd.log" || { cat "$TMP/stackd.log"; fail "the filesystem never capped the database"; }
newest() {
	sqlite3 -readonly "$FS/db" "SELECT max(end_ns) FROM interval WHERE rollup_s = 0" 2>/dev/null || echo 0
}
for round in 1 2 3 4; do
	a=$(newest)
	sleep 3
	b=$(newest)
	note "round $round: newest interval end advanced $(( (b - a) / 1000000 )) ms; $(ls -l "$FS" | tail -n +2 | awk '{ printf "%s=%s ", $9, $5 }')"
	[ "$b" -gt "$a" ] || { cat "$TMP/stackd.log"; fail "no new interval stored in 3 s (round $round)"; }
done
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
note "writer: $(jq -c .writer "$TMP/system.json")"
jq -e '.writer.space_cap_bytes > 0 and .writer.space_cap_bytes < 8388608 and
	.writer.pending_intervals < 50 and .writer.dropped_intervals < 50' \
	"$TMP/system.json" >/dev/null || fail "writer state: $(jq -c .writer "$TMP/system.json")"
"$STACKCTL" status --url "$URL" >"$TMP/status" || fail "stackctl status"
grep -q "its filesystem filled up: the database is kept under" "$TMP/status" ||
	{ cat "$TMP/status"; fail "status does not say the filesystem caps the database"; }
curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics"
for m in stackd_store_write_errors_total stackd_store_pending_intervals \
	stackd_store_dropped_intervals_total stackd_store_last_write_timestamp_seconds; do
	grep -q "^$m [0-9.]*$" "$TMP/metrics" || fail "no $m in /metrics"
done

# --- a lower max_database_mb on SIGHUP shrinks the file -----------------------
before=$(stat -c %s "$FS/db")
sed -i 's/^max_database_mb = .*/max_database_mb = 1/' "$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
i=0
until [ "$(stat -c %s "$FS/db")" -lt $((before / 2)) ] || [ "$i" -ge 150 ]; do
	sleep 0.1
	i=$((i + 1))
done
after=$(stat -c %s "$FS/db")
note "SIGHUP to max_database_mb = 1: $before -> $after bytes"
[ "$after" -lt $((before / 2)) ] || { cat "$TMP/stackd.log"; fail "the database did not shrink: $before -> $after bytes"; }
a=$(newest)
sleep 2
[ "$(newest)" -gt "$a" ] || fail "no new interval after the SIGHUP"

# --- another program fills the filesystem: an outage, shown while it lasts ---
# (a write fails once it needs a new page of the filesystem: at the WAL's
# next checkpoint, which comes every 1000 pages)
dd if=/dev/zero of="$FS/ballast" bs=64k 2>/dev/null
seen=""
i=0
while [ "$i" -lt 250 ]; do
	curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system during the outage"
	if jq -e '.writer.failing and .writer.pending_intervals > 0 and (.writer.last_error | test("full"))' \
		"$TMP/system.json" >/dev/null; then
		seen=yes
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
if [ -n "$seen" ]; then
	curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics during the outage"
	grep -q '^stackd_store_write_failing 1$' "$TMP/metrics" || fail "metrics do not show the outage"
	"$STACKCTL" status --url "$URL" >"$TMP/status" || fail "stackctl status during the outage"
	grep -q "^writes: *WRITES FAILING since .*full" "$TMP/status" ||
		{ cat "$TMP/status"; fail "stackctl status does not show the outage"; }
else
	skip_check "no write needed a new page of the full filesystem in 25 s (230 shows an outage)"
fi
rm "$FS/ballast"
i=0
until curl -sf "$URL/api/v1/system" | jq -e '.writer.failing | not' >/dev/null || [ "$i" -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
note "after the outage: $(jq -c .writer "$TMP/system.json")"
jq -e '(.writer.failing | not) and .writer.pending_intervals == 0 and .writer.dropped_intervals < 100' \
	"$TMP/system.json" >/dev/null ||
	{ cat "$TMP/stackd.log"; fail "writes did not resume: $(jq -c .writer "$TMP/system.json")"; }
[ -z "$seen" ] || grep -q "database writable again" "$TMP/stackd.log" ||
	fail "the log does not say writes resumed"

# --- the log stays quiet: a line a minute at most per kind --------------------
kill "$LOAD"
LOAD=""
lines=$(grep -c "dropped .* unwritten interval" "$TMP/stackd.log")
writes=$(grep -c "cannot write to" "$TMP/stackd.log")
note "log: $lines lines about dropped intervals, $writes about failed writes, $(wc -l <"$TMP/stackd.log") in all"
[ "$lines" -le 2 ] && [ "$writes" -le 2 ] || { cat "$TMP/stackd.log"; fail "the log is not throttled"; }
kill -TERM "$DAEMON_PID"
timeout 20 sh -c "while kill -0 $DAEMON_PID 2>/dev/null; do sleep 0.1; done" || fail "stackd did not stop"
wait "$DAEMON_PID"
rc=$?
DAEMON_PID=""
[ "$rc" -eq 0 ] || { cat "$TMP/stackd.log"; fail "stackd exited with $rc"; }
