#!/bin/sh
# Short-lived processes, whole (issue 16): 300 `true` children of a
# non-root user are gone long before a flush reads /proc for them; each is
# still listed with that user (inherited from its parent at fork), so its
# own user sees all of them through the API, and so does root.
. "$(dirname "$0")/lib.sh"
need_root

sock="$TMP/api.sock"
chmod 755 "$TMP"
start_daemon "$TMP/s.db" --listen "unix:$sock"
share_binaries
# a long-lived parent (sleep keeps the shell alive as nobody) forking 300
# children that exec /bin/true
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
	'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done; sleep 1' ||
	fail "the forking shell failed"
wait_more_intervals "$TMP/s.db" 2 || fail "no intervals after the children"

# count AS_WHOM: `true` processes of user nobody in top's answer
count() {
	if [ "$1" = nobody ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$STACKCTL" top --url "unix:$sock" --window 120s --limit 10000 --json \
			>"$TMP/top.json" 2>"$TMP/err" || fail "stackctl top as nobody: $(cat "$TMP/err")"
	else
		"$STACKCTL" top --url "unix:$sock" --window 120s --limit 10000 --json >"$TMP/top.json" ||
			fail "stackctl top as root failed"
	fi
	jq '[.[] | select(.comm == "true")] | length' "$TMP/top.json" >"$TMP/n.all"
	jq '[.[] | select(.comm == "true" and .user == "nobody")] | length' "$TMP/top.json"
}
for who in nobody root; do
	n=$(count "$who")
	all=$(cat "$TMP/n.all")
	note "seen by $who: $n of 300 'true' children listed as nobody's ($all listed in all)"
	[ "$n" -eq "$all" ] || fail "seen by $who: $((all - n)) 'true' children without their user"
	[ "$n" -ge 295 ] || fail "seen by $who: only $n of 300 'true' children (want >= 295)"
done
stop_daemon
echo ok
