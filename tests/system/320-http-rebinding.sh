#!/bin/sh
# DNS rebinding: a page whose name an attacker points at 127.0.0.1 makes
# the user's browser send its own name as Host.  Every endpoint - the
# dashboard's page and files, /api/v1/*, /metrics, an unknown path -
# answers such a request 421 on loopback TCP and on the Unix socket, for
# root and for any user; localhost, the address listened on (with or
# without a port), no Host at all (HTTP/1.0) and the names in
# http_allowed_hosts are answered; stackctl keeps working on both
# transports (issue 28, item 2).
. "$(dirname "$0")/lib.sh"
need_root
share_binaries   # stackctl as nobody below

port=$(free_port)
sock="$TMP/api.sock"
chmod 755 "$TMP"
cat >"$TMP/stackd.conf" <<EOF
http_allowed_hosts = stackd.example, [::1]
EOF
start_daemon "$TMP/db" --config "$TMP/stackd.conf" --listen "127.0.0.1:$port,unix:$sock"
wait_more_intervals "$TMP/db" 2 || { cat "$TMP/stackd.log"; fail "no intervals"; }

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# code TRANSPORT HOST PATH [RUNNER]: the status of GET PATH with Host: HOST
# ("-": none at all, HTTP/1.0)
code() {
	transport=$1 host=$2 path=$3
	shift 3
	if [ "$host" = - ]; then
		set -- "$@" curl -s -0 -H "Host:"
	else
		set -- "$@" curl -s -H "Host: $host"
	fi
	if [ "$transport" = unix ]; then
		"$@" -o "$TMP/body" -w '%{http_code}' --max-time 5 --unix-socket "$sock" \
			"http://localhost$path"
	else
		"$@" -o "$TMP/body" -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port$path"
	fi
}

paths="/ /index.html /app.js /style.css /api/v1/system /api/v1/top?window=10s /api/v1/processes/1 /api/v1/series?who=host&metric=cpu_percent&from=10s /metrics /nothing-here"
refused=0
for transport in tcp unix; do
	for host in evil.example "evil.example:$port" "127.0.0.1.evil.example" "localhost.evil.example:$port"; do
		for path in $paths; do
			for who in root nobody; do
				if [ "$who" = root ]; then
					got=$(code "$transport" "$host" "$path")
				else
					got=$(code "$transport" "$host" "$path" as_nobody)
				fi
				[ "$got" = 421 ] ||
					fail "$who over $transport, Host: $host, GET $path: $got, want 421: $(head -c 200 "$TMP/body")"
				refused=$((refused + 1))
			done
		done
	done
done
grep -q "misdirected request" "$TMP/body" || fail "421 without its reason: $(cat "$TMP/body")"
note "$refused requests naming another host refused with 421 (TCP and Unix socket, root and nobody)"

# what is ours is answered, on both transports
for transport in tcp unix; do
	for host in localhost "localhost:$port" "LOCALHOST:8080" 127.0.0.1 "127.0.0.1:$port" \
		stackd.example "stackd.example:$port" "[::1]:$port" -; do
		for path in / /app.js /api/v1/system /metrics; do
			got=$(code "$transport" "$host" "$path")
			[ "$got" = 200 ] || fail "over $transport, Host: $host, GET $path: $got, want 200"
		done
	done
done
note "localhost, 127.0.0.1, http_allowed_hosts' names and no Host at all answered on both transports"

# stackctl, as root and as nobody, on both transports
for url in "unix:$sock" "http://127.0.0.1:$port" "http://localhost:$port"; do
	"$STACKCTL" top --url "$url" -b -n 1 >"$TMP/top.out" 2>&1 ||
		{ cat "$TMP/top.out"; fail "stackctl top --url $url"; }
	as_nobody "$STACKCTL" status --url "$url" >"$TMP/status.out" 2>&1 ||
		{ cat "$TMP/status.out"; fail "stackctl status --url $url as nobody"; }
done
note "stackctl top (root) and status (nobody) answered over unix:, 127.0.0.1 and localhost"
stop_daemon
echo ok
