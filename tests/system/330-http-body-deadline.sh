#!/bin/sh
# A request's deadline holds whatever its body does: connections that send
# a whole header and then trickle the body one byte a second (4 on each
# transport, as nobody) are closed 10 s after they opened (the reaper looks
# every 0.5 s), while the daemon answers others; header trickling is cut
# the same way (issue 28, item 3).  Bounded: 20 s of trickling at most.
. "$(dirname "$0")/lib.sh"
need_root

port=$(free_port)
sock="$TMP/api.sock"
chmod 755 "$TMP"
start_daemon "$TMP/db" --listen "127.0.0.1:$port,unix:$sock"
wait_more_intervals "$TMP/db" 2 || { cat "$TMP/stackd.log"; fail "no intervals"; }

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
# another user: nobody's 8 connections (max(2, 64/8)) go to the bodies
as_other() {
	setpriv --reuid=65533 --regid=65533 --clear-groups "$@"
}
cp "$HELPERS/slowloris" "$TMP/slowloris"
as_nobody "$TMP/slowloris" "tcp:$port" 4 20 body 1000 >"$TMP/body-tcp" &
p1=$!
as_nobody "$TMP/slowloris" "unix:$sock" 4 20 body 1000 >"$TMP/body-unix" &
p2=$!
as_other "$TMP/slowloris" "tcp:$port" 4 20 header 1000 >"$TMP/head-tcp" &
p3=$!
EXTRA_PIDS="$p1 $p2 $p3"
sleep 2
# the others are answered meanwhile
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/api/v1/system")
[ "$code" = 200 ] || fail "a request beside the trickling ones answered $code"
wait "$p1" "$p2" "$p3"
EXTRA_PIDS=""
for f in body-tcp body-unix head-tcp; do
	note "$f: $(cat "$TMP/$f")"
	read -r _ connected _ closed _ _ _ last <"$TMP/$f"
	[ "$connected" -eq 4 ] || fail "$f: $(cat "$TMP/$f"): 4 connections expected"
	[ "$closed" -eq "$connected" ] ||
		fail "$f: $(cat "$TMP/$f"): connections trickling one byte a second outlived the 10 s deadline"
	awk -v l="$last" 'BEGIN { exit !(l >= 9.5 && l <= 11.5) }' ||
		fail "$f: $(cat "$TMP/$f"): closed at ${last} s, want 10-11 s"
done
stop_daemon
echo ok
