# part_history.sh - bench part "history" (issue 34, 3): readers on a year
# of history.  Sourced by tests/bench/run (BENCH_PARTS=history).
#
# The store: tests/bench/history_store.sh fills the schema, boot and groups
# of a short real run of this stackd with 1,000 processes (alive at any
# moment; ~37,000 over the year) x 1 year: day and hour rollups for 365 days,
# minute rollups for the last 7, raw 1 s intervals for the last day (its
# header gives the busy/idle share), ~29.6 M sample rows, ~1.7 GB.  It is
# kept in $HISTORY_DB (default /var/tmp/stackd-bench-history.db) with the
# schema version and the generator's checksum beside it
# ($HISTORY_DB.version), rebuilt when either differs; a kept store is moved
# forward in whole hours to end at the current hour, so its rollup buckets
# stay aligned and retention keeps what it kept.
#
# Method: stackd runs on that store, collecting (--interval 1s, a loopback
# port).  For /api/v1/top, /api/v1/series (who=pid:N, metric=cpu_percent,
# from=W) and /api/v1/processes/N at windows W of 5m, 1h, 1d, 30d and 365d:
# the first request for W after the start (nothing computed yet), then
# HISTORY_CLIENTS (8) clients for HISTORY_SECS (4) s, each request a URL
# never asked before (httpload's "{n}" = 60, 61, ...: /top's 20 rows with
# "_={n}", the cache buster jQuery's cache: false appends, which the API
# ignores; pid N), so the answer cache cannot serve them; HISTORY_TOP_LIMIT
# ("{n}": limit=N, answers that grow to every process's row, megabytes
# each) changes /top's rows; p50 and p99 from connect to the last
# byte, and the rate of answers.  Target (issue 34): p99 < 20 ms at >=
# 2,000 distinct requests/s.  Pids 60 .. 1059 are the processes alive at
# the end; beyond, exited ones (404 in short windows: the same work).
# Peer: sqlite3 -readonly summing the same window's samples per process
# and group with the finest rows kept (the reader's query before the
# rollups were read whole), timed once.
# HISTORY_STACKD (default $STACKD) names the daemon, e.g. an older build
# for a before/after figure.
HISTORY_DB=${HISTORY_DB:-/var/tmp/stackd-bench-history.db}
HISTORY_SECS=${HISTORY_SECS:-4}
HISTORY_CLIENTS=${HISTORY_CLIENTS:-8}
HISTORY_WINDOWS=${HISTORY_WINDOWS:-5m 1h 1d 30d 365d}
HISTORY_TOP_LIMIT=${HISTORY_TOP_LIMIT:-20}

# history_prepare: the cached store, built or moved forward to now
history_prepare() {
	gen=$(dirname "$0")/history_store.sh
	"$HISTORY_STACKD" --user root --db "$TMP/hist0.db" --interval 1s --listen none \
		--allow-second >"$TMP/hist0.log" 2>&1 &
	hp=$!
	sleep 2.5
	kill -TERM "$hp"
	wait "$hp"
	want="schema $(sqlite3 "$TMP/hist0.db" 'PRAGMA user_version') generator $(cksum <"$gen")"
	if [ -f "$HISTORY_DB" ] && [ "$(cat "$HISTORY_DB.version" 2>/dev/null)" = "$want" ]; then
		d=$(sqlite3 "$HISTORY_DB" "SELECT (strftime('%s','now') / 3600
			- max(end_ns) / 3600000000000) * 3600000000000 FROM interval")
		[ "$d" -gt 0 ] && sqlite3 "$HISTORY_DB" "BEGIN;
			UPDATE interval SET start_ns = start_ns + $d, end_ns = end_ns + $d;
			UPDATE rollup_state SET done_ns = done_ns + $d;
			UPDATE process SET exit_ns = exit_ns + $d WHERE exit_ns IS NOT NULL;
			UPDATE boot SET booted_ns = booted_ns + $d WHERE id = 2; COMMIT;"
		# days summed again unless moved by whole days (UTC buckets)
		[ $(( d % 86400000000000 )) -eq 0 ] || sh "$gen" --days "$HISTORY_DB" \
			$(( $(date +%s) / 3600 * 3600 ))
		echo "  store: kept $HISTORY_DB ($(du -h "$HISTORY_DB" | cut -f1)), moved $(( d / 3600000000000 )) h forward"
		return 0
	fi
	rm -f "$HISTORY_DB" "$HISTORY_DB-wal" "$HISTORY_DB-shm" "$HISTORY_DB.version"
	sqlite3 "$TMP/hist0.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	cp "$TMP/hist0.db" "$HISTORY_DB"
	t0=$(date +%s)
	sh "$gen" "$HISTORY_DB" $(( $(date +%s) / 3600 * 3600 )) || return 1
	echo "$want" >"$HISTORY_DB.version"
	echo "  store: built $HISTORY_DB in $(( $(date +%s) - t0 )) s (load $(cut -d' ' -f1-3 /proc/loadavg)):" \
		"$(du -h "$HISTORY_DB" | cut -f1)," \
		"$(sqlite3 "$HISTORY_DB" 'SELECT count(*) FROM sample') sample rows," \
		"$(sqlite3 "$HISTORY_DB" 'SELECT count(*) FROM process') processes"
}

# history_peer W_S: sqlite3's time for the window's per-process sums, read
# as the finest level kept (as lib/db_private.h's TIER_MATCH takes it)
history_peer() {
	floors="(SELECT (min(end_ns) - 1) / 60000000000 * 60000000000 FROM interval WHERE rollup_s = 0)"
	mfloor="(SELECT min($floors, (min(end_ns) - 1) / 3600000000000 * 3600000000000) FROM interval WHERE rollup_s = 60)"
	t0=$(date +%s.%N)
	sqlite3 -readonly "$HISTORY_DB" "SELECT count(*), sum(tc) FROM (SELECT process_id, group_id,
		sum(task_clock_ns) AS tc, sum(context_switches), sum(v0), sum(sample.periodic_ns)
		FROM interval AS i CROSS JOIN sample ON sample.interval_id = i.id
		WHERE i.end_ns > (SELECT max(end_ns) FROM interval) - $1 * 1000000000
		AND (CASE WHEN i.end_ns > $floors THEN i.rollup_s = 0
		     WHEN i.end_ns > $mfloor THEN i.rollup_s = 60 ELSE i.rollup_s = 3600 END)
		GROUP BY process_id, group_id)" >/dev/null
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'
}

history_seconds() {
	case $1 in
	*m) echo $(( ${1%m} * 60 )) ;;
	*h) echo $(( ${1%h} * 3600 )) ;;
	*d) echo $(( ${1%d} * 86400 )) ;;
	*y) echo $(( ${1%y} * 365 * 86400 )) ;;
	esac
}

# history_load NAME PATH: the first request, then the clients on distinct URLs
history_load() {
	first=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$HPORT$(echo "$2" |
		sed 's/{n}/59/')")
	out=$(HTTPLOAD_LATENCY=1 "$BUILD/helpers/httpload" "tcp:$HPORT" "$HISTORY_CLIENTS" \
		"$HISTORY_SECS" 9000 "$2")
	echo "$out" | awk -v name="$1" -v first="$first" '
		/^latency_ms/ { p50 = $3; p99 = $5; rate = $9 }
		/^status/ { st = st sprintf(" %s:%s", $2, $3) }
		END { printf "  %-10s first %6.3f s; distinct: p50 %8.2f ms p99 %8.2f ms at %6.0f/s" \
			" (target p99 < 20 ms at >= 2000/s: %s);%s\n", name, first, p50, p99, rate,
			(p99 < 20 && rate >= 2000) ? "met" : "MISSED", st }'
}

part_history() {
	HISTORY_STACKD=${HISTORY_STACKD:-$STACKD}
	echo "bench: readers on a year of history (issue 34): $HISTORY_CLIENTS clients x" \
		"$HISTORY_SECS s of distinct URLs per endpoint and window, stackd collecting" \
		"(load $(cut -d' ' -f1-3 /proc/loadavg))"
	history_prepare || { echo "  cannot build the store: skipped"; return 0; }
	HPORT=19467
	"$HISTORY_STACKD" --user root --db "$HISTORY_DB" --interval 1s --allow-second \
		--listen "127.0.0.1:$HPORT" >"$TMP/history.log" 2>&1 &
	hsp=$!
	i=0
	while [ "$(curl -s -o /dev/null -w '%{http_code}' \
		"http://127.0.0.1:$HPORT/api/v1/system")" != 200 ] && [ $i -lt 120 ]; do
		sleep 0.5
		i=$(( i + 1 ))
	done
	# the whole-file check after the start reads every page (~10 s for
	# this store): measured after it, as a host that has run a while
	i=0
	while ! grep -q "checked whole after the start\|not checked whole" "$TMP/history.log" &&
		[ $i -lt 360 ]; do
		sleep 0.5
		i=$(( i + 1 ))
	done
	echo "  (the start's database check took $(( i / 2 )) s after the API answered)"
	sleep 2
	for w in $HISTORY_WINDOWS; do
		ws=$(history_seconds "$w")
		echo "  window $w (peer: sqlite3 sums it per process in $(history_peer "$ws") s):"
		history_load "top" "/api/v1/top?window=$w&limit=$HISTORY_TOP_LIMIT&_={n}"
		history_load "series" "/api/v1/series?who=pid:{n}&metric=cpu_percent&from=$w"
		history_load "processes" "/api/v1/processes/{n}?window=$w"
	done
	kill -TERM "$hsp"
	wait "$hsp"
	echo "  (load at the end $(cut -d' ' -f1-3 /proc/loadavg))"
}
