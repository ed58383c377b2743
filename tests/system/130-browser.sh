#!/bin/sh
# The dashboard in headless Chromium (Debian chromium + npm playwright-core):
# loads without console errors, shows the spinner in the table, draws its
# stack view and history chart; the screenshot is kept as
# $BUILD/tests/dashboard.png.  Then the daemon is stopped for 5 s and
# started again on the same database: the spinner's chart must show that
# stretch as a gap, not a line across it ($BUILD/tests/dashboard-gap.png).
. "$(dirname "$0")/lib.sh"
need_root
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v chromium >/dev/null || skip "chromium is not installed (packaging/install-deps.sh)"
[ -d "$HERE/browser/node_modules/playwright-core" ] ||
	skip "playwright-core is not installed (make test runs npm ci in tests/browser)"
PORT=$(free_port)
"$HELPERS/spin" 90 webspin >/dev/null &
SPIN=$!
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals"
mkdir -p "$BUILD/tests"
node "$HERE/browser/dashboard.mjs" "http://127.0.0.1:$PORT/" webspin "$BUILD/tests/dashboard.png" \
	>"$TMP/node.log" 2>&1 || { cat "$TMP/node.log"; fail "browser test"; }
note "$(cat "$TMP/node.log"); screenshot: $BUILD/tests/dashboard.png"
stop_daemon
sleep 5
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir "$HERE/../web"
wait_more_intervals "$TMP/db" 3 || fail "no intervals after the restart"
node "$HERE/browser/dashboard.mjs" "http://127.0.0.1:$PORT/" webspin "$BUILD/tests/dashboard-gap.png" \
	gap >"$TMP/node.log" 2>&1 || { cat "$TMP/node.log"; fail "browser test after a restart"; }
note "$(cat "$TMP/node.log"); screenshot: $BUILD/tests/dashboard-gap.png"
# The hardware views this VM cannot measure, drawn from the golden
# fixture's constructed Skylake rows: level 3 under the frontend.
"$BUILD/tests/mkfixture" "$TMP/fixture.db" >/dev/null &&
	"$STACKCTL" show 1001 --json --db "$TMP/fixture.db" >"$TMP/l3.json" ||
	fail "cannot build the fixture's rows"
node "$HERE/browser/dashboard.mjs" "http://127.0.0.1:$PORT/" webspin "$BUILD/tests/dashboard-l3.png" \
	l3 "$TMP/l3.json" >"$TMP/node.log" 2>&1 || { cat "$TMP/node.log"; fail "browser test of level 3"; }
note "$(cat "$TMP/node.log"); screenshot: $BUILD/tests/dashboard-l3.png"
kill "$SPIN" 2>/dev/null
stop_daemon
exit 0
