#!/bin/sh
# Open what opens (issue 30): a host that refuses one of the model's events
# (one a guest's CPUID does not enumerate, a kernel without it) loses that
# family only.
# The refusal is made real at the one place the kernel says it: an
# LD_PRELOAD shim fails perf_event_open() of CPU-MIGRATIONS with ENOENT
# (tests/helpers/refuse_event.c), so the daemon's own open, plan and
# reports run unchanged.  The daemon keeps collecting the faults family
# and says what it left out and why in its log, status, /api/v1/system
# and /metrics; a host refusing every family stops the start with one
# line naming the host.  The shim needs the non-ASan build (ASan wants
# its runtime first in the library list).
. "$(dirname "$0")/lib.sh"
need_root
STACKD=$BUILD/stackd
SHIM=$HELPERS/refuse_event
[ -x "$STACKD" ] && [ -f "$SHIM" ] || fail "build $STACKD and $SHIM first (make system)"

port=$(free_port)
DB=$TMP/open.db
# PERF_TYPE_SOFTWARE (1), PERF_COUNT_SW_CPU_MIGRATIONS (4)
LD_PRELOAD=$SHIM STACKD_TEST_REFUSE_EVENT=1:4 "$STACKD" --db "$DB" --interval 1s \
	--model software --listen "127.0.0.1:$port" --user root >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$DB" 2 20 || { cat "$TMP/stackd.log"; fail "the daemon stored nothing with one family refused"; }

# the log
wait_log "family migrations not collected: this host refused it"
grep -F "family migrations not collected" "$TMP/stackd.log" | grep -qF "No such file or directory" ||
	fail "the log does not give the kernel's answer"
note "log: $(grep -F 'family migrations' "$TMP/stackd.log" | head -1)"

# /api/v1/system: the plan in force says which family and why
curl -sf "http://127.0.0.1:$port/api/v1/system" >"$TMP/system.json" || fail "/api/v1/system failed"
jq -e '.plan.families[] | select(.name == "migrations") |
	(.collected == false and .refused == true and (.why | test("CPU-MIGRATIONS")))' \
	"$TMP/system.json" >/dev/null || { jq .plan "$TMP/system.json"; fail "/api/v1/system does not report the refused family"; }
jq -e '.plan.families[] | select(.name == "faults") | .collected == true' "$TMP/system.json" \
	>/dev/null || fail "/api/v1/system: faults not collected"
jq -e '[.plan.groups[] | .family] == ["faults"]' "$TMP/system.json" >/dev/null ||
	{ jq .plan.groups "$TMP/system.json"; fail "the plan in force still opens the refused family"; }

# /metrics
curl -sf "http://127.0.0.1:$port/metrics" >"$TMP/metrics" || fail "/metrics failed"
grep -qx 'stackd_family_collected{family="migrations",reason="refused"} 0' "$TMP/metrics" ||
	{ grep family "$TMP/metrics"; fail "/metrics does not report the refused family"; }
grep -qx 'stackd_family_collected{family="faults",reason=""} 1' "$TMP/metrics" ||
	fail "/metrics does not report the faults family counted"

# the rest counts: a process touching pages has its faults, rotation
# never gives time to the refused family
"$HELPERS/touch_pages" 64 tpages >/dev/null || fail "touch_pages failed"
wait_more_intervals "$DB" 2 || fail "no more intervals"
pf=$("$STACKCTL" top --db "$DB" --window 60s --json | jq '[.[] | select(.comm == "tpages") | .page_faults] | add // 0')
[ "${pf%.*}" -ge 16000 ] || fail "the faults family did not count 64 MiB of touched pages ($pf faults)"
note "faults family: $pf page faults for 64 MiB touched (16384 pages)"
"$STACKCTL" status --db "$DB" --window 60s >"$TMP/status" || fail "stackctl status failed"
grep -q "migrations.*refused" "$TMP/status" || { cat "$TMP/status"; fail "status does not say the family was refused"; }
note "status: $(grep 'migrations' "$TMP/status" | head -1)"
faults=$(sqlite3 -readonly "$DB" "SELECT count(*) FROM counter_group WHERE name = 'migrations'")
[ "$faults" -eq 0 ] || fail "the refused family was registered as a counter group"
stop_daemon

# every family refused: the start stops, in one line, naming the host
if LD_PRELOAD=$SHIM STACKD_TEST_REFUSE_EVENT=1:2,1:4 timeout 20 "$STACKD" --db "$TMP/none.db" \
	--interval 1s --model software --listen none --user root >"$TMP/out" 2>"$TMP/err"; then
	fail "stackd started with every family refused"
fi
grep -F "no counter of model software opens on this host" "$TMP/err" | grep -qF "2 families refused" ||
	{ cat "$TMP/err"; fail "the refusal of everything is not explained"; }
note "nothing opens: $(grep -F 'no counter' "$TMP/err")"
