#!/bin/sh
# The store holds every user's command lines: the daemon creates it without
# world access, and a local user who may not read it gets one clear line.
. "$(dirname "$0")/lib.sh"
need_root
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to test as"
share_binaries   # run as nobody below

DB=$TMP/s.db
start_daemon "$DB"
wait_more_intervals "$DB" 1 || fail "no interval written"
mode=$(stat -c %a "$DB")
note "database mode $mode"
[ "$mode" = 640 ] || fail "database mode is $mode, want 640 (no world access)"
chmod 755 "$TMP"
rc=0
su nobody -s /bin/sh -c "\"$STACKCTL\" top --db \"$DB\"" >"$TMP/out" 2>"$TMP/err" || rc=$?
note "as nobody: exit $rc: $(cat "$TMP/err")"
[ "$rc" -eq 1 ] || fail "stackctl as nobody exited $rc, want 1"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "want one line on stderr"
grep -q "Permission denied" "$TMP/err" || fail "the error does not say permission denied"
[ ! -s "$TMP/out" ] || fail "stackctl printed data it may not read"
stop_daemon
exit 0
