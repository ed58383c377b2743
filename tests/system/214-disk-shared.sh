#!/bin/sh
# Another user's files fill the database's filesystem (issue 28, item 5):
# that must never erase history.  The store holds an hour-old history on
# an 8 MB tmpfs; user nobody fills the rest.  Retention deletes none of the
# history (the filesystem's share never shrinks for someone else's files),
# writes are held in memory and said so (log, /api/v1/system, stackctl
# status), and they resume when nobody's file goes.  (Before: the share
# followed the free space down and retention deleted the oldest history.)
. "$(dirname "$0")/lib.sh"
need_root
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
FS=$TMP/fs
cleanup_fs() {
	if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then
		kill -KILL "$DAEMON_PID" 2>/dev/null
		sleep 0.5
	fi
	umount "$FS" 2>/dev/null
	cleanup
}
trap cleanup_fs EXIT INT TERM

# --- an hour-old history of about 1.5 MB ------------------------------------
start_daemon "$TMP/seed.db" --interval 100ms
"$HELPERS/spin" 0.3 seedspin >/dev/null
wait_more_intervals "$TMP/seed.db" 10 || fail "no intervals to seed with"
stop_daemon
seed_hour_old "$TMP/seed.db" 1500000 || fail "cannot seed the database"

mkdir "$FS"
mount -t tmpfs -o size=8m tmpfs "$FS" || skip "cannot mount a tmpfs"
cp "$TMP/seed.db" "$FS/db"
printf 'interval = 100ms\nlisten = 127.0.0.1:%s\n' "$PORT" >"$TMP/stackd.conf"
"$STACKD" --user root --db "$FS/db" --config "$TMP/stackd.conf" >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$FS/db" "$(( $(intervals "$TMP/seed.db") + 5 ))" 20 ||
	{ cat "$TMP/stackd.log"; fail "no interval stored"; }
sleep 2   # the old raw minutes rolled up meanwhile: history at two levels
# the history: every stored moment older than 10 minutes, at any level
history() {
	sqlite3 -readonly "$FS/db" "SELECT count(*) || ' rows from ' || min(end_ns) FROM interval
		WHERE end_ns < (SELECT max(end_ns) FROM interval) - 600000000000"
}
before=$(history)
note "history: $before; $(ls -l "$FS" | tail -n +2 | awk '{ printf "%s=%s ", $9, $5 }')"

# --- nobody fills the filesystem: all but 2 MiB, then the rest --------------
# (with room left the store can still delete: a cap that followed the free
# space down would erase history now; then no room: writes are held)
chmod 711 "$TMP"   # (nobody reaches the filesystem, nothing else of ours)
mkdir "$FS/other"
chown nobody "$FS/other"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
free_kib() {
	df -k "$FS" | tail -1 | awk '{ print $4 }'
}
as_nobody dd if=/dev/zero of="$FS/other/ballast1" bs=1k count=$(( $(free_kib) - 2048 )) 2>/dev/null
[ -s "$FS/other/ballast1" ] || fail "nobody could not write to the filesystem"
note "nobody's file: $(stat -c %s "$FS/other/ballast1") bytes; free $(free_kib) KiB"
sleep 4   # retention's chance to delete, were it steered by the free space
after=$(history)
note "after 4 s: history $after; $(ls -l "$FS" | tail -n +2 | awk '{ printf "%s=%s ", $9, $5 }')"
[ "$after" = "$before" ] || { cat "$TMP/stackd.log"; fail "someone else's file erased history: $before -> $after"; }
as_nobody dd if=/dev/zero of="$FS/other/ballast2" bs=64k 2>/dev/null
note "and the rest: free $(free_kib) KiB"
held=""
i=0
while [ "$i" -lt 100 ]; do
	curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system while full"
	if jq -e '.writer.failing and (.writer.last_error | test("not by stackd"))' \
		"$TMP/system.json" >/dev/null; then
		held=yes
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
sleep 2
after=$(history)
note "after $((i / 10 + 2)) s full: history $after; writer $(jq -c .writer "$TMP/system.json")"
[ "$after" = "$before" ] || { cat "$TMP/stackd.log"; fail "someone else's file erased history: $before -> $after"; }
if [ -n "$held" ]; then
	grep -q "holding writes in memory (history kept) until space is freed" "$TMP/stackd.log" ||
		{ cat "$TMP/stackd.log"; fail "the log does not say writes are held"; }
	"$STACKCTL" status --url "$URL" >"$TMP/status" || fail "stackctl status"
	grep -q "^writes: *WRITES FAILING since .*not by stackd" "$TMP/status" ||
		{ cat "$TMP/status"; fail "stackctl status does not say why writes are held"; }
else
	skip_check "no write needed a new page of the full filesystem in 10 s"
fi

# --- nobody's file goes: writes resume, what waited is written ----------------
rm "$FS/other/ballast1" "$FS/other/ballast2"
i=0
until curl -sf "$URL/api/v1/system" | jq -e '(.writer.failing | not) and .writer.pending_intervals == 0' \
	>/dev/null || [ "$i" -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
curl -sf "$URL/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system"
note "after nobody's file went: $(jq -c .writer "$TMP/system.json")"
jq -e '(.writer.failing | not) and .writer.pending_intervals == 0 and .writer.dropped_intervals == 0' \
	"$TMP/system.json" >/dev/null || { cat "$TMP/stackd.log"; fail "writes did not resume"; }
[ -z "$held" ] || grep -q "database writable again" "$TMP/stackd.log" || fail "the log does not say writes resumed"
[ "$(history)" = "$before" ] || fail "history changed: $before -> $(history)"
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID"
rc=$?
DAEMON_PID=""
[ "$rc" -eq 0 ] || { cat "$TMP/stackd.log"; fail "stackd exited with $rc"; }
