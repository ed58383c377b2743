#!/bin/sh
# Names of any bytes keep every output valid (issue 13): processes whose
# comm or command line hold a character the kernel cut at 15 bytes, 0xff,
# an overlong form, a surrogate, a terminal escape or a newline.  Every
# JSON answer (top, processes/PID, export) decodes as strict UTF-8 JSON,
# /metrics passes promtool, and stackctl top/show/export succeed and print
# valid UTF-8 from the API and from the database file alike, the tables
# without a control character.
. "$(dirname "$0")/lib.sh"
need_root
command -v promtool >/dev/null || skip "promtool is not installed (packaging/install-deps.sh installs it)"
command -v python3 >/dev/null || skip "python3 is not installed"
PORT=$(free_port)
URL=http://127.0.0.1:$PORT

# comm, then argv[0] (the command line): bytes made by printf, as sh has no $'...'
cut_comm=$(printf 'процессор-длинный')          # the kernel keeps 15 bytes: "процесс" + half a letter
bad_comm=$(printf 'x\377\376\300\257')
bad_argv=$(printf '\377\300\257\355\240\200\364\220\200\200-\360\237\230\200')
esc_name=$(printf '\033]0;PWNED\007')
nl_name=$(printf 'new\nline')
SPINS=""
# spin_named COMM ARGV0: a nice spinner with that comm and argv[0]; its pid in SPINS
spin_named() {
	bash -c 'renice -n 19 -p $$ >/dev/null; exec -a "$0" "$@"' "$2" "$HELPERS/spin" 60 "$1" \
		>/dev/null &
	SPINS="$SPINS $!"
}
stop_spins() {
	for p in $SPINS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	SPINS=""
}
spin_named "$cut_comm" "$cut_comm"
spin_named "$bad_comm" "$bad_argv"
spin_named "$esc_name" "$esc_name"
spin_named "$nl_name" "$nl_name"
trap 'stop_spins; cleanup' EXIT INT TERM
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT"
wait_more_intervals "$TMP/db" 3 || fail "no intervals"
sleep 1   # the database and the daemon's answers are a flush apart

# strict FILE: FILE decodes as UTF-8 (no replacement) and parses as JSON
strict() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" \
		2>"$TMP/strict.err" || fail "$2 is not strict UTF-8 JSON: $(tail -1 "$TMP/strict.err")"
}
# utf8 FILE WHAT: FILE is valid UTF-8
utf8() {
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" 2>/dev/null ||
		fail "$2 is not valid UTF-8"
}
# no_controls FILE WHAT: no control byte but newline (a table for a terminal)
no_controls() {
	LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1" && fail "$2 holds a control character"
	return 0
}

curl -sf "$URL/api/v1/top?window=30s&limit=10000&sort=cpu" >"$TMP/top.json" || fail "/api/v1/top"
strict "$TMP/top.json" "/api/v1/top"
for p in $SPINS; do
	jq -e --argjson p "$p" 'any(.rows[]; .pid == $p)' "$TMP/top.json" >/dev/null ||
		fail "spinner $p is not in /api/v1/top"
done
# the cut name: its whole letters kept, the half one replaced
jq -e 'any(.rows[]; .comm == "процесс\ufffd")' "$TMP/top.json" >/dev/null ||
	fail "no row for the cut name: $(jq -c '[.rows[].comm]' "$TMP/top.json")"
jq -e 'any(.rows[]; .comm == "\u001b]0;PWNED\u0007")' "$TMP/top.json" >/dev/null ||
	fail "the escape sequence is not kept (escaped) in JSON"
for p in $SPINS; do
	curl -sf "$URL/api/v1/processes/$p?window=30s" >"$TMP/p$p.json" || fail "/api/v1/processes/$p"
	strict "$TMP/p$p.json" "/api/v1/processes/$p"
done
curl -sf "$URL/api/v1/export?from=30s" >"$TMP/export.json" || fail "/api/v1/export"
strict "$TMP/export.json" "/api/v1/export"
curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics"
promtool check metrics <"$TMP/metrics" >"$TMP/promtool.out" 2>&1 ||
	fail "promtool: $(cat "$TMP/promtool.out")"
utf8 "$TMP/metrics" "/metrics"
grep -q 'comm="процесс'"$(printf '\357\277\275')"'"' "$TMP/metrics" || fail "cut name missing from /metrics"

for src in "--url $URL" "--db $TMP/db"; do
	# shellcheck disable=SC2086
	"$STACKCTL" top $src -b -n 1 --window 30s --limit 100 >"$TMP/top.txt" 2>"$TMP/err" ||
		fail "stackctl top -b $src: $(cat "$TMP/err")"
	utf8 "$TMP/top.txt" "stackctl top -b $src"
	no_controls "$TMP/top.txt" "stackctl top -b $src"
	grep -q 'PWNED' "$TMP/top.txt" || fail "stackctl top -b $src lacks the escape-named process"
	# shellcheck disable=SC2086
	"$STACKCTL" top $src --json --window 30s >"$TMP/top-cli.json" 2>"$TMP/err" ||
		fail "stackctl top --json $src: $(cat "$TMP/err")"
	strict "$TMP/top-cli.json" "stackctl top --json $src"
	for p in $SPINS; do
		# shellcheck disable=SC2086
		"$STACKCTL" show $src "$p" --window 30s >"$TMP/show.txt" 2>"$TMP/err" ||
			fail "stackctl show $p $src: $(cat "$TMP/err")"
		utf8 "$TMP/show.txt" "stackctl show $p $src"
		# the header names the process: ESC, BEL or a newline in its name
		# must not reach the terminal
		no_controls "$TMP/show.txt" "stackctl show $p $src"
		# shellcheck disable=SC2086
		"$STACKCTL" show $src "$p" --window 30s --json >"$TMP/show.json" 2>"$TMP/err" ||
			fail "stackctl show --json $p $src: $(cat "$TMP/err")"
		strict "$TMP/show.json" "stackctl show --json $p $src"
	done
	# shellcheck disable=SC2086
	"$STACKCTL" export $src --since 30s >"$TMP/export.csv" 2>"$TMP/err" ||
		fail "stackctl export $src: $(cat "$TMP/err")"
	utf8 "$TMP/export.csv" "stackctl export $src"
	# shellcheck disable=SC2086
	"$STACKCTL" export $src --since 30s --json >"$TMP/export-cli.json" 2>"$TMP/err" ||
		fail "stackctl export --json $src: $(cat "$TMP/err")"
	strict "$TMP/export-cli.json" "stackctl export --json $src"
done
note "$(jq '.rows | length' "$TMP/top.json") rows; names: $(jq -c '[.rows[].comm]' "$TMP/top.json" | head -c 300)"
stop_spins
stop_daemon
exit 0
