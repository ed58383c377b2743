#!/bin/sh
# SIGKILL at any moment leaves a database that passes PRAGMA integrity_check
# and keeps every committed interval; a reader holding the database open (a
# read transaction) does not stop the daemon from writing; after a crash the
# daemon starts again on the same database.
. "$(dirname "$0")/lib.sh"
need_root

DB=$TMP/s.db
start_daemon "$DB"
wait_more_intervals "$DB" 2 || fail "no intervals"

# A reader that holds a read transaction open for 4 s.
before=$(intervals "$DB")
printf 'BEGIN;\nSELECT count(*) FROM interval;\n.shell sleep 4\nSELECT count(*) FROM interval;\nCOMMIT;\n' |
	sqlite3 -readonly "$DB" >"$TMP/reader.out" 2>&1 &
reader=$!
sleep 3.5
during=$(intervals "$DB")
wait "$reader" || { cat "$TMP/reader.out"; fail "the reader failed"; }
# The reader saw the same count at both ends: its snapshot really was held.
[ "$(sed -n 1p "$TMP/reader.out")" = "$(sed -n 2p "$TMP/reader.out")" ] ||
	fail "the reader's transaction did not hold a snapshot: $(cat "$TMP/reader.out")"
note "intervals: $before before the reader, $during while it held its transaction (it saw $(sed -n 1p "$TMP/reader.out") throughout)"
[ "$during" -ge $((before + 2)) ] || fail "the daemon stopped writing while a reader held the database"

# Kill it at different points of its flush cycle.
for delay in 0.13 0.42 0.77 0.95 0.5; do
	committed=$(intervals "$DB")
	sleep "$delay"
	kill -KILL "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=""
	check=$(sqlite3 "$DB" "PRAGMA integrity_check")
	after=$(intervals "$DB")
	note "SIGKILL after ${delay}s: integrity '$check', $committed intervals committed before, $after after"
	[ "$check" = "ok" ] || fail "integrity_check after SIGKILL: $check"
	[ "$after" -ge "$committed" ] || fail "lost committed intervals ($committed -> $after)"
	orphans=$(sqlite3 -readonly "$DB" "SELECT count(*) FROM sample WHERE interval_id NOT IN (SELECT id FROM interval)")
	[ "$orphans" -eq 0 ] || fail "$orphans sample rows without their interval: a flush was half-committed"
	start_daemon "$DB"
	wait_more_intervals "$DB" 1 || fail "the daemon did not write after a restart"
done
stop_daemon
exit 0
