#!/bin/sh
# The HTTP side sizes itself to the open-file limit and no client takes
# every connection (issue 28, item 10):
#  - at ulimit -n 64, 80 requests at once on each transport (one client,
#    then four) are each answered: 200, or 429 / 503 with Retry-After
#    (never "the database cannot be read", never a connection closed
#    without an answer), and the daemon answers normally afterwards;
#  - one client with full access holding 64 connections (root, over TCP,
#    then on the Unix socket) leaves root's stackctl its way in.
# Bounded: about 40 s.
. "$(dirname "$0")/lib.sh"
need_root

port=$(free_port)
sock="$TMP/api.sock"
chmod 755 "$TMP"
load="$HELPERS/httpload"

# check_answers FILE WHAT: every request answered, refusals with
# Retry-After, no database error
check_answers() {
	note "$2: $(tr '\n' ' ' <"$1")"
	awk '$1 == "status" && $2 != "200" && $2 != "429" && $2 != "503" { bad = 1 }
	     $1 == "status" && ($2 == "429" || $2 == "503") && $5 != $3 { bad = 1 }
	     $1 == "match_status" && $2 != "200" { bad = 1 }
	     END { exit bad }' "$1" || fail "$2: $(tr '\n' ' ' <"$1")"
}

# --- at ulimit -n 64 ---------------------------------------------------------
(
	ulimit -n 64
	exec "$STACKD" --db "$TMP/low.db" --interval 1s --user root \
		--listen "127.0.0.1:$port,unix:$sock" >"$TMP/stackd.log" 2>&1
) &
DAEMON_PID=$!
wait_intervals "$TMP/low.db" 2 20 || { cat "$TMP/stackd.log"; fail "no intervals at ulimit -n 64"; }
grep -q "the open-file limit (64, " "$TMP/stackd.log" ||
	{ cat "$TMP/stackd.log"; fail "the daemon did not size its HTTP side to ulimit -n 64"; }
note "$(grep -o 'the open-file limit (64.*answers' "$TMP/stackd.log")"
for t in "unix:$sock" "tcp:$port"; do
	"$load" "$t" 80 30 80 '/api/v1/top?window={n}s' localhost 'cannot be read' >"$TMP/one"
	check_answers "$TMP/one" "80 at once from one client on $t"
	grep -q '^status 200 ' "$TMP/one" || fail "no request answered on $t"
	loads=""
	for i in 1 2 3 4; do
		"$load" "$t" 20 30 20 '/api/v1/top?window={n}s' localhost 'cannot be read' >"$TMP/four.$i" &
		loads="$loads $!"
	done
	# shellcheck disable=SC2086
	wait $loads   # (not a bare wait: the daemon is a job too)
	cat "$TMP"/four.* | awk '$1 == "status" { n[$2] += $3; r[$2] += $5 }
		$1 == "match_status" { m[$2] += $3 }
		END { for (c in n) printf "status %s %d retry_after %d\n", c, n[c], r[c];
		      for (c in m) printf "match_status %s %d\n", c, m[c] }' >"$TMP/four"
	check_answers "$TMP/four" "80 at once from four clients on $t"
done
# Processes on the Unix socket are separate peers, each with a share of
# max(2, 5/2) = 2 of the 5 connections: two holding their share and a
# third asking for 20 fill the server before the third reaches its share,
# so it is told 503 (a burst of four clients shows this only when the
# answers are slow enough to overlap, so the holders make it certain).
holders=""
for i in 1 2; do
	"$HELPERS/slowloris" "unix:$sock" 2 4 >"$TMP/holder.$i" &
	holders="$holders $!"
done
EXTRA_PIDS=$holders
sleep 1
"$load" "unix:$sock" 20 30 20 '/api/v1/top?window={n}s' localhost 'cannot be read' >"$TMP/full"
check_answers "$TMP/full" "20 at once while two other peers hold 2 connections each"
# shellcheck disable=SC2086
wait $holders
EXTRA_PIDS=""
note "the holders: $(cat "$TMP"/holder.* | tr '\n' ' ')"
grep -q '^status 503 ' "$TMP/full" || fail "a full server never said 503"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/api/v1/system")
[ "$code" = 200 ] || fail "after the bursts /api/v1/system answered $code"
"$STACKCTL" top --url "unix:$sock" -b -n 1 >"$TMP/top.out" 2>&1 ||
	{ cat "$TMP/top.out"; fail "stackctl top after the bursts"; }
stop_daemon

# --- one client holding every connection it can --------------------------------
start_daemon "$TMP/db" --listen "127.0.0.1:$port,unix:$sock"
for t in "tcp:$port" "unix:$sock"; do
	"$HELPERS/slowloris" "$t" 64 8 >"$TMP/hog" &
	hog=$!
	EXTRA_PIDS=$hog
	sleep 1
	t0=$(date +%s%N)
	timeout 5 "$STACKCTL" top --url "unix:$sock" -b -n 1 >"$TMP/top.out" 2>&1 ||
		{ cat "$TMP/top.out"; fail "root's stackctl shut out by a client of root's holding 64 connections on $t"; }
	ms=$((($(date +%s%N) - t0) / 1000000))
	wait "$hog"
	EXTRA_PIDS=""
	note "a client of root's asking for 64 connections on $t: $(cat "$TMP/hog"); stackctl top answered in $ms ms"
	read -r _ connected _ closed _ _ _ _ <"$TMP/hog"
	# half the budget (64 / 2) is one client's; the rest were told 429 at once
	[ "$((connected - closed))" -le 32 ] ||
		fail "$(cat "$TMP/hog"): one client held more than half the connections"
done
stop_daemon
echo ok
