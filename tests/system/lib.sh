# lib.sh - shared by the system tests (sourced).
#
# The daemon and CLI under test are the sanitizer builds, so a leak or
# undefined behaviour anywhere on these paths fails the test too.
set -u

STACKD=${STACKD:-$BUILD/asan/stackd}
STACKCTL=${STACKCTL:-$BUILD/asan/stackctl}
HELPERS=$BUILD/helpers
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

TMP=$(mktemp -d /tmp/stackd-test.XXXXXX)
SHARED=""
DAEMON_PID=""
EXTRA_PIDS=""   # other processes a test started, ended with it
cleanup() {
	if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then
		kill -KILL "$DAEMON_PID" 2>/dev/null
	fi
	for p in $EXTRA_PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMP"
	[ -z "$SHARED" ] || rm -rf "$SHARED"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*"
	exit 1
}
# skip REASON: the whole test cannot run here (exit 77; the runner shows why)
skip() {
	echo "SKIP: $*"
	exit 77
}
# skip_check REASON: one check cannot run here; the test goes on, and the
# runner lists the line and counts it, so a pass never hides it.
skip_check() {
	echo "SKIP: $*"
}
note() {
	echo "# $*"
}

# share_binaries: STACKD and STACKCTL become copies any user can run, for a
# test that runs them as another user (setpriv, su nobody): the checkout
# may lie in a directory that user cannot reach (a 0700 home, mktemp -d).
# (setpriv happens to resolve the path with root's capabilities still
# held; su does not; neither is relied on.)  The sanitizer builds need
# nothing from the build tree but themselves.
share_binaries() {
	SHARED=$(mktemp -d /tmp/stackd-bin.XXXXXX)
	chmod 755 "$SHARED"
	cp "$STACKD" "$SHARED/stackd" && cp "$STACKCTL" "$SHARED/stackctl" ||
		fail "cannot copy stackd and stackctl to $SHARED"
	STACKD=$SHARED/stackd
	STACKCTL=$SHARED/stackctl
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (system-wide perf events, setpriv)"
}

# start_daemon DB [ARGS...]: stackd in the background, log in $TMP/stackd.log
start_daemon() {
	db=$1
	shift
	# No HTTP unless the test asks (--listen later on the line wins); as
	# root without dropping to a user (160-systemd tests the drop).
	"$STACKD" --db "$db" --interval 1s --listen none --user root "$@" >"$TMP/stackd.log" 2>&1 &
	DAEMON_PID=$!
	wait_intervals "$db" 1 20 || { cat "$TMP/stackd.log"; fail "daemon stored no interval in 20s"; }
}

# stop_daemon: SIGTERM, wait, and insist on a clean exit (sanitizers included)
stop_daemon() {
	kill -TERM "$DAEMON_PID"
	wait "$DAEMON_PID"
	rc=$?
	DAEMON_PID=""
	if [ "$rc" -ne 0 ]; then
		cat "$TMP/stackd.log"
		fail "stackd exited with $rc after SIGTERM"
	fi
}

# intervals DB: how many intervals are stored (0 when none / no file yet)
intervals() {
	sqlite3 -readonly "$1" "SELECT count(*) FROM interval" 2>/dev/null || echo 0
}

# wait_log TEXT: the daemon's log says TEXT within 10 s
wait_log() {
	i=0
	until grep -qF -- "$1" "$TMP/stackd.log" || [ "$i" -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -qF -- "$1" "$TMP/stackd.log" || { cat "$TMP/stackd.log"; fail "the log does not say '$1'"; }
}

# wait_intervals DB N TIMEOUT_S: wait until at least N intervals are stored
wait_intervals() {
	i=0
	while [ "$(intervals "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ "$i" -le $(($3 * 10)) ] || return 1
		sleep 0.1
	done
	return 0
}

# wait_more_intervals DB N: wait until N intervals more than now are stored
wait_more_intervals() {
	target=$(( $(intervals "$1") + $2 ))
	wait_intervals "$1" "$target" $(($2 * 3 + 10))
}

# within A B PCT: |A-B| <= PCT% of B
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

# ratio A B: A/B with 4 decimals
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.4f\n", a / b }'
}

# one_line_error FILE: the command's stderr is exactly one non-empty line
one_line_error() {
	n=$(grep -c . "$1")
	[ "$n" -eq 1 ] || { cat "$1"; fail "expected one line on stderr, got $n"; }
}

# free_port: a TCP port nothing listens on now (for a test's --listen)
free_port() {
	p=$((20000 + $$ % 20000))
	while ss -Htln "sport = :$p" 2>/dev/null | grep -q .; do
		p=$((p + 1))
	done
	echo "$p"
}

# http_status URL [CURL ARGS...]: print only the status code
http_status() {
	url=$1
	shift
	curl -s -o /dev/null -w '%{http_code}' "$@" "$url"
}

# seed_hour_old DB BYTES: DB's raw intervals copied back in time (each copy
# an hour and a copy's span earlier) until the copies hold about BYTES of
# samples; rollups are dropped, for the daemon to make again from the
# oldest.  For tests that need history that retention may take.
seed_hour_old() {
	sqlite3 "$1" <<SQL
DELETE FROM sample WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval_group WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s > 0);
DELETE FROM interval WHERE rollup_s > 0;
DELETE FROM rollup_state;
CREATE TEMP TABLE k AS WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 4000) SELECT n FROM k;
CREATE TEMP TABLE span AS SELECT max(end_ns) - min(start_ns) AS ns, count(*) AS c FROM interval;
CREATE TEMP TABLE iv AS SELECT interval.*, k.n AS copy FROM interval, k
  WHERE k.n <= ($2 / ((SELECT count(*) FROM sample) * 60 / (SELECT c FROM span) + 1)) / (SELECT c FROM span);
UPDATE iv SET id = id + copy * 1000000,
  start_ns = start_ns - 3600000000000 - copy * (SELECT ns FROM span),
  end_ns = end_ns - 3600000000000 - copy * (SELECT ns FROM span);
CREATE TEMP TABLE sm AS SELECT sample.*, iv.copy AS copy FROM sample JOIN iv ON iv.id - iv.copy * 1000000 = sample.interval_id;
UPDATE sm SET interval_id = interval_id + copy * 1000000;
CREATE TEMP TABLE ig AS SELECT interval_group.*, iv.copy AS copy FROM interval_group JOIN iv ON iv.id - iv.copy * 1000000 = interval_group.interval_id;
UPDATE ig SET interval_id = interval_id + copy * 1000000;
ALTER TABLE iv DROP COLUMN copy;
ALTER TABLE sm DROP COLUMN copy;
ALTER TABLE ig DROP COLUMN copy;
INSERT INTO interval SELECT * FROM iv;
INSERT INTO sample SELECT * FROM sm;
INSERT INTO interval_group SELECT * FROM ig;
SQL
}
