#!/bin/sh
# The dashboard in headless Chromium (Debian chromium + npm playwright-core,
# tests/browser/dashboard.mjs): against the live daemon, the host chart
# (axes, hover), the health line, the table, the drill-down beside it, the
# deep link, Enter on a row and no sideways scroll at 390 px
# ($BUILD/tests/dashboard-1400.png, dashboard-390.png).  Then the daemon is
# stopped for 5 s and started again on the same database: the host chart
# must show that stretch as a gap, not a line across it
# (dashboard-gap.png).  Last, `stackd --demo`: the same page over the
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
	timeout 60 node "$HERE/browser/dashboard.mjs" "$URL" "$1" "$OUT" "$2" >"$TMP/node.log" 2>&1 ||
		{ cat "$TMP/node.log"; fail "browser test ($2)"; }
	note "$(cat "$TMP/node.log")"
}
"$HELPERS/spin" 90 webspin >/dev/null &
SPIN=$!
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals"
browser webspin live
stop_daemon
sleep 5
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals after the restart"
browser webspin gap
kill "$SPIN" 2>/dev/null
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
note "screenshots: $OUT/dashboard-1400.png dashboard-390.png dashboard-gap.png dashboard-demo.png"
exit 0
