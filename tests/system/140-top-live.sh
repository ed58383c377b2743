#!/bin/sh
# `stackctl top` live in a real terminal (tmux), --db before the verb and
# a bare-seconds delay: the first frame, every sort key (htop's P, M, < and
# > too), the family and grouping keys, a filter typed at the prompt, the /
# search, the help screen, pause, quit with the terminal given back as it
# was; then against a
# running daemon through its Unix socket, the spinner on screen.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || skip "no tmux"
need_root

T="tmux -L stackd-test-$$ -f /dev/null"
PANE=top
FIX=$TMP/fixture.db
"$BUILD/tests/mkfixture" "$FIX" || fail "mkfixture"
cleanup_tmux() { $T kill-server 2>/dev/null; cleanup; }
trap cleanup_tmux EXIT INT TERM

screen() { $T capture-pane -p -t "$PANE"; }
# wait_screen PATTERN [SECONDS]: until the pane shows PATTERN (grep -E)
wait_screen() {
	i=0
	while [ "$i" -lt $(( ${2:-10} * 10 )) ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen | sed 's/^/    | /'
	fail "the screen never showed '$1'"
}
first_row() { screen | grep -A1 -E '^ *(PID|COMM|UNIT|USER) ' | sed -n 2p; }
key() { $T send-keys -t "$PANE" "$@"; }
# wait_first_row PID WHAT: until the table's top row is process PID
wait_first_row() {
	i=0
	while [ "$i" -lt 100 ]; do
		first_row | grep -q "^$1 " && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "$2: top row $(first_row), want $1"
}

# ASan's sanitizer keeps its own exit code: 66 means a leak or error.
$T new-session -d -s "$PANE" -x 150 -y 30 \
	"TZ=UTC '$STACKCTL' --db '$FIX' top -d 0.2; echo \"exit=\$?\" >'$TMP/exit'; stty -a >'$TMP/stty'; sleep 60"
wait_screen "sorted by frontend_bound_slots"
first_row | grep -q jitserver || fail "hottest frontend-bound is not jitserver: $(first_row)"
screen | grep -q "fixture-host - model skl, last 10.00s to 00:02:00, 2 CPUs - database" || fail "no header"
screen | grep -q "f/b/s/r sort by" || fail "no key line"
# shares coloured by size on a terminal: stream's 55% backend-bound in red
$T capture-pane -e -p -t "$PANE" | grep -q "$(printf '\033')\[[0-9;]*31m" ||
	fail "no share coloured red"

key b; wait_screen "sorted by backend_bound_slots"
first_row | grep -q "stream" || fail "b: first row $(first_row)"
key s; wait_screen "sorted by bad_speculation_slots"
# busy jitserver wastes more slots (8% of 90% CPU) than branchy (30% of 10%)
first_row | grep -q "jitserver" || fail "s: first row $(first_row)"
key r; wait_screen "sorted by retiring_slots"
key i; wait_screen "sorted by ipc"
first_row | grep -q "dgemm" || fail "i: first row $(first_row)"
key F; wait_screen "sorted by gflops"
key c; wait_screen "sorted by task_clock_ns"
key i; wait_screen "sorted by ipc"
key P; wait_screen "sorted by task_clock_ns"
key M; wait_screen "sorted by memory_bound"
# > sorts by the next column on screen, < back by the one before it
key '>'; sleep 0.5
wait_screen "sorted by [a-z_]+, family"
screen | grep -q "sorted by memory_bound" && fail "> left the sort on memory_bound"
key '<'; wait_screen "sorted by memory_bound"
key h; wait_screen "keys \(as in top and htop\)"
screen | grep -q "PgUp PgDn" || fail "help screen lists no scroll keys"
key Space; wait_screen "f/b/s/r sort by"
key /; wait_screen "search commands"
key t r e Enter; wait_screen "2 of 2 rows - only comm \*tre\*"
screen | grep -q jitserver && fail "search left jitserver on screen"
key x; wait_screen "5 of 5 rows"
key t; wait_screen "family fe_l3"
screen | grep -qE "^ *PID .* ICACHE " || fail "t: no level-3 frontend columns"
key t; wait_screen "family frontend"
screen | grep -qE " DSB +MITE" || fail "t: no frontend columns"
key g; wait_screen "by comm, sorted"
first_row | grep -qE "^stream +2 " || fail "g: stream's two processes not summed: $(first_row)"
key g; wait_screen "by unit, sorted"
key g; wait_screen "by user, sorted"
key g; wait_screen "by namespace, sorted"
key g; wait_screen "by pod, sorted"
key g; wait_screen "by container, sorted"
key g; wait_screen "by process, sorted"
key o; wait_screen "show only command"
key s t r e a m Enter; wait_screen "2 of 2 rows"
screen | grep -q jitserver && fail "comm filter left jitserver on screen"
key x; wait_screen "5 of 5 rows"
key Space; wait_screen "PAUSED"
key Space; wait_screen "f/b/s/r sort by"
key z; wait_screen "unknown key"
key q
i=0
while [ ! -s "$TMP/exit" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$TMP/exit" 2>/dev/null)" = "exit=0" ] || fail "top did not quit cleanly: $(cat "$TMP/exit" 2>/dev/null)"
grep -q " icanon" "$TMP/stty" && grep -q " echo" "$TMP/stty" || fail "terminal left raw: $(cat "$TMP/stty")"
note "fixture: every key did what it says; q quit with exit 0 and the terminal restored"
$T kill-server 2>/dev/null
# the server's exit takes a moment: a new session started during it dies
# with it ("server exited unexpectedly"), so wait, and try again if so
i=0
while $T has-session -t "$PANE" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

# a screen too short for the five processes: arrows, pages, Home and End scroll
for try in 1 2 3; do
	$T new-session -d -s "$PANE" -x 150 -y 10 \
		"TZ=UTC '$STACKCTL' top --db '$FIX' --sort pid -d 0.2; sleep 60" 2>/dev/null &&
		sleep 0.3 && $T has-session -t "$PANE" 2>/dev/null && break
	sleep 0.5
done
wait_screen "sorted by pid"
wait_first_row 1005 scroll
key Down; wait_first_row 1004 Down
key End; wait_first_row 1003 End
screen | grep -q "^1001 " || fail "End: the last process not on screen"
key Home; wait_first_row 1005 Home
key PageDown; wait_first_row 1003 PgDn
key Up; wait_first_row 1004 Up
key q
note "scrolling: Down, End, Home, PgDn and Up move the rows on a short screen"
$T kill-server 2>/dev/null

# against the daemon, through its socket; -n 3 stops by itself
SOCK=$TMP/api.sock
"$HELPERS/spin" 30 livespin >/dev/null &
start_daemon "$TMP/db" --listen "unix:$SOCK"
wait_more_intervals "$TMP/db" 2 || fail "no intervals"
$T new-session -d -s "$PANE" -x 150 -y 30 \
	"'$STACKCTL' top --url 'unix:$SOCK' --sort cpu -n 3; echo \"exit=\$?\" >'$TMP/exit2'; sleep 60"
wait_screen "livespin" 15
screen | grep -q "stackd at unix:$SOCK" || fail "header does not say where the data comes from"
i=0
while [ ! -s "$TMP/exit2" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$TMP/exit2" 2>/dev/null)" = "exit=0" ] || fail "top -n 3 did not end by itself: $(cat "$TMP/exit2" 2>/dev/null)"
stop_daemon
exit 0
