#!/bin/sh
# Another program holding the database's write lock (sqlite3 in BEGIN
# IMMEDIATE) neither stalls the daemon's loop nor its stop: intervals wait
# in memory (the oldest dropped past retry_buffer, said once a minute),
# status, /api/v1/system and /metrics say so while it lasts, and
# SIGTERM ends the daemon within a few seconds, saving what it could not
# write beside the database for the next start, which writes it first
# (issue 14, item 9; issue 28, item 10).
. "$(dirname "$0")/lib.sh"
need_root
PORT=$(free_port)
URL=http://127.0.0.1:$PORT

printf 'retry_buffer = 2\n' >"$TMP/stackd.conf"
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --interval 500ms --config "$TMP/stackd.conf"
wait_more_intervals "$TMP/db" 2 || fail "no intervals"

# sqlite3 holds the write lock for as long as its input stays open
mkfifo "$TMP/hold"
sqlite3 "$TMP/db" <"$TMP/hold" >"$TMP/sqlite.out" 2>&1 &
HOLDER=$!
exec 3>"$TMP/hold"
printf '.timeout 5000\nBEGIN IMMEDIATE;\nSELECT %s;\n' "'locked'" >&3
i=0
until grep -q locked "$TMP/sqlite.out" || [ "$i" -ge 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q locked "$TMP/sqlite.out" || fail "sqlite3 did not take the lock: $(cat "$TMP/sqlite.out")"
stored=$(intervals "$TMP/db")
lock_ns=$(sqlite3 -readonly "$TMP/db" "SELECT max(end_ns) FROM interval WHERE rollup_s = 0")

# the loop goes on: intervals pile up in memory, and every view says so
i=0
until [ "$(curl -sf "$URL/api/v1/system" | jq '.writer.dropped_intervals')" -ge 3 ] 2>/dev/null ||
	[ "$i" -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
jq -e '.writer.failing and .writer.pending_intervals == 2 and .writer.write_errors >= 4 and
	.writer.dropped_intervals >= 3 and
	(.writer.last_error | test("locked|busy")) and .writer.failing_since_ns > 0' \
	"$TMP/system.json" >/dev/null || fail "system does not show the outage: $(jq -c .writer "$TMP/system.json")"
curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics"
grep -q '^stackd_store_write_failing 1$' "$TMP/metrics" || fail "metrics: not failing"
awk '$1 == "stackd_store_pending_intervals" && $2 == 2 { ok = 1 } END { exit !ok }' "$TMP/metrics" ||
	fail "metrics: pending $(grep '^stackd_store_pending' "$TMP/metrics")"
awk '$1 == "stackd_store_write_errors_total" && $2 >= 4 { ok = 1 } END { exit !ok }' "$TMP/metrics" ||
	fail "metrics: errors $(grep '^stackd_store_write_errors' "$TMP/metrics")"
"$STACKCTL" status --url "$URL" >"$TMP/status" || fail "stackctl status"
grep -q "^writes: *WRITES FAILING since .*: .*locked.*; [0-9]* interval(s) waiting in memory" "$TMP/status" ||
	{ cat "$TMP/status"; fail "stackctl status does not show the failing writes"; }
[ "$(intervals "$TMP/db")" -eq "$stored" ] || fail "intervals were stored through the lock"
grep -q '^stackd_store_dropped_intervals_total [3-9]' "$TMP/metrics" || fail "metrics: no drops counted"
# one log line per kind (a minute's worth), though every flush dropped one
[ "$(grep -c "unwritten interval(s) since the last report" "$TMP/stackd.log")" -eq 1 ] &&
	[ "$(grep -c "cannot write to" "$TMP/stackd.log")" -eq 1 ] ||
	{ cat "$TMP/stackd.log"; fail "the log is not throttled"; }

# SIGTERM with the lock still held: stops within 3 s (a second's wait for
# the lock), and what it could not write is saved beside the database
# (issue 28, item 10: nothing counted is dropped at a clean stop)
start=$(date +%s%N)
kill -TERM "$DAEMON_PID"
i=0
while kill -0 "$DAEMON_PID" 2>/dev/null && [ "$i" -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill -0 "$DAEMON_PID" 2>/dev/null && fail "stackd still runs ${ms} ms after SIGTERM"
wait "$DAEMON_PID"
rc=$?
DAEMON_PID=""
note "stopped in $ms ms, exit status $rc"
[ "$ms" -le 3000 ] || fail "stopping took $ms ms"
[ "$rc" -eq 0 ] || { cat "$TMP/stackd.log"; fail "exit status $rc, expected 0 (nothing lost)"; }
grep -q "interval(s) could not be written to $TMP/db (.*locked.*): saved in $TMP/db.spill" "$TMP/stackd.log" ||
	{ cat "$TMP/stackd.log"; fail "the log does not say the intervals were saved"; }
saved=$(grep -o "[0-9]* interval(s) could not be written" "$TMP/stackd.log" | grep -o "^[0-9]*")
[ -s "$TMP/db.spill" ] || fail "no spill file beside the database"
[ "$(intervals "$TMP/db")" -eq "$stored" ] || fail "intervals were stored through the lock"

printf 'ROLLBACK;\n' >&3
exec 3>&-
wait "$HOLDER"

# the next start writes them first: the lock's last intervals are there
mv "$TMP/stackd.log" "$TMP/stackd-1.log"
restart_ns=$(date +%s%N)
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --interval 500ms --config "$TMP/stackd.conf"
wait_log "wrote $saved interval(s) a stop had saved in $TMP/db.spill"
[ ! -e "$TMP/db.spill" ] || fail "the spill file is still there"
late=$(sqlite3 -readonly "$TMP/db" "SELECT count(*) FROM interval WHERE rollup_s = 0 AND end_ns > $lock_ns AND end_ns < $restart_ns")
note "$saved interval(s) saved at the stop; $late stored from the lock's time"
[ "$late" -eq "$saved" ] && [ "$saved" -ge 2 ] || fail "$late of $saved saved intervals stored"
stop_daemon
