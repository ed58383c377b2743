#!/bin/sh
# A FRESH database on a filesystem far too small for max_database_mb (a
# 1 MB tmpfs, max_database_mb = 0), under a storm of new processes and
# 100 ms intervals (issue 28, items 6 and 10): the store keeps the cap it
# computed whatever the churn - retention deletes faster than the storm
# writes, the WAL stays within its allowance - so no write fails, nothing
# is dropped, the newest interval keeps advancing, and it goes on after a
# SIGHUP.  (Before: the newest minute was never deleted, the WAL grew to
# 4 MiB, the filesystem filled and writes stopped for good.)
. "$(dirname "$0")/lib.sh"
need_root
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
FS=$TMP/fs
STORM=""
cleanup_fs() {
	[ -z "$STORM" ] || kill "$STORM" 2>/dev/null
	if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then
		kill -KILL "$DAEMON_PID" 2>/dev/null
		sleep 0.5
	fi
	umount "$FS" 2>/dev/null
	cleanup
}
trap cleanup_fs EXIT INT TERM

mkdir "$FS"
mount -t tmpfs -o size=1m tmpfs "$FS" || skip "cannot mount a tmpfs"
cat >"$TMP/stackd.conf" <<EOF2
interval = 100ms
listen = 127.0.0.1:$PORT
max_database_mb = 0
EOF2
"$HELPERS/forkstorm" 2000 120 >/dev/null 2>&1 &
STORM=$!
"$STACKD" --user root --db "$FS/db" --config "$TMP/stackd.conf" >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$FS/db" 1 20 || { cat "$TMP/stackd.log"; fail "no interval stored"; }

newest() {
	sqlite3 -readonly "$FS/db" "SELECT max(end_ns) FROM interval WHERE rollup_s = 0" 2>/dev/null || echo 0
}
files() {
	ls -l "$FS" | tail -n +2 | awk '{ printf "%s=%s ", $9, $5 }'
}

# --- the storm fills it up to the cap in seconds ------------------------------
i=0
until grep -q "keeping the database under" "$TMP/stackd.log" || [ "$i" -ge 400 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q "max_database_mb = 0 does not fit on the filesystem of $FS/db: keeping the database under" \
	"$TMP/stackd.log" || { cat "$TMP/stackd.log"; fail "the store never reached its cap ($(files))"; }
note "capped after $((i / 10)) s: $(grep -o "keeping the database under .*" "$TMP/stackd.log" | head -1)"

# --- and stays there, writing, whatever the churn -----------------------------
rounds() {
	for round in 1 2 3 4 5 6; do
		a=$(newest)
		sleep 1.5
		b=$(newest)
		avail=$(df -k "$FS" | tail -1 | awk '{ print $4 }')
		note "$1 $round: newest +$(( (b - a) / 1000000 )) ms; $(files)free ${avail} KiB"
		[ "$b" -gt "$a" ] || { cat "$TMP/stackd.log"; fail "no new interval in 1.5 s ($1 $round)"; }
	done
}
rounds round
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
note "writer: $(jq -c .writer "$TMP/system.json")"
jq -e '.writer.write_errors == 0 and .writer.dropped_intervals == 0 and
	.writer.pending_intervals <= 1 and .writer.space_cap_bytes > 0 and
	.writer.space_cap_bytes < 1048576' "$TMP/system.json" >/dev/null ||
	{ cat "$TMP/stackd.log"; fail "the cap did not hold: $(jq -c .writer "$TMP/system.json")"; }
grep -q "cannot write to\|are lost\|dropped" "$TMP/stackd.log" &&
	{ cat "$TMP/stackd.log"; fail "writes failed under the storm"; }

# --- a SIGHUP (max_database_mb = 1: still more than fits) changes nothing ------
sed -i 's/^max_database_mb = .*/max_database_mb = 1/' "$TMP/stackd.conf"
kill -HUP "$DAEMON_PID"
rounds "after SIGHUP"
curl -sf "$URL/api/v1/system" | jq -e '.writer.write_errors == 0 and .writer.dropped_intervals == 0' \
	>/dev/null || fail "writes failed after the SIGHUP"

kill "$STORM"
STORM=""
kill -TERM "$DAEMON_PID"
timeout 20 sh -c "while kill -0 $DAEMON_PID 2>/dev/null; do sleep 0.1; done" || fail "stackd did not stop"
wait "$DAEMON_PID"
rc=$?
DAEMON_PID=""
[ "$rc" -eq 0 ] || { cat "$TMP/stackd.log"; fail "stackd exited with $rc"; }
sqlite3 "$FS/db" "PRAGMA integrity_check" | grep -qx ok || fail "integrity_check"
