#!/bin/sh
# Every command the docs show works: each command of the ```sh blocks of
# README.md and docs/*.md, and of the EXAMPLES sections of stackctl(1) and
# stackd(8), runs
# (a) against a live daemon (the software model: this host may have no
# PMU) and (b) against the golden tests' constructed Skylake database
# (--db).  None may exit 2 (a usage error: the docs show a command line
# that is wrong), crash, leak or hang; exit 1 is accepted only with one
# line on stderr (the data lacks what the command asks for: no such
# process in the window, a metric the model does not compute).
# stackd.conf(5)'s EXAMPLE is checked with `stackd -n`.  The commands are
# read from the documents, so a new example is tested without editing
# this file; the few that cannot run here are listed in allowed() with
# the reason.
. "$(dirname "$0")/lib.sh"
need_root
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || skip "no jq (the README pipes into it)"
[ -x "$BUILD/tests/mkfixture" ] || skip "no $BUILD/tests/mkfixture (make system builds it)"

# allowed CMD: the reason a documented command is not run here (printed),
# else false.  Keep each reason true: it is what the log says.
allowed() {
	case $1 in
	"make run")
		echo "starts stackd in the foreground until ^C; this test starts the same daemon" ;;
	"make test")
		echo "the whole test suite, this test among it" ;;
	"make deb")
		echo "builds the package: make package-test does, in .ci/run" ;;
	"make bench" | "BENCH_PARTS="*" make bench")
		echo "measures for minutes on an otherwise idle host: never part of make test" ;;
	"make all "*)
		echo "builds the test programs: make test does" ;;
	*"sh tests/system/run "*)
		echo "runs system tests: make test runs every one of them" ;;
	"apt install "* | "dnf install "*)
		echo "installs a package on the host: make package-test does" ;;
	"systemctl "*)
		echo "needs the installed unit: 160-systemd checks the unit, make package-test starts it" ;;
	*) return 1 ;;
	esac
}

# The commands, each after where it is shown: the lines of the ```sh
# blocks of README.md and docs/*.md (that file's path) and of the man
# pages' EXAMPLES (M; .nf ... .fi, roff's \- unescaped), comments removed.
doc_commands() {
	(cd "$ROOT" && for doc in README.md docs/*.md; do
		awk -v doc="$doc" '/^ *```sh/ { on = 1; next } /^ *```/ { on = 0 }
			on { sub(/^ +/, ""); print doc " " $0 }' "$doc"
	done)
}
man_commands() {
	for page in stackctl.1 stackd.8; do
		awk '/^\.SH / { on = ($2 == "EXAMPLES") } on && /^\.nf/ { nf = 1; next }
			on && /^\.fi/ { nf = 0 } on && nf' "$ROOT/docs/man/$page"
	done | sed 's/\\-/-/g'
}
{ doc_commands; man_commands | sed 's/^/M /'; } |
	sed -E 's/[[:space:]]+#.*$//; s/[[:space:]]+$//' | grep ' ' >"$TMP/commands"
[ "$(grep -c 'stackctl' "$TMP/commands")" -ge 10 ] ||
	fail "found only $(grep -c stackctl "$TMP/commands") stackctl commands in the docs"
grep -q '^M stackd ' "$TMP/commands" || fail "stackd(8) shows no example (EXAMPLES)"

# Wrappers named as the docs name the programs: they run the sanitizer
# builds and log each call's exit status and stderr, so a pipeline's own
# status (jq's) hides nothing.  In the fixture pass stackctl reads --db.
mkdir -p "$TMP/bin"
for prog in stackctl stackd; do
	cat >"$TMP/bin/$prog" <<EOF
#!/bin/sh
n=\$(ls "\$CALLS" | wc -l)
echo "$prog \$*" >"\$CALLS/\$n.cmd"
case $prog-\$1 in stackctl-analyze | stackd-*) ;; *) set -- "\$@" \$DOC_SOURCE ;; esac
"\$DOC_$prog" "\$@" 2>"\$CALLS/\$n.err"
rc=\$?
echo "\$rc" >"\$CALLS/\$n.rc"
exit "\$rc"
EOF
	chmod +x "$TMP/bin/$prog"
done
export DOC_stackctl="$STACKCTL" DOC_stackd="$STACKD" DOC_SOURCE=""

# The files the examples read, in the directory they run in.
WORK=$TMP/work
mkdir -p "$WORK"
ln -s "$ROOT/docs" "$WORK/docs"
cp "$ROOT/tests/data/skl-interval-percpu.csv" "$WORK/stackd-recording.csv"
cp "$ROOT/tests/data/skl-interval-percpu.csv" "$WORK/recording.csv"

# check_calls LABEL STRICT FROM: each stackctl and stackd call logged since
# the last check, by its own status whatever a pipeline made of it; STRICT
# (yes): only 0 will do.  FROM: the document that shows the command.
check_calls() {
	for f in "$CALLS"/*.rc; do
		[ -e "$f" ] && [ ! -e "$f.seen" ] || continue
		: >"$f.seen"
		rc=$(cat "$f")
		call=$(cat "${f%.rc}.cmd")
		err=${f%.rc}.err
		[ "$rc" -eq 0 ] || [ "$2" != yes ] ||
			fail "$1: '$call' ($3) exited $rc on this host: $(cat "$err")"
		case $rc in
		0) ;;
		1 | 3)
			[ "$(grep -c . "$err")" -eq 1 ] ||
				{ cat "$err"; fail "$1: '$call' exited $rc without one line on stderr"; }
			note "$1: '$call' exited $rc: $(cat "$err")" ;;
		2) fail "$1: '$call' is a usage error: $(cat "$err")" ;;
		*) cat "$err"; fail "$1: '$call' exited $rc (a crash or a sanitizer's report)" ;;
		esac
	done
}

# run_all LABEL: every command once, in a directory of its own.  On the
# live daemon the commands of README.md and docs/ must succeed: they are
# meant to be run on a host like this one, PMU or not.
run_all() {
	CALLS=$TMP/calls-$1
	export CALLS
	mkdir -p "$CALLS"
	ran=0
	while read -r from cmd; do
		if why=$(allowed "$cmd"); then
			[ "$1" = live ] && note "not run: $cmd: $why"
			continue
		fi
		case $cmd in
		*stackctl* | *stackd*) ;;
		*) fail "$from shows '$cmd': run it here or say in allowed() why not" ;;
		esac
		# the docs' build/ paths and installed names: both the wrappers
		line=$(echo "$cmd" | sed -E 's#(^|[ |;&(])build/(stackctl|stackd)#\1\2#g')
		(cd "$WORK" && PATH="$TMP/bin:$PATH" MANPAGER=cat MANWIDTH=80 \
			timeout 60 sh -c "$line" </dev/null >"$TMP/out" 2>"$TMP/err")
		rc=$?
		ran=$((ran + 1))
		strict=no
		[ "$1" = live ] && [ "$from" != M ] && strict=yes
		check_calls "$1" "$strict" "$from"
		[ "$rc" -ne 124 ] || fail "$1: '$cmd' did not finish in 60 s"
		# the rest of a pipeline (jq, man) must not fail either
		[ "$rc" -le 1 ] || [ "$rc" -eq 3 ] ||
			{ cat "$TMP/err"; fail "$1: '$cmd' exited $rc"; }
	done <"$TMP/commands"
	[ "$ran" -ge 10 ] || fail "$1: ran only $ran commands"
	note "$1: $ran documented commands ran, $(ls "$CALLS"/*.rc | wc -l) calls of stackctl and stackd"
}

# (a) a live daemon: the commands ask it, as the README's tour does
# (STACKD_URL stands for its default socket).
SOCK=$TMP/stackd.sock
start_daemon "$TMP/live.db" --listen "unix:$SOCK"
wait_more_intervals "$TMP/live.db" 2 || fail "the daemon stored too few intervals"
export STACKD_URL="unix:$SOCK"
run_all live
# status from the daemon itself: running, so 0
"$STACKCTL" status >/dev/null 2>"$TMP/err" || fail "status of a running daemon: $(cat "$TMP/err")"
stop_daemon
unset STACKD_URL
# status with the daemon down: its database read, and not 0
"$STACKCTL" status --db "$TMP/live.db" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 3 ] || fail "status with the daemon down exited $rc, not 3"
grep -q "NOT running" "$TMP/out" || fail "status with the daemon down does not say so"

# (b) the constructed Skylake database, with every model's metric
"$BUILD/tests/mkfixture" "$TMP/fixture.db" || fail "mkfixture"
export DOC_SOURCE="--db $TMP/fixture.db"
run_all fixture

# stackd.conf(5)'s EXAMPLE is a config stackd -n accepts
awk '/^\.SH EXAMPLE/ { on = 1 } /^\.SH SEE/ { on = 0 } on && /^\.nf/ { nf = 1; next }
	on && /^\.fi/ { nf = 0 } on && nf' "$ROOT/docs/man/stackd.conf.5" >"$TMP/example.conf"
[ "$(grep -c ' = ' "$TMP/example.conf")" -ge 5 ] || fail "stackd.conf.5 EXAMPLE has too few keys"
# a user the page names but this host lacks stands in as nobody (the
# check that users exist is the point of -n, and is kept)
for u in $(sed -n 's/^http_full_access = //p' "$TMP/example.conf" | tr ',' ' '); do
	case $u in *[!0-9]*) ;; *) continue ;; esac
	getent passwd "$u" >/dev/null && continue
	note "stackd.conf.5 EXAMPLE: no user '$u' here, nobody stands in"
	sed -i "/^http_full_access = /s/\b$u\b/nobody/" "$TMP/example.conf"
done
# (for Skylake: its families are a PMU host's, and this one may have none)
"$STACKD" -n --config "$TMP/example.conf" --model skl --user root --web-dir none \
	>"$TMP/out" 2>"$TMP/err" ||
	fail "stackd -n rejects stackd.conf.5's EXAMPLE: $(cat "$TMP/err")"
grep -q '^families = all, -fe_uops' "$TMP/out" || fail "stackd -n did not take the EXAMPLE's families"
note "stackd.conf.5 EXAMPLE: stackd -n accepts it"
echo "PASS"
