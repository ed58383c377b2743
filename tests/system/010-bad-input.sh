#!/bin/sh
# Bad input gets one clear line on stderr naming what and where, a non-zero
# exit, and leaves nothing half-written.
. "$(dirname "$0")/lib.sh"
need_root
share_binaries   # run as nobody below

# expect_error EXPECTED_TEXT COMMAND...: fails with one line containing the text
expect_error() {
	want=$1
	shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		fail "succeeded, but should have failed: $*"
	fi
	one_line_error "$TMP/err"
	grep -qF -- "$want" "$TMP/err" || { cat "$TMP/err"; fail "error for '$*' does not say '$want'"; }
	note "ok: $* -> $(cat "$TMP/err")"
}

# --- flags -------------------------------------------------------------------
expect_error "unknown option '--bogus'" "$STACKD" --bogus
expect_error "option '--interval' needs a value" "$STACKD" --interval
expect_error "--interval: invalid duration '5x'" "$STACKD" --interval 5x -n
expect_error "--interval: 1ms is out of range" "$STACKD" --interval 1ms -n
expect_error "--ring-pages: 100 is not a power of two" "$STACKD" --ring-pages 100 -n
expect_error "--max-sampling-cost: invalid share '2x' (expected e.g. 2%, 0.02, or off)" "$STACKD" --max-sampling-cost 2x -n
expect_error "--periodic-hz: 50 is out of range (0 for automatic, or 100..10000)" "$STACKD" --periodic-hz 50 -n
expect_error "--switch-event: invalid value 'middle'" "$STACKD" --switch-event middle -n
expect_error "unknown model 'nehalem'" "$STACKD" --model nehalem -n
expect_error "unexpected argument 'extra'" "$STACKD" extra

# --- config files --------------------------------------------------------------
expect_error "cannot read config file '$TMP/none.conf': No such file or directory" \
	"$STACKD" --config "$TMP/none.conf" -n
mkdir "$TMP/conf.d"
expect_error "cannot read config file '$TMP/conf.d': Is a directory" \
	"$STACKD" --config "$TMP/conf.d" -n
printf '# a comment\n\ninterval = fast\n' >"$TMP/bad-value.conf"
expect_error "$TMP/bad-value.conf:3: interval: invalid duration 'fast'" \
	"$STACKD" --config "$TMP/bad-value.conf" -n
printf 'interval = 1s\ncolour = blue\n' >"$TMP/bad-key.conf"
expect_error "$TMP/bad-key.conf:2: colour: unknown key 'colour'" \
	"$STACKD" --config "$TMP/bad-key.conf" -n
printf 'interval 1s\n' >"$TMP/bad-line.conf"
expect_error "$TMP/bad-line.conf:1: expected 'key = value'" \
	"$STACKD" --config "$TMP/bad-line.conf" -n

# a key given twice names both lines; a flag overriding a file key is not that
printf 'interval = 2s\n# later:\nring_pages = 64\ninterval = 3s\n' >"$TMP/dup.conf"
expect_error "$TMP/dup.conf:4: interval: already set on line 1" \
	"$STACKD" --config "$TMP/dup.conf" -n
# a NUL byte would have ended the line for fgets: "model = software" alone
printf 'interval = 2s\nmodel = software\000garbage\n' >"$TMP/nul.conf"
expect_error "$TMP/nul.conf:2: not text (a NUL byte)" "$STACKD" --config "$TMP/nul.conf" -n
printf 'interval = 2s\n\033[2Jring_pages = 64\n' >"$TMP/esc.conf"
expect_error "$TMP/esc.conf:2: not text (control byte 0x1b)" "$STACKD" --config "$TMP/esc.conf" -n
head -c 2048 /dev/urandom | tr -d '\n' | tr '\000' x >"$TMP/binary.conf"
printf '\000\n' >>"$TMP/binary.conf"
expect_error "$TMP/binary.conf:1: not text (" "$STACKD" --config "$TMP/binary.conf" -n

# -n checks what the start would, against this host (run as root here)
expect_error "user: started as root, stackd runs as the user 'nosuchuser', which does not exist: create it" \
	"$STACKD" --user nosuchuser --web-dir none -n
printf 'families = faults, nosuch\n' >"$TMP/fam.conf"
expect_error "families: model 'software' has no family 'nosuch' (it has: faults, " \
	"$STACKD" --config "$TMP/fam.conf" --model software --user root --web-dir none -n
expect_error "; model = auto picks '" \
	"$STACKD" --config "$TMP/fam.conf" --user root --web-dir none -n
expect_error "--listen: at most 4 addresses" "$STACKD" --user root --web-dir none -n \
	--listen "127.0.0.1:9001,127.0.0.1:9002,unix:$TMP/a.sock,unix:$TMP/b.sock,unix:$TMP/c.sock"
expect_error "web_dir: cannot open the directory '$TMP/no-web': No such file or directory" \
	"$STACKD" --user root --web-dir "$TMP/no-web" -n
expect_error "database '$TMP/no-such-dir/s.db': directory '$TMP/no-such-dir' does not exist" \
	"$STACKD" --user root --web-dir none --db "$TMP/no-such-dir/s.db" -n

# an open-file limit too low for CPUs x groups: said before anything is opened
for limit in 16 24; do
	expect_error "the limit is $limit (ulimit -n / LimitNOFILE)" sh -c \
		"ulimit -n $limit; exec \"\$@\"" sh "$STACKD" --user root --listen none --db "$TMP/fd.db"
	grep -q "too many open files: stackd needs about [0-9]* descriptors for [0-9]* CPUs x [0-9]* groups" \
		"$TMP/err" || fail "the fd-limit error does not say what is needed"
	[ ! -e "$TMP/fd.db" ] || fail "created a database although the fd limit is too low"
	expect_error "the limit is $limit" sh -c "ulimit -n $limit; exec \"\$@\"" sh \
		"$STACKD" --user root --web-dir none -n
done

# unreadable for the user running stackd (root reads everything, so run as nobody)
chmod 755 "$TMP"
printf 'interval = 1s\n' >"$TMP/secret.conf"
chmod 600 "$TMP/secret.conf"
expect_error "cannot read config file '$TMP/secret.conf': Permission denied" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$STACKD" --config "$TMP/secret.conf" -n

# --- -n prints the effective configuration: file, then flags -----------------
printf 'interval = 2s\nrotate_period = 50ms\nuser = root\nweb_dir = %s\n' "$TMP" >"$TMP/good.conf"
"$STACKD" --config "$TMP/good.conf" --interval 3s --db "$TMP/y.db" -n >"$TMP/effective" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "-n rejected a good config"; }
cat >"$TMP/expected" <<EOT
database = $TMP/y.db
interval = 3s
rotate_period = 50ms
ring_pages = 128
model = auto
switch_event = leader
log_level = info
retention_raw = 1d
retention_minute = 7d
retention_hour = 400d
retention_day = 400d
max_database_mb = 4096
families = auto
reserved_counters = auto
count_modes = user,kernel
exclude_comm = 
exclude_unit = 
exclude_user = 
kubelet_pods_dir = /var/log/pods
retry_buffer = 600
switch_rate_warning = 20000
max_sampling_cost = 2%
periodic_hz = 0
listen = 127.0.0.1:9466,unix:/run/stackd/stackd.sock
user = root
web_dir = $TMP
http_full_access = 
http_anonymous = none
http_max_connections = 64
http_allowed_hosts = 
http_query_cpu_limit = 10s
prometheus_max_keys = 100
prometheus_top_processes = 0
prometheus_top_comms = 12
prometheus_top_units = 12
prometheus_per_cpu = 0
EOT
diff -u "$TMP/expected" "$TMP/effective" || fail "-n output differs"
grep -q "configuration OK" "$TMP/err" || fail "-n did not say configuration OK"
"$STACKD" --config "$TMP/effective" -n >"$TMP/again" 2>/dev/null || fail "-n output does not parse back"
diff -u "$TMP/effective" "$TMP/again" || fail "-n output does not round-trip"

# --- database paths: clear error, nothing created ----------------------------
expect_error "directory '$TMP/no-such-dir' does not exist" \
	"$STACKD" --user root --db "$TMP/no-such-dir/s.db"
[ ! -e "$TMP/no-such-dir" ] || fail "created a directory"
mkdir "$TMP/isdir.db"
expect_error "database '$TMP/isdir.db' is a directory" "$STACKD" --user root --db "$TMP/isdir.db"
head -c 4096 /dev/urandom >"$TMP/garbage.db"
sum_before=$(md5sum <"$TMP/garbage.db")
expect_error "is not a SQLite database" "$STACKD" --user root --db "$TMP/garbage.db"
[ "$(md5sum <"$TMP/garbage.db")" = "$sum_before" ] || fail "a foreign file was modified"
[ ! -e "$TMP/garbage.db-wal" ] || fail "left a -wal file beside a foreign file"
sqlite3 "$TMP/newer.db" "CREATE TABLE t(x); PRAGMA user_version = 99;"
sum_before=$(md5sum <"$TMP/newer.db")
expect_error "database schema version 99 is newer than this stackd knows" \
	"$STACKD" --user root --db "$TMP/newer.db"
[ "$(md5sum <"$TMP/newer.db")" = "$sum_before" ] || fail "a newer database was modified"
mkdir "$TMP/ro"
if mount -t tmpfs -o ro,size=1m stackd-test "$TMP/ro" 2>/dev/null; then
	expect_error "database '$TMP/ro/s.db': directory '$TMP/ro' is not writable" \
		"$STACKD" --user root --db "$TMP/ro/s.db"
	umount "$TMP/ro"
else
	skip_check "read-only database directory: cannot mount a read-only tmpfs here"
fi

# --- no permission for system-wide perf events --------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$paranoid" -gt 0 ]; then
	mkdir -m 777 "$TMP/perm"
	expect_error "needs CAP_PERFMON" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$STACKD" --user root --db "$TMP/perm/s.db"
	grep -q "perf_event_paranoid=0 or lower (it is $paranoid)" "$TMP/err" ||
		fail "the permission error does not name the sysctl fix"
	[ ! -e "$TMP/perm/s.db" ] || fail "created a database although it could not count"
else
	skip_check "no-permission error: perf_event_paranoid is $paranoid, any user may count"
fi

# --- stackctl ------------------------------------------------------------------
expect_error "unknown verb 'frobnicate'" "$STACKCTL" frobnicate
expect_error "no verb given" "$STACKCTL"
expect_error "unknown option '--bogus'" "$STACKCTL" top --bogus
expect_error "invalid --window 'soon'" "$STACKCTL" top --window soon
expect_error "invalid --limit '-3'" "$STACKCTL" top --limit -3
expect_error "no database at '$TMP/none.db' (is stackd running?" "$STACKCTL" top --db "$TMP/none.db"
expect_error "is not a SQLite database" "$STACKCTL" top --db "$TMP/garbage.db"
expect_error "was written by a newer stackd" "$STACKCTL" top --db "$TMP/newer.db"
sqlite3 "$TMP/plain.db" "CREATE TABLE t(x);"
expect_error "is not a stackd database" "$STACKCTL" status --db "$TMP/plain.db"
expect_error "invalid --by 'cpu'" "$STACKCTL" top --by cpu
expect_error "unknown --family 'l3'" "$STACKCTL" top --family l3
expect_error "--iterations must be at least 1" "$STACKCTL" top -n 0
expect_error "which process?" "$STACKCTL" show
expect_error "unexpected argument 'b'" "$STACKCTL" show a b
expect_error "invalid target 'pid:x'" "$STACKCTL" history pid:x
expect_error "--until must be less far back than --since" "$STACKCTL" history x --since 1m --until 2m
expect_error "invalid --format 'xml'" "$STACKCTL" export --format xml
expect_error "not an address" "$STACKCTL" status --url "http://[::1"
expect_error "unix:$TMP/no.sock: No such file or directory" "$STACKCTL" top --url "unix:$TMP/no.sock"
port=$(free_port)
expect_error "http://127.0.0.1:$port: Connection refused" "$STACKCTL" status --url "http://127.0.0.1:$port"
# $STACKD_DB names the file to read instead of asking the daemon
export STACKD_DB="$TMP/none.db"
expect_error "no database at '$TMP/none.db'" "$STACKCTL" top
unset STACKD_DB
exit 0
