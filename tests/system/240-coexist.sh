#!/bin/sh
# Other samplers on the host (issue 16): a second stackd is refused unless
# --allow-second, and with (a) a second stackd, (b) perf record sampling
# every context switch, (c) perf stat counting them system-wide, a
# spinner's task-clock stays within 2% of `perf stat -p` and a sleeper's
# switches within 2% of the kernel's count - in both daemons for (a).
# When another reader samples switches, our samples can carry its event id
# (the kernel fills one sample's data for all software events of a switch);
# those are attributed all the same and counted as foreign_id_samples.
. "$(dirname "$0")/lib.sh"
need_root
command -v perf >/dev/null || skip "perf is not installed"

# --- a second stackd is refused, naming the first ------------------------------
start_daemon "$TMP/a.db"
first=$DAEMON_PID
if timeout 20 "$STACKD" --db "$TMP/refused.db" --interval 1s --listen none --user root \
	>"$TMP/out" 2>"$TMP/err"; then
	fail "a second stackd started without --allow-second"
fi
one_line_error "$TMP/err"
grep -qF "another stackd (pid $first) is collecting on this host" "$TMP/err" ||
	{ cat "$TMP/err"; fail "the refusal does not name the first stackd"; }
[ ! -e "$TMP/refused.db" ] || fail "the refused stackd created its database"
note "refused: $(cat "$TMP/err")"

# check NAME DB: the spinner's and sleeper's figures in DB against the kernel's
check() {
	label=$1 db=$2
	"$STACKCTL" top --db "$db" --window 120s --json >"$TMP/top.json" || fail "$label: stackctl top failed"
	tc=$(jq '[.[] | select(.comm == "cospin") | .task_clock_ns] | add // 0' "$TMP/top.json")
	sw=$(jq '[.[] | select(.comm == "cosleep") | .context_switches] | add // 0' "$TMP/top.json")
	foreign=$(sqlite3 -readonly "$db" "SELECT sum(foreign_id_samples) FROM interval")
	unknown=$(sqlite3 -readonly "$db" "SELECT sum(unknown_id_samples) FROM interval")
	periodic=$(sqlite3 -readonly "$db" "SELECT sum(periodic_ns) FROM interval WHERE end_ns > (SELECT max(end_ns) - 6000000000 FROM interval)")
	note "$label: periodic ns in the last 6 s: $periodic"
	note "$label: spinner $tc ns vs perf stat -p $perf_ns (ratio $(ratio "$tc" "$perf_ns")); sleeper $sw switches vs kernel $kernel (ratio $(ratio "$sw" "$kernel")); foreign-id samples $foreign, unknown $unknown"
	within "$tc" "$perf_ns" 2 || fail "$label: spinner task-clock off by more than 2%"
	within "$sw" "$kernel" 2 || fail "$label: sleeper switches off by more than 2%"
}

# workload: a 3 s spinner under perf stat -p (perf's child execs it) and a
# sleeper waking 1000 times, at the same time
workload() {
	perf stat -x, -e task-clock -o "$TMP/perf.csv" -- "$HELPERS/spin" 3 cospin >/dev/null &
	spin_pid=$!
	"$HELPERS/sleeper" 1000 1000 cosleep >"$TMP/sleep.out" || fail "the sleeper failed"
	wait "$spin_pid" || fail "the spinner failed"
	perf_ns=$(awk -F, '$3 == "task-clock" { printf "%.0f\n", $1 * 1000000 }' "$TMP/perf.csv")
	kernel=$(sed -n 's/^switches=//p' "$TMP/sleep.out")
}

# --- (a) a second stackd, allowed ---------------------------------------------
"$STACKD" --db "$TMP/b.db" --interval 1s --listen none --user root --allow-second \
	>"$TMP/b.log" 2>&1 &
second=$!
# a failing check must not leave the second daemon running
trap 'kill -KILL "$second" 2>/dev/null; cleanup' EXIT INT TERM
wait_intervals "$TMP/b.db" 1 20 || { cat "$TMP/b.log"; fail "the allowed second stackd stored nothing"; }
grep -q "running beside it (--allow-second)" "$TMP/b.log" || fail "the second stackd did not say it runs beside the first"
wait_more_intervals "$TMP/b.db" 1 || fail "no intervals"
# The second stackd's start-up calibration bounces ~500,000 switches/s
# through one CPU for 0.4 s: the first's cost budget rightly sends that CPU
# to periodic (statistical) sampling for a few seconds.  This test is
# about exact attribution beside another sampler: wait until both sample
# every switch again.
for db in "$TMP/a.db" "$TMP/b.db"; do
	i=0
	while [ "$(sqlite3 -readonly "$db" "SELECT periodic_ns FROM interval WHERE rollup_s = 0 ORDER BY end_ns DESC LIMIT 1")" != 0 ]; do
		i=$((i + 1))
		[ "$i" -le 150 ] || fail "$db: still sampling periodically after 15 s"
		sleep 0.1
	done
done
workload
wait_more_intervals "$TMP/a.db" 2 || fail "no intervals in a.db after the workload"
wait_more_intervals "$TMP/b.db" 2 || fail "no intervals in b.db after the workload"
check "(a) first stackd beside a second" "$TMP/a.db"
check "(a) second stackd beside the first" "$TMP/b.db"
kill -TERM "$second"
wait "$second" || fail "the second stackd exited with $? after SIGTERM"
trap cleanup EXIT INT TERM
stop_daemon

# --- (b) perf record of every switch, (c) perf stat -a -----------------------
for peer in record stat; do
	db="$TMP/$peer.db"
	start_daemon "$db"
	if [ "$peer" = record ]; then
		perf record -q -e context-switches -c 1 -a -o "$TMP/perf.data" -- sleep 12 \
			>/dev/null 2>&1 &
	else
		perf stat -a -e context-switches -o "$TMP/perf-a.txt" -- sleep 12 >/dev/null 2>&1 &
	fi
	peer_pid=$!
	trap 'kill -INT "$peer_pid" 2>/dev/null; cleanup' EXIT INT TERM
	sleep 1
	workload
	wait_more_intervals "$db" 2 || fail "no intervals after the workload"
	check "($peer) beside perf $peer" "$db"
	kill -INT "$peer_pid" 2>/dev/null
	wait "$peer_pid" 2>/dev/null
	stop_daemon
done
echo ok
