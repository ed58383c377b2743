#!/bin/sh
# The dashboard in headless Chromium (Debian chromium + npm playwright-core,
# tests/browser/dashboard.mjs): against the live daemon, the host chart
# (axes, hover), the health line, the table, the drill-down beside it, the
# deep link, Enter on a row and no sideways scroll at 390 px
# ($BUILD/tests/dashboard-1400.png, dashboard-390.png); with a spinner and
# a sleeper moving the data, two loads 5 s apart draw every host chart;
# the table pages; a deep link at 900 px lands on the drill-down.  Then
# the page stops the daemon (SIGTERM, its clean exit checked here) and
# shows its failure state (dashboard-offline.png); after a few seconds
# stackd starts again on the same database: the host chart must show that
# stretch as a gap, not a line across it (dashboard-gap.png).  Last, `stackd --demo`: the same page over the
# constructed Skylake host says so in its header and draws the Top-Down
# bars and level 3 this VM cannot measure (dashboard-demo.png).
. "$(dirname "$0")/lib.sh"
need_root
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v chromium >/dev/null || skip "chromium is not installed (packaging/install-deps.sh)"
[ -d "$HERE/browser/node_modules/playwright-core" ] ||
	skip "playwright-core is not installed (make test runs npm ci in tests/browser)"
PORT=$(free_port)
OUT=$BUILD/tests
URL=http://127.0.0.1:$PORT/
mkdir -p "$OUT"
browser() {   # browser COMM MODE
	timeout 90 node "$HERE/browser/dashboard.mjs" "$URL" "$1" "$OUT" "$2" >"$TMP/node.log" 2>&1 ||
		{ cat "$TMP/node.log"; fail "browser test ($2)"; }
	note "$(cat "$TMP/node.log")"
}
"$HELPERS/spin" 120 webspin >/dev/null &
SPIN=$!
"$HELPERS/sleeper" 12000 10000 websleep >/dev/null &   # 100 wake-ups/s, 120 s
EXTRA_PIDS="$SPIN $!"
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals"
export STACKD_PID="$DAEMON_PID"
browser webspin live
# the page sent the SIGTERM (its failure state is checked in it)
wait "$DAEMON_PID"
rc=$?
DAEMON_PID=""
[ "$rc" -eq 0 ] || { cat "$TMP/stackd.log"; fail "stackd exited with $rc after SIGTERM"; }
sleep 2
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals after the restart"
browser webspin gap
kill $EXTRA_PIDS 2>/dev/null
stop_daemon

# --demo: no counters, no --db; its label in the API, its data removed at exit.
"$STACKD" --demo --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web" >"$TMP/demo.log" 2>&1 &
DAEMON_PID=$!
i=0
until [ "$(http_status "${URL}api/v1/system")" = 200 ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$TMP/demo.log"; fail "stackd --demo does not answer"; }
	sleep 0.2
done
curl -s "${URL}api/v1/system" | grep -q '"demo": "demo: constructed data, not measured"' ||
	fail "/api/v1/system does not label the demo data"
curl -s "${URL}api/v1/series?who=host&metric=cpu_percent&from=1m" | grep -q '"host"' ||
	fail "no host series in the demo"
browser jitserver demo
demo_db=$(sed -n 's/.* from \(.*\), removed at exit.*/\1/p' "$TMP/demo.log")
[ -f "$demo_db" ] || fail "the demo does not say where its database is: $(cat "$TMP/demo.log")"
stop_daemon
[ ! -e "$(dirname "$demo_db")" ] || fail "the demo left $(dirname "$demo_db") behind"
"$STACKD" --demo --db "$TMP/x.db" >"$TMP/demo-db.log" 2>&1 && fail "--demo took --db"
grep -q "takes no --db" "$TMP/demo-db.log" || fail "--demo --db: $(cat "$TMP/demo-db.log")"
note "screenshots: $OUT/dashboard-1400.png dashboard-390.png dashboard-offline.png" \
	"dashboard-gap.png dashboard-demo.png"
exit 0
