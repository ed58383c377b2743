#!/bin/sh
# The database deleted or replaced under a running daemon: within a few
# intervals it says so, opens the path anew (a new file with the schema,
# or the file put there), takes the one-writer lock again, and goes on
# storing; /api/v1/system and /metrics count it (issue 14, item 6).
. "$(dirname "$0")/lib.sh"
need_root
PORT=$(free_port)
URL=http://127.0.0.1:$PORT

start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --interval 200ms
wait_more_intervals "$TMP/db" 3 || fail "no intervals"
sqlite3 "$TMP/db" ".backup '$TMP/other.db'" || fail "cannot copy the database"

# --- deleted, with its -wal, -shm and lock files ------------------------------
rm -f "$TMP/db" "$TMP/db-wal" "$TMP/db-shm" "$TMP/db.lock"
wait_log "$TMP/db was deleted while stackd wrote it"
wait_log "writing to a new $TMP/db from now on"
wait_intervals "$TMP/db" 3 10 || { cat "$TMP/stackd.log"; fail "no intervals in the new file"; }
[ "$(sqlite3 "$TMP/db" 'PRAGMA application_id')" = 1398033220 ] || fail "the new file is not a stackd database"
[ "$(sqlite3 "$TMP/db" "SELECT value FROM meta WHERE key = 'pid'")" = "$DAEMON_PID" ] ||
	fail "the new file does not carry the daemon's facts"
[ "$(cat "$TMP/db.lock")" = "$DAEMON_PID" ] || fail "the lock file was not made again"
if timeout 20 "$STACKD" --db "$TMP/db" --interval 1s --listen none --user root --allow-second >"$TMP/second" 2>&1; then
	fail "a second daemon started on the new file"
fi
grep -q "is in use by another stackd (pid $DAEMON_PID" "$TMP/second" ||
	{ cat "$TMP/second"; fail "the new file is not locked"; }
# the API reads the new file
newest=$(sqlite3 "$TMP/db" "SELECT max(end_ns) FROM interval")
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
jq -e --argjson n "$newest" '.writer.database_replaced == 1 and .database.newest_ns >= $n' \
	"$TMP/system.json" >/dev/null || fail "system after the deletion: $(jq -c '[.database, .writer]' "$TMP/system.json")"
grep -q "went to the old file and are lost" "$TMP/stackd.log" || fail "no count of the lost intervals"

# --- replaced: another stackd database moved over it --------------------------
before=$(intervals "$TMP/other.db")
mv "$TMP/other.db" "$TMP/db"
wait_log "$TMP/db was replaced by another file while stackd wrote it"
wait_intervals "$TMP/db" $((before + 3)) 10 || { cat "$TMP/stackd.log"; fail "no intervals in the file moved there"; }
sqlite3 "$TMP/db" 'PRAGMA quick_check' | grep -qx ok || fail "the file moved there is damaged"
curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics"
grep -q '^stackd_store_database_replaced_total 2$' "$TMP/metrics" ||
	fail "metrics: $(grep replaced "$TMP/metrics")"
"$STACKCTL" status --url "$URL" >"$TMP/status" || fail "stackctl status"
grep -q "the database file was deleted or replaced 2 time(s) and opened anew" "$TMP/status" ||
	{ cat "$TMP/status"; fail "status does not say the file was replaced"; }
stop_daemon
