# part_churn - stackd's memory under process churn, and a small API answer
# during a fork storm (issue 34, "Memory and churn").  Sourced by
# tests/bench/run (BENCH_PARTS=churn), which gives $BUILD, $STACKD, $TMP
# and median().
#
# Method.  One stackd at --interval 1s listening on loopback, its store in
# $TMP.  Its memory is read from the kernel: VmRSS of /proc/PID/status,
# and /proc/PID/smaps split into the brk heap ([heap]: the main arena),
# other anonymous memory (thread arenas, thread stacks, SQLite's mmaps)
# and file-backed pages (the binary and libraries).  In this order:
#   idle     3 s after the start (the peer every RSS figure is set against)
#   live     5,000 sleepers alive (helpers/sleeper, one wake-up a second),
#            after 4 intervals have stored them all
#   storm    the maximum, read every second, while helpers/forkstorm forks
#            2,000 short-lived processes a second for CHURN_SECS (default
#            60: 120,000 processes, each one stored with its name and user)
#   after    CHURN_AFTER (10) seconds after the storm ends
# Target: RSS < 30 MB at live, storm and after.  And memory comes back:
# after - idle is what the storm left behind.
# Latency: GET /api/v1/top?limit=1 with curl (its time_total: connect to
# last byte), once every 200 ms for 10 s before the storm (the peer) and
# through the storm; p50 and p99.  Target: p99 < 20 ms during the storm.
# Those requests ask for the same URL, as a dashboard polling does.
# Runs in about 2.5 minutes.
CHURN_SECS=${CHURN_SECS:-60}
CHURN_AFTER=${CHURN_AFTER:-10}
CHURN_LIVE=${CHURN_LIVE:-5000}

# churn_mem PID: "rss_kb heap_kb anon_kb file_kb" from smaps (anon_kb: the
# anonymous memory other than the heap)
churn_mem() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { heap = ($6 == "[heap]"); file = ($6 ~ /^\//) }
		/^Rss:/ { rss += $2; if (heap) h += $2; else if (file) f += $2; else a += $2 }
		END { printf "%d %d %d %d\n", rss, h, a, f }' /proc/"$1"/smaps 2>/dev/null
}

# churn_lat URL SECS OUT: one request every 200 ms for SECS, seconds to OUT
churn_lat() {
	end=$(( $(date +%s) + $2 ))
	while [ "$(date +%s)" -lt "$end" ]; do
		curl -s -o /dev/null -m 5 -w '%{time_total}\n' "$1" >>"$3"
		sleep 0.2
	done
}

# churn_pct P FILE: the P-th percentile of FILE's numbers (nearest rank)
churn_pct() {
	sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		i = int(NR * p / 100 + 0.999999); if (i < 1) i = 1; print v[i] }'
}

churn_mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }

churn_verdict() {   # churn_verdict KB: beside the 30 MB target
	awk -v k="$1" 'BEGIN { printf "target < 30 MB: %s", k / 1024 < 30 ? "met" : "MISSED" }'
}

part_churn() {
PORT=19467
URL="http://127.0.0.1:$PORT/api/v1/top?limit=1"
echo "bench: memory under churn, $CHURN_LIVE live sleepers then ${CHURN_SECS} s of 2000 forks/s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
rm -f "$TMP/churn.db"*
"$STACKD" --user root --db "$TMP/churn.db" --interval 1s --listen "127.0.0.1:$PORT" --allow-second \
	>"$TMP/churn.log" 2>&1 &
sp=$!
sleep 3
kill -0 "$sp" 2>/dev/null || { echo "  stackd did not start:"; sed 's/^/  /' "$TMP/churn.log"; return 0; }
set -- $(churn_mem "$sp")
idle=$1
echo "  idle: RSS $(churn_mb "$1") (heap $(churn_mb "$2"), other anonymous $(churn_mb "$3"), files $(churn_mb "$4"))"

# 5,000 live processes: each wakes once a second (so each is charged and
# stored every interval), killed once measured
: >"$TMP/churn.pids"
i=0
while [ "$i" -lt "$CHURN_LIVE" ]; do
	"$BUILD/helpers/sleeper" 600 1000000 churnsleep >/dev/null 2>&1 &
	echo $! >>"$TMP/churn.pids"
	i=$((i + 1))
done
sleep 5
set -- $(churn_mem "$sp")
live=$1
stored=$(sqlite3 -readonly "$TMP/churn.db" "SELECT count(*) FROM process WHERE comm = 'churnsleep'")
echo "  $CHURN_LIVE live sleepers ($stored stored): RSS $(churn_mb "$1") (heap $(churn_mb "$2"), other anonymous $(churn_mb "$3")); $(churn_verdict "$1"); idle $(churn_mb "$idle") the peer"
xargs kill <"$TMP/churn.pids" 2>/dev/null
for p in $(cat "$TMP/churn.pids"); do wait "$p" 2>/dev/null; done
sleep 3
set -- $(churn_mem "$sp")
echo "  once they exited: RSS $(churn_mb "$1") (heap $(churn_mb "$2"), other anonymous $(churn_mb "$3"))"

: >"$TMP/churn.before"
churn_lat "$URL" 10 "$TMP/churn.before"

: >"$TMP/churn.during"
# a loaded host cannot keep the pace: the storm stops CHURN_SECS + 30 s on
# whatever it forked by then (the stored count below says how many)
timeout "$((CHURN_SECS + 30))" "$BUILD/helpers/forkstorm" 2000 "$CHURN_SECS" >"$TMP/churn.storm" &
fp=$!
churn_lat "$URL" "$CHURN_SECS" "$TMP/churn.during" &
lp=$!
peak=0 peak_line=""
while kill -0 "$fp" 2>/dev/null; do
	set -- $(churn_mem "$sp")
	if [ "${1:-0}" -gt "$peak" ]; then
		peak=$1
		peak_line="heap $(churn_mb "$2"), other anonymous $(churn_mb "$3")"
	fi
	sleep 1
done
wait "$fp"
wait "$lp"
forked=$(sed -n 's/^forked=//p' "$TMP/churn.storm")
forked=${forked:-"(cut short at $((CHURN_SECS + 30)) s)"}
took=$(sed -n 's/^seconds=//p' "$TMP/churn.storm")
echo "  storm: $forked processes forked in ${took:-$((CHURN_SECS + 30))} s; RSS at most $(churn_mb "$peak") ($peak_line); $(churn_verdict "$peak"); idle $(churn_mb "$idle") the peer"
sleep "$CHURN_AFTER"
set -- $(churn_mem "$sp")
after=$1
echo "  ${CHURN_AFTER} s after the storm: RSS $(churn_mb "$1") (heap $(churn_mb "$2"), other anonymous $(churn_mb "$3")); $(churn_verdict "$1"); the storm left $(churn_mb $((after - idle))) over idle"
kill -TERM "$sp"
wait "$sp"
kept=$(sqlite3 -readonly "$TMP/churn.db" "SELECT count(*) FROM process WHERE comm = 'stormkid' AND uid >= 0")
echo "  stored: $kept of the $forked storm processes with their user"
b50=$(churn_pct 50 "$TMP/churn.before") b99=$(churn_pct 99 "$TMP/churn.before")
d50=$(churn_pct 50 "$TMP/churn.during") d99=$(churn_pct 99 "$TMP/churn.during")
awk -v b50="$b50" -v b99="$b99" -v d50="$d50" -v d99="$d99" \
	-v nb="$(wc -l <"$TMP/churn.before")" -v nd="$(wc -l <"$TMP/churn.during")" 'BEGIN {
	printf "  /api/v1/top?limit=1: before the storm (the peer, %d requests) p50 %.1f ms p99 %.1f ms; during it (%d) p50 %.1f ms p99 %.1f ms; target p99 < 20 ms: %s\n",
		nb, b50 * 1000, b99 * 1000, nd, d50 * 1000, d99 * 1000, d99 < 0.020 ? "met" : "MISSED" }'
}
