#!/bin/sh
# The one-per-host guard cannot be held by another user, and holds across
# network namespaces: an unprivileged user squatting the old abstract name
# @stackd (bound, never listening) no longer keeps stackd from starting;
# the guard's lock file is root's, mode 0600 (no other user can open it to
# take its lock); a second stackd in a network namespace of its own (a pod
# without hostNetwork) is refused, naming the first.
. "$(dirname "$0")/lib.sh"
need_root
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
PY=/usr/bin/python3   # not a user-local shim: nobody runs it
[ -x "$PY" ] || skip "no /usr/bin/python3"

LOCK=/run/stackd/instance.lock

# --- a squatter on @stackd: bound by nobody, never listening ------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups "$PY" -c '
import socket, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0stackd")
time.sleep(60)
' &
SQUAT=$!
EXTRA_PIDS=$SQUAT
sleep 0.5
kill -0 "$SQUAT" 2>/dev/null || fail "the squatter could not bind @stackd"
start_daemon "$TMP/a.db"
first=$DAEMON_PID
grep -q "the stackd name @stackd is bound by a process that does not answer (not a stackd); going on without it" \
	"$TMP/stackd.log" || { cat "$TMP/stackd.log"; fail "the squatter was not logged"; }
note "started beside nobody's squat on @stackd (pid $SQUAT), and said so"

# --- the lock file: root's, 0600, naming its holder ----------------------------
[ -f "$LOCK" ] || fail "no $LOCK while stackd runs"
mode=$(stat -c '%a %U' "$LOCK")
[ "$mode" = "600 root" ] || fail "$LOCK is '$mode', not '600 root'"
[ "$(tr -d '\n' <"$LOCK")" = "$first" ] || fail "$LOCK does not name pid $first"
if setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "exec 3<$LOCK" 2>/dev/null; then
	fail "another user could open $LOCK (and take its lock)"
fi
if setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c ": >/run/stackd/other.lock" 2>/dev/null; then
	fail "another user could create a file in /run/stackd"
fi
note "$LOCK: mode $mode, names pid $first; nobody can neither open it nor write beside it"

# --- a second stackd in its own network namespace is refused ------------------
if timeout 20 unshare --net "$STACKD" --db "$TMP/b.db" --interval 1s --listen none --user root \
	>"$TMP/out" 2>"$TMP/err"; then
	fail "a second stackd in its own network namespace started"
fi
grep -qF "another stackd (pid $first) is collecting on this host" "$TMP/err" ||
	{ cat "$TMP/err"; fail "the refusal across network namespaces does not name the first"; }
note "refused in a network namespace of its own: $(cat "$TMP/err")"

stop_daemon
kill "$SQUAT" 2>/dev/null
wait "$SQUAT" 2>/dev/null
exit 0
