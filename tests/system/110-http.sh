#!/bin/sh
# The HTTP API on loopback and a Unix socket: /api/v1/top answers what
# `stackctl top --json` prints; the process, comm, series and system
# endpoints; strict parameters (400 naming the parameter), 404, 405; a
# non-root peer on either socket sees only its own processes; the web page
# is served and nothing outside web_dir is; the daemon stops cleanly with
# clients connected.
. "$(dirname "$0")/lib.sh"
need_root
share_binaries   # run as nobody below
PORT=$(free_port)
URL=http://127.0.0.1:$PORT
SOCK=$TMP/api.sock
chmod 755 "$TMP"   # nobody must reach the socket; the uid check is the daemon's
WEB=$(cd "$(dirname "$0")/../../web" && pwd)

"$HELPERS/spin" 30 httpspin >/dev/null &
SPIN=$!
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT,unix:$SOCK" --web-dir "$WEB"
wait_more_intervals "$TMP/db" 3 || fail "no intervals"

# /api/v1/top's rows = stackctl top --json, whether stackctl asks the
# daemon (--url, both sockets) or reads the file (--db)
curl -sf "$URL/api/v1/top?window=10s&sort=cpu&limit=5" >"$TMP/top.json" || fail "top failed"
jq '.rows' "$TMP/top.json" >"$TMP/rows.json"
[ "$(jq -r '.[0].comm' "$TMP/rows.json")" = httpspin ] || fail "spinner is not the first row: $(head -c 300 "$TMP/top.json")"
jq -e '.sort == "task_clock_ns" and .by == "process" and (.columns | length) > 5 and .window.ncpus > 0' \
	"$TMP/top.json" >/dev/null || fail "top header fields: $(head -c 400 "$TMP/top.json")"
for src in "--db $TMP/db" "--url $URL" "--url unix:$SOCK"; do
	# shellcheck disable=SC2086
	"$STACKCTL" top $src --window 10s --sort cpu --limit 5 --json >"$TMP/cli.json" || fail "stackctl top $src"
	[ "$(jq -c '.[0] | keys' "$TMP/rows.json")" = "$(jq -c '.[0] | keys' "$TMP/cli.json")" ] ||
		fail "API and CLI ($src) fields differ: $(jq -c '.[0] | keys' "$TMP/rows.json") vs $(jq -c '.[0] | keys' "$TMP/cli.json")"
done
[ "$(jq -r '.[0].pid' "$TMP/rows.json")" = "$SPIN" ] || fail "wrong pid: $(jq -r '.[0].pid' "$TMP/rows.json") vs $SPIN"
[ "$(jq length "$TMP/rows.json")" -le 5 ] || fail "limit ignored"
[ "$(curl -sf "$URL/api/v1/top?comm=httpspin" | jq '.rows | length')" = 1 ] || fail "comm filter"
[ "$(curl -sf "$URL/api/v1/top?comm=httpspin&by=comm" | jq -r '.rows[0].processes')" = 1 ] || fail "by=comm"
# export: pages joined by "next" give the same rows as one page
curl -sf "$URL/api/v1/export?from=5s&who=comm:httpspin&limit=2" >"$TMP/e1.json" || fail "export"
jq -e '(.rows | length) == 2 and (.next | type) == "string" and all(.rows[]; .comm == "httpspin")' \
	"$TMP/e1.json" >/dev/null || fail "export page: $(head -c 400 "$TMP/e1.json")"

# one process, by pid and by comm; a series
curl -sf "$URL/api/v1/processes/$SPIN?window=30s" >"$TMP/p.json" || fail "processes/PID"
[ "$(jq -r '.processes[0].comm' "$TMP/p.json")" = httpspin ] || fail "process detail"
jq -e '.metrics | length > 0 and all(.coverage >= 0 and .coverage <= 1)' "$TMP/p.json" >/dev/null ||
	fail "metrics with coverage"
jq -e '.cpu_percent > 50' "$TMP/p.json" >/dev/null || fail "spinner below 50% CPU: $(jq .cpu_percent "$TMP/p.json")"
[ "$(curl -sf "$URL/api/v1/comms/httpspin" | jq -r .process_count)" = 1 ] || fail "comms/NAME"
curl -sf "$URL/api/v1/series?who=pid:$SPIN&metric=cpu_percent&from=20s&step=1s" >"$TMP/s.json" || fail "series"
jq -e '(.points | length) >= 2 and ([.points[].value] | max) > 50' "$TMP/s.json" >/dev/null ||
	fail "series points: $(head -c 400 "$TMP/s.json")"
curl -sf "$URL/api/v1/system" >"$TMP/sys.json" || fail "system"
jq -e '.model == "software" and .collector.lost_records == 0 and .collector.bad_samples == 0 and
	(.collector | has("backwards_reads") and has("unknown_id_samples")) and .database.bytes > 0 and
	.uptime_s > 0 and .running' \
	"$TMP/sys.json" >/dev/null || fail "system fields: $(cat "$TMP/sys.json")"
# the per-switch sampling cost, measured at start on this host
jq -e '.sampling_cost.measured and .sampling_cost.ns_per_switch >= 0 and
	(.sampling_cost.method | test("ping-pong on cpu [0-9]+ at start")) and
	(.sampling_cost.calibrated_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$"))' "$TMP/sys.json" >/dev/null ||
	fail "sampling cost not measured: $(jq -c .sampling_cost "$TMP/sys.json")"
note "sampling cost: $(jq -r '"\(.sampling_cost.ns_per_switch) ns per switch (\(.sampling_cost.method))"' "$TMP/sys.json")"
# periodic mode's costs, measured at start, and the rate they give (within
# half of the default 2% budget for stackd's own samples, taken as twice
# the bare one timed; 100-1000 Hz; periodic_hz to 0.1 Hz)
jq -e '.sampling_cost.ns_per_clock_sample >= 0 and .sampling_cost.ns_per_counted_switch >= 0 and
	.sampling_cost.periodic_hz >= 100 and .sampling_cost.periodic_hz <= 1000 and
	(.sampling_cost.periodic_hz == 1000 or .sampling_cost.periodic_hz == 100 or
	 (.sampling_cost.periodic_hz - 0.05) * 2 * .sampling_cost.ns_per_clock_sample <= 0.01e9) and
	(.sampling_cost.periodic_cost_method | test("beside a 10000 Hz cpu-clock sampler")) and
	(.periodic_cost_fraction >= 0)' "$TMP/sys.json" >/dev/null ||
	fail "periodic mode's costs: $(jq -c '[.sampling_cost, .periodic_cost_fraction]' "$TMP/sys.json")"
note "periodic mode: $(jq -r '"\(.sampling_cost.periodic_hz) Hz, \(.sampling_cost.ns_per_clock_sample) ns per clock sample"' "$TMP/sys.json")"

# strict parameters, unknown paths, methods
expect() {  # expect STATUS BODY-PATTERN URL [CURL ARGS]
	want=$1 pat=$2 url=$3
	shift 3
	got=$(curl -s -o "$TMP/err.json" -w '%{http_code}' "$@" "$url")
	[ "$got" = "$want" ] || fail "$url: status $got, want $want: $(cat "$TMP/err.json")"
	grep -q "$pat" "$TMP/err.json" || fail "$url: body lacks '$pat': $(cat "$TMP/err.json")"
	note "$want $(echo "$url" | cut -c1-90): $(cat "$TMP/err.json")"
}
expect 400 "unknown parameter 'windw'" "$URL/api/v1/top?windw=60s"
expect 400 "parameter 'window': invalid duration" "$URL/api/v1/top?window=soon"
expect 400 "parameter 'limit'" "$URL/api/v1/top?limit=-1"
expect 400 "given twice" "$URL/api/v1/top?limit=1&limit=2"
expect 400 "parameter 'sort': unknown column" "$URL/api/v1/top?sort=nope"
expect 400 "longer than the limit" "$URL/api/v1/top?window=3651d"
expect 400 "parameter 'who'" "$URL/api/v1/series?who=bob&metric=cpu_percent"
expect 400 "parameter 'metric': unknown metric" "$URL/api/v1/series?who=pid:1&metric=nope"
expect 400 "not a process id" "$URL/api/v1/processes/abc"
# a metric another model computes is missing from the data, not misspelt
if [ "$(curl -sf "$URL/api/v1/system" | jq -r .model)" = software ]; then
	expect 404 "needs backend_bound, which the software model does not compute (skl does)" \
		"$URL/api/v1/top?sort=backend"
	expect 404 "does not compute frontend_bound (skl does)" \
		"$URL/api/v1/series?who=pid:1&metric=frontend_bound"
else
	skip_check "404 for another model's metric: the software model's host only"
fi
expect 404 "no pid '999999'" "$URL/api/v1/processes/999999"
expect 404 "no such endpoint" "$URL/api/v1/nothing"
expect 405 "not allowed" "$URL/api/v1/top" -X POST
expect 414 "too long" "$URL/api/v1/top?comm=$(head -c 3000 /dev/zero | tr '\0' a)"
curl -s -D "$TMP/h" -o /dev/null -X DELETE "$URL/api/v1/top"
grep -qi "^Allow: GET, HEAD" "$TMP/h" || fail "405 without Allow"

# who sees what: root everything; nobody only its own processes (none)
[ "$(curl -sf --unix-socket "$SOCK" "http://localhost/api/v1/top?comm=httpspin" | jq '.rows | length')" = 1 ] ||
	fail "root on the Unix socket sees the spinner"
[ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups curl -sf --unix-socket "$SOCK" "http://localhost/api/v1/top?comm=httpspin" | jq '.rows | length')" = 0 ] ||
	fail "nobody sees root's process on the Unix socket"
[ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups curl -sf "$URL/api/v1/top?comm=httpspin" | jq '.rows | length')" = 0 ] ||
	fail "nobody sees root's process over loopback TCP"
[ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/processes/$SPIN")" = 404 ] ||
	fail "nobody reads root's process detail"
[ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups curl -s "$URL/api/v1/top?user=0" -o /dev/null -w '%{http_code}')" = 403 ] ||
	fail "nobody asking for user=0 is not refused"
setpriv --reuid=nobody --regid=nogroup --clear-groups curl -sf "$URL/metrics" | grep -q "comm=" &&
	fail "nobody reads per-command metrics"
# stackctl as nobody goes through the socket and is filtered the same way
[ "$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$STACKCTL" top --url "unix:$SOCK" --comm httpspin --json | jq length)" = 0 ] ||
	fail "stackctl as nobody sees root's process"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$STACKCTL" show --url "unix:$SOCK" "$SPIN" 2>"$TMP/show.err" &&
	fail "stackctl show as nobody shows root's process"
grep -q "no pid '$SPIN' ran" "$TMP/show.err" || fail "show as nobody: $(cat "$TMP/show.err")"

# the page, and nothing beside it
[ "$(http_status "$URL/")" = 200 ] || fail "no dashboard at /"
curl -sI "$URL/" | grep -qi "content-security-policy: default-src 'self'" || fail "no CSP on the page"
[ "$(http_status "$URL/app.js")" = 200 ] || fail "no app.js"
[ "$(http_status "$URL/../../etc/passwd" --path-as-is)" = 404 ] || fail "path traversal"
[ "$(http_status "$URL/%2e%2e%2fetc%2fpasswd")" = 404 ] || fail "encoded traversal"
[ "$(http_status "$URL/.hidden")" = 404 ] || fail "dot file"

# a burst of parallel clients, then SIGTERM with a connection open
for i in 1 2 3 4 5 6 7 8; do curl -sf "$URL/api/v1/top" -o /dev/null & done
wait_jobs=0
for j in $(jobs -p); do [ "$j" = "$SPIN" ] || wait "$j" || wait_jobs=$((wait_jobs + 1)); done
[ "$wait_jobs" -eq 0 ] || fail "$wait_jobs parallel requests failed"
sleep 4 | curl -s "telnet://127.0.0.1:$PORT" >/dev/null 2>&1 &   # an idle open connection
sleep 0.3
kill "$SPIN" 2>/dev/null
stop_daemon
[ ! -e "$SOCK" ] || fail "Unix socket left behind"

# Without --web-dir stackd serves the dashboard built into it: the very
# bytes of web/, whatever directory it runs from; web_dir = none serves no page.
here=$PWD
cd /
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT"
cd "$here"
wait_more_intervals "$TMP/db" 1 || fail "no interval after the restart"
for f in index.html app.js stacks.js style.css; do
	curl -sf "$URL/$f" -o "$TMP/builtin-$f" || fail "builtin $f not served"
	cmp -s "$TMP/builtin-$f" "$WEB/$f" || fail "builtin $f differs from web/$f"
done
curl -sf "$URL/" | cmp -s - "$WEB/index.html" || fail "/ is not the builtin index.html"
[ "$(http_status "$URL/README.md")" = 404 ] || fail "builtin serves a file it should not"
stop_daemon
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT" --web-dir none
wait_more_intervals "$TMP/db" 1 || fail "no interval after the second restart"
[ "$(http_status "$URL/")" = 404 ] || fail "web_dir = none still serves a page"
[ "$(http_status "$URL/api/v1/system")" = 200 ] || fail "web_dir = none stopped the API"
stop_daemon
exit 0
