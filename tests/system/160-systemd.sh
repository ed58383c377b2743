#!/bin/sh
# Operations without systemd as PID 1: the unit passes `systemd-analyze
# verify` and keeps a low `security` exposure; the notify protocol seen by a
# stand-in NOTIFY_SOCKET (READY=1 once ready, STATUS= lines, WATCHDOG=1
# every half period, RELOADING=1/READY=1 on SIGHUP, STOPPING=1); least
# privilege: as nobody stackd refuses with the fix named, and as nobody
# with only CAP_PERFMON (what the unit grants) it counts everyone's
# processes, and re-plans its counter groups on SIGHUP after the drop.
. "$(dirname "$0")/lib.sh"
need_root
share_binaries   # run as nobody below
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
UNIT=$ROOT/systemd/stackd.service
MAX_EXPOSURE=2.0   # issue 28: at or below 2.0 with the CPU quota gone

# --- the unit ------------------------------------------------------------------
if command -v systemd-analyze >/dev/null; then
	# verify wants ExecStart to exist: the same unit, pointing at this build
	sed "s|^ExecStart=/usr/sbin/stackd|ExecStart=$BUILD/stackd|" "$UNIT" >"$TMP/stackd.service"
	systemd-analyze verify --man=no "$TMP/stackd.service" >"$TMP/verify" 2>&1 ||
		{ cat "$TMP/verify"; fail "systemd-analyze verify"; }
	systemd-analyze security --offline=true "$TMP/stackd.service" >"$TMP/security" 2>&1
	score=$(sed -n 's/.*Overall exposure level for stackd.service: \([0-9.]*\).*/\1/p' "$TMP/security")
	[ -n "$score" ] || { cat "$TMP/security"; fail "no exposure score"; }
	note "systemd-analyze security: exposure $score (0 = locked down, 10 = exposed)"
	awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }' ||
		fail "exposure $score above $MAX_EXPOSURE"
else
	skip_check "systemd-analyze verify and security: systemd-analyze is not installed"
fi
# A CPU quota throttles the workers and the start's calibration with the
# API (issue 28): a weight instead.
! grep -q "^CPUQuota=" "$UNIT" || fail "the unit sets a CPUQuota (use CPUWeight)"
grep -q "^CPUWeight=" "$UNIT" || fail "the unit sets no CPUWeight"
grep -q "^AmbientCapabilities=CAP_PERFMON$" "$UNIT" && grep -q "^CapabilityBoundingSet=CAP_PERFMON$" "$UNIT" ||
	fail "the unit must grant CAP_PERFMON and nothing else"

# --- the notify protocol -------------------------------------------------------
"$HELPERS/notify_listen" "$TMP/notify.sock" 9 >"$TMP/notify.out" &
LISTENER=$!
sleep 0.3
NOTIFY_SOCKET=$TMP/notify.sock WATCHDOG_USEC=1000000 \
	"$STACKD" --user root --db "$TMP/n.db" --listen none --interval 1s >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
sleep 4
kill -HUP "$DAEMON_PID"
sleep 1.5
stop_daemon
wait "$LISTENER"
sed 's/^/    | /' "$TMP/notify.out"
first=$(head -n 1 "$TMP/notify.out" | cut -d' ' -f2-)
case $first in READY=1*) ;; *) fail "first message is not READY=1: $first" ;; esac
grep -q "STATUS=collecting on [0-9]* CPUs: model software" "$TMP/notify.out" || fail "no start STATUS"
grep -q "STATUS=model software: [0-9]* processes ran in the last interval; [0-9]* intervals written$" \
	"$TMP/notify.out" || fail "no per-interval STATUS"
pings=$(grep -c " WATCHDOG=1$" "$TMP/notify.out")
[ "$pings" -ge 8 ] || fail "$pings watchdog pings in about 6 s at WATCHDOG_USEC=1s, want one per 0.5 s"
# no gap between pings longer than the watchdog period itself
awk '/ WATCHDOG=1$/ { if (last != "" && $1 - last > 1000) bad = 1; last = $1 } END { exit bad }' \
	"$TMP/notify.out" || fail "a watchdog gap longer than WATCHDOG_USEC"
grep -A1 " RELOADING=1$" "$TMP/notify.out" | grep -q " READY=1$" || fail "SIGHUP: no RELOADING=1 then READY=1"
tail -n 3 "$TMP/notify.out" | grep -q " STOPPING=1$" || fail "no STOPPING=1 at the end"
note "notify: READY, STATUS, $pings watchdog pings, reload and stop seen"

# a watchdog meant for another process is not ours to feed
"$HELPERS/notify_listen" "$TMP/notify2.sock" 4 >"$TMP/notify2.out" &
LISTENER=$!
sleep 0.3
NOTIFY_SOCKET=$TMP/notify2.sock WATCHDOG_USEC=1000000 WATCHDOG_PID=1 \
	"$STACKD" --user root --db "$TMP/n2.db" --listen none --interval 1s >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
sleep 2.5
stop_daemon
wait "$LISTENER"
grep -q "READY=1" "$TMP/notify2.out" || fail "no READY=1 with WATCHDOG_PID of another process"
grep -q "WATCHDOG=1" "$TMP/notify2.out" && fail "pinged a watchdog meant for pid 1"

# --- least privilege -------------------------------------------------------------
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
chmod 777 "$TMP"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$paranoid" -gt 0 ]; then
	rc=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$STACKD" --db "$TMP/nobody.db" --listen none >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 1 ] || fail "stackd without CAP_PERFMON exited $rc, want 1"
	one_line_error "$TMP/err"
	grep -q "CAP_PERFMON" "$TMP/err" && grep -q "perf_event_paranoid" "$TMP/err" ||
		fail "the error does not name the capability and the sysctl: $(cat "$TMP/err")"
	[ ! -e "$TMP/nobody.db" ] || fail "a database was created although counting was refused"
	note "without CAP_PERFMON (paranoid $paranoid): $(cat "$TMP/err")"
else
	skip_check "refusal without CAP_PERFMON: perf_event_paranoid is $paranoid, any user may count"
fi
"$HELPERS/spin" 6 rootspin >/dev/null &
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon \
	"$STACKD" --db "$TMP/cap.db" --listen none --interval 1s >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$TMP/cap.db" 3 20 || { cat "$TMP/stackd.log"; fail "no intervals as nobody+CAP_PERFMON"; }
stop_daemon
n=$(sqlite3 -readonly "$TMP/cap.db" "SELECT count(*) FROM sample JOIN process p ON p.id = process_id WHERE p.comm = 'rootspin'")
[ "$n" -gt 0 ] || fail "nobody with CAP_PERFMON did not count root's process"
[ "$(stat -c %U "$TMP/cap.db")" = nobody ] || fail "database not owned by the daemon's user"
note "as nobody with only CAP_PERFMON: counted root's rootspin in $n rows"

# started as root: refuse without the user, else open everything and become it
rc=0
"$STACKD" --db "$TMP/nouser.db" --listen none --user no-such-user-here >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 1 ] || fail "a missing user did not stop stackd (exit $rc)"
one_line_error "$TMP/err"
grep -q "useradd --system no-such-user-here" "$TMP/err" && grep -q "user root" "$TMP/err" ||
	fail "the error does not say how to fix it: $(cat "$TMP/err")"
[ ! -e "$TMP/nouser.db" ] || fail "a database was created before refusing"
SOCK=$TMP/drop.sock
"$HELPERS/spin" 12 dropspin >/dev/null &
printf 'families = all\n' >"$TMP/drop.conf"
chmod 644 "$TMP/drop.conf"
"$STACKD" --db "$TMP/drop.db" --config "$TMP/drop.conf" --model software --listen "unix:$SOCK" \
	--interval 1s --user nobody >"$TMP/stackd.log" 2>&1 &
DAEMON_PID=$!
wait_intervals "$TMP/drop.db" 3 20 || { cat "$TMP/stackd.log"; fail "no intervals after dropping to nobody"; }
grep -q "running as nobody with CAP_PERFMON only" "$TMP/stackd.log" || fail "no drop reported"
# A SIGHUP that changes the counter groups opens perf events again, as
# nobody: the main thread's CAP_PERFMON is enough (the capability checks
# below then cover the new workers too).
printf 'families = faults\n' >"$TMP/drop.conf"
kill -HUP "$DAEMON_PID"
wait_log "re-planned the counter groups, now 1 group: faults"
wait_more_intervals "$TMP/drop.db" 2 || { cat "$TMP/stackd.log"; fail "no intervals after the re-plan as nobody"; }
[ "$(sqlite3 -readonly "$TMP/drop.db" "SELECT value FROM meta WHERE key = 'groups'")" = faults ] ||
	fail "the re-plan as nobody did not take"
status=/proc/$DAEMON_PID/status
uid=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' "$status")
[ "$uid" = "65534 65534 65534 65534" ] || fail "uids after the drop: $uid"
for set in CapEff CapPrm CapBnd; do
	v=$(awk -v s="$set:" '$1 == s { print $2 }' "$status")
	[ "$v" = 0000004000000000 ] || fail "$set is $v, want CAP_PERFMON only (0000004000000000)"
done
[ "$(awk '/^CapInh:/ { print $2 }' "$status")" = 0000000000000000 ] || fail "inheritable capabilities left"
# every thread (workers, HTTP, the guard's reaper), not only the main one:
# capabilities and the bounding set are per thread
threads=0
for t in /proc/$DAEMON_PID/task/*; do
	threads=$((threads + 1))
	for set in CapEff CapPrm CapBnd; do
		v=$(awk -v s="$set:" '$1 == s { print $2 }' "$t/status")
		[ "$v" = 0000004000000000 ] ||
			fail "thread $(basename "$t") ($(cat "$t/comm")): $set is $v, want CAP_PERFMON only"
	done
done
[ "$threads" -ge 4 ] || fail "only $threads threads: the workers and the API's should be there"
note "all $threads threads: CapEff = CapPrm = CapBnd = CAP_PERFMON only"
[ "$(stat -c %U "$TMP/drop.db")" = nobody ] || fail "the database was not given to nobody"
# root's process is counted, and the API (a new reader after the drop) works
"$STACKCTL" top --url "unix:$SOCK" --comm dropspin --json >"$TMP/drop.json" || fail "API after the drop"
[ "$(jq length "$TMP/drop.json")" = 1 ] || fail "dropspin not in the API after the drop: $(cat "$TMP/drop.json")"
stop_daemon
note "root -> nobody: uids 65534, CapEff/CapPrm/CapBnd = CAP_PERFMON only, API and counting work"
exit 0
