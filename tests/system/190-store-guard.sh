#!/bin/sh
# Started as root, stackd follows no link an attacker planted, touches no
# file that is not its own, finds a damaged database at start (and moves it
# aside, saying where), and lets one daemon write a database and own a
# socket at a time (issue 14, items 4, 7 and 8).
. "$(dirname "$0")/lib.sh"
need_root

# refused DB TEXT [ARGS]: starting on DB fails at once with one line saying TEXT
refused() {
	db=$1 want=$2
	shift 2
	if timeout 20 "$STACKD" --db "$db" --interval 1s --listen none --user root "$@" \
		>"$TMP/out" 2>"$TMP/err"; then
		fail "stackd started on $db"
	fi
	# (a second daemon allowed beside the first says so first: not an error)
	grep -v 'running beside it (--allow-second)' "$TMP/err" >"$TMP/err1"
	mv "$TMP/err1" "$TMP/err"
	one_line_error "$TMP/err"
	grep -qF -- "$want" "$TMP/err" || { cat "$TMP/err"; fail "error for $db does not say '$want'"; }
	note "refused: $(cat "$TMP/err")"
}

# --- symbolic links ---------------------------------------------------------
mkdir "$TMP/state"
ln -s "$TMP/victim.db" "$TMP/state/link.db"
refused "$TMP/state/link.db" "is a symbolic link; refusing to follow it"
[ ! -e "$TMP/victim.db" ] || fail "a file was created through the database link"

ln -s "$TMP/victim-wal" "$TMP/state/planted.db-wal"
refused "$TMP/state/planted.db" "planted.db-wal' is a symbolic link"
[ ! -e "$TMP/victim-wal" ] || fail "a file was created through the -wal link"
[ ! -e "$TMP/state/planted.db" ] || fail "the database was created although its -wal is a link"

ln -s "$TMP/victim-lock" "$TMP/state/lockme.db.lock"
refused "$TMP/state/lockme.db" "lockme.db.lock' is a symbolic link"
[ ! -e "$TMP/victim-lock" ] || fail "a file was created through the lock link"

# a hard link planted beside the database (to a file of root's)
echo "root's" >"$TMP/rootfile"
ln "$TMP/rootfile" "$TMP/state/hard.db-shm"
refused "$TMP/state/hard.db" "hard.db-shm' has 2 hard links; refusing it"
[ "$(cat "$TMP/rootfile")" = "root's" ] || fail "a hard-linked file was written"

# a state directory that is a link owned by another user
mkdir "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$TMP/dirlink"
chown -h nobody "$TMP/dirlink"
refused "$TMP/dirlink/s.db" "is a symbolic link owned by uid 65534"
[ -z "$(ls "$TMP/elsewhere")" ] || fail "files were created through a directory link"

# --- files that are not ours are never touched -------------------------------
sqlite3 "$TMP/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
before=$(md5sum <"$TMP/other.db")
refused "$TMP/other.db" "is not a stackd database"
[ "$(md5sum <"$TMP/other.db")" = "$before" ] || fail "another program's database was changed"
for side in -wal -shm .lock; do
	[ ! -e "$TMP/other.db$side" ] || fail "other.db$side was created beside a foreign file"
done
[ "$(sqlite3 "$TMP/other.db" 'PRAGMA journal_mode')" = delete ] ||
	fail "another program's database was switched to WAL"

head -c 8192 /dev/urandom >"$TMP/garbage.db"
before=$(md5sum <"$TMP/garbage.db")
refused "$TMP/garbage.db" "is not a SQLite database"
[ "$(md5sum <"$TMP/garbage.db")" = "$before" ] || fail "a non-database file was changed"

# --- our own database, damaged: moved aside, collection goes on ---------------
start_daemon "$TMP/ours.db"
wait_more_intervals "$TMP/ours.db" 3 || fail "no intervals"
stop_daemon
[ "$(sqlite3 "$TMP/ours.db" 'PRAGMA application_id')" = 1398033220 ] ||
	fail "our database does not carry stackd's application_id"
# the interval table's root page, overwritten (a b-tree page, never page 1)
root=$(sqlite3 "$TMP/ours.db" "SELECT rootpage FROM sqlite_schema WHERE name = 'interval'")
psize=$(sqlite3 "$TMP/ours.db" 'PRAGMA page_size')
[ "$root" -gt 1 ] || fail "no root page for the interval table"
dd if=/dev/urandom of="$TMP/ours.db" bs="$psize" seek=$((root - 1)) count=1 conv=notrunc 2>/dev/null
start_daemon "$TMP/ours.db"
i=0
until grep -q "moved to" "$TMP/stackd.log" || [ "$i" -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q "is damaged: \*\*\* in database main \*\*\* Page .*moved to '$TMP/ours.db.damaged-" "$TMP/stackd.log" ||
	{ cat "$TMP/stackd.log"; fail "the damaged database was not reported as moved aside"; }
ls "$TMP"/ours.db.damaged-* >/dev/null 2>&1 || fail "the damaged file is gone"
wait_more_intervals "$TMP/ours.db" 2 || fail "no intervals after starting fresh"
[ "$(sqlite3 "$TMP/ours.db" 'PRAGMA quick_check')" = ok ] || fail "the new database is not whole"
note "damaged database moved aside: $(ls "$TMP" | grep damaged | head -1)"

# --- one writer per database -------------------------------------------------
first=$DAEMON_PID
refused "$TMP/ours.db" "is in use by another stackd (pid $first" --allow-second
n=$(intervals "$TMP/ours.db")
wait_more_intervals "$TMP/ours.db" 2 || fail "the first daemon stopped writing"
note "second daemon refused; the first went on ($n -> $(intervals "$TMP/ours.db") intervals)"
stop_daemon

# --- one daemon per socket ---------------------------------------------------
sock="$TMP/api.sock"
start_daemon "$TMP/a.db" --listen "unix:$sock"
refused "$TMP/b.db" "the socket is in use by pid $DAEMON_PID" --listen "unix:$sock" --allow-second
curl -s --max-time 5 --unix-socket "$sock" http://localhost/api/v1/system | grep -q '"host"' ||
	fail "the first daemon's socket no longer answers"
# a socket file nobody answers on (its daemon was killed) is taken over
kill -KILL "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=""
[ -S "$sock" ] || fail "the killed daemon's socket file is gone"
start_daemon "$TMP/c.db" --listen "unix:$sock"
curl -s --max-time 5 --unix-socket "$sock" http://localhost/api/v1/system | grep -q '"host"' ||
	fail "a stale socket file was not taken over"
stop_daemon

# --- no link inside web_dir is served -----------------------------------------
mkdir "$TMP/web"
echo '<html>ok</html>' >"$TMP/web/index.html"
echo 'secret' >"$TMP/secret.txt"
ln -s "$TMP/secret.txt" "$TMP/web/leak.js"
mkfifo "$TMP/web/fifo.js"
port=$(free_port)
start_daemon "$TMP/w.db" --listen "127.0.0.1:$port" --web-dir "$TMP/web"
[ "$(http_status "http://127.0.0.1:$port/")" = 200 ] || fail "index.html not served"
[ "$(http_status "http://127.0.0.1:$port/leak.js")" = 404 ] || fail "a symbolic link in web_dir was served"
[ "$(http_status "http://127.0.0.1:$port/fifo.js" --max-time 5)" = 404 ] || fail "a FIFO in web_dir was opened"
stop_daemon
echo "ok"
