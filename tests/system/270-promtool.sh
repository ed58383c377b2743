#!/bin/sh
# The shipped Prometheus rules and Grafana dashboard (packaging/prometheus,
# packaging/grafana): promtool accepts both rule files; their unit tests
# (packaging/prometheus/tests) pass, each recording rule giving the model's
# value for constructed counters and each alert firing after its duration
# and not before; every series, group, event and model the rules name is
# one stackd exports (daemon/serve/prom.c, lib/health_fields.h, lib/model); the
# dashboard is well-formed and queries only those series and the rules'.
# As root, a real Prometheus loads the rules over a live stackd scrape and
# records the software model's rates; make install installs the files.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PROM_DIR=$ROOT/packaging/prometheus
RULES=$PROM_DIR/stackd-rules.yml
ALERTS=$PROM_DIR/stackd-alerts.yml
DASH=$ROOT/packaging/grafana/stackd-dashboard.json
command -v promtool >/dev/null || skip "promtool is not installed (Debian package prometheus)"

promtool check rules "$RULES" "$ALERTS" >"$TMP/check.out" 2>&1 ||
	fail "promtool check rules: $(cat "$TMP/check.out")"
for t in "$PROM_DIR"/tests/*.yml; do
	promtool test rules "$t" >"$TMP/test.out" 2>&1 ||
		fail "promtool test rules $(basename "$t"): $(cat "$TMP/test.out")"
done
note "promtool: rules check and $(ls "$PROM_DIR"/tests/*.yml | wc -l) unit test files pass"

# exported NAME: daemon/serve/prom*.c writes the series NAME, as a literal,
# as one of its per-kind families (stackd_%s_topdown_seconds_total, or
# family(f, kind, "cpu_seconds_total", ...)) or through metric(), or
# lib/health_fields.h names it.
exported() {
	fam=$(echo "$1" | sed -E 's/^stackd_(comm|unit|process)_/stackd_%s_/')
	kindless=$(echo "$1" | sed -nE 's/^stackd_(comm|unit|process)_//p')
	short=${1#stackd_}
	grep -qF -e "$1" -e "$fam" "$ROOT"/daemon/serve/prom*.c ||
		{ [ -n "$kindless" ] && grep -qF "kind, \"$kindless\"" "$ROOT"/daemon/serve/prom*.c; } ||
		grep -qF "\"$short\"" "$ROOT"/daemon/serve/prom*.c "$ROOT/lib/health_fields.h"
}
# values of LABEL's matchers (=, =~ split on |, !=) in the rule files
label_values() {
	cat "$RULES" "$ALERTS" | grep -oE "[{,]$1(=|=~|!=)\"[^\"]*\"" |
		sed -E 's/^.[a-z]+[=~!]+"//; s/"$//' | tr '|' '\n' | sort -u
}

# raw series: rules, alerts and dashboard (records are stackd:...)
cat "$RULES" "$ALERTS" "$DASH" | grep -oE 'stackd_[a-z_]+' | sort -u >"$TMP/raw"
[ -s "$TMP/raw" ] || fail "no raw series found in the rules"
while read -r n; do
	exported "$n" || fail "$n is not a series daemon/serve/prom.c exports"
done <"$TMP/raw"
for e in $(label_values event); do
	grep -qE "\"[^\"]*\", \"$e\"," "$ROOT"/lib/model/model_*.[ch] || fail "no model has an event column $e"
done
for g in $(label_values group); do
	grep -qE "\{ \"$g\", [a-z0-9_]+," "$ROOT"/lib/model/model_*.[ch] || fail "no model has a group $g"
done
for m in $(label_values model); do
	grep -qF ".name = \"$m\"" "$ROOT"/lib/model/model_*.[ch] || fail "no model is named $m"
done
note "rules name $(wc -l <"$TMP/raw") exported series, $(label_values event | wc -l) model events, $(label_values group | wc -l) groups"

# the dashboard: structure, data source, and only known series
command -v node >/dev/null || skip "node is not installed (the browser tests need it)"
{ grep -oE 'record: [^ ]+' "$RULES" | cut -d' ' -f2; cat "$TMP/raw"; } | sort -u >"$TMP/names"
node "$ROOT/packaging/grafana/tests/check-dashboard.js" "$DASH" "$TMP/names" >"$TMP/dash.out" ||
	fail "dashboard: $(cat "$TMP/dash.out")"
note "$(cat "$TMP/dash.out")"

# installed where docs/api.md says (the packages run make install)
make -C "$ROOT" --no-print-directory install DESTDIR="$TMP/dest" PREFIX=/usr BUILD="$BUILD" \
	>"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; fail "make install"; }
for f in prometheus/stackd-rules.yml prometheus/stackd-alerts.yml grafana/stackd-dashboard.json; do
	cmp -s "$ROOT/packaging/$f" "$TMP/dest/usr/share/stackd/$f" ||
		fail "make install did not install /usr/share/stackd/$f"
done

# Live: the rules over a real scrape (this host's model; on a VM without a
# PMU, software: switches and page faults per CPU second).
if [ "$(id -u)" -ne 0 ] || ! command -v prometheus >/dev/null; then
	skip_check "live rules: needs root and prometheus"
	exit 0
fi
PORT=$(free_port)
"$HELPERS/spin" 30 rulespin >/dev/null &
SPIN=$!
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT"
curl -sf "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics" || fail "/metrics failed"
for n in stackd_info stackd_host_events_total stackd_host_group_seconds_total \
	stackd_comm_cpu_seconds_total stackd_comm_context_switches_total; do
	grep -q "^$n{" "$TMP/metrics" || fail "live /metrics has no $n"
done
PPORT=$((PORT + 1))
cat >"$TMP/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ["$RULES", "$ALERTS"]
scrape_configs:
  - job_name: stackd
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
EOT
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prometheus.log" 2>&1 &
PROM=$!
# query EXPR [TIME]: the first result's value (at TIME, unix seconds: two
# queries of one evaluation compare), empty when none
query() {
	curl -sf -G "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} |
		jq -r '.data.result[0].value[1] // empty' 2>/dev/null
}
want='stackd:switches_per_cpu_second:ratio5m{kind="comm",comm="rulespin"}'
i=0
v=""
while [ $i -lt 60 ] && [ -z "$v" ]; do
	sleep 0.5
	v=$(query "$want")
	i=$((i + 1))
done
if [ -z "$v" ]; then
	tail -5 "$TMP/prometheus.log"
	kill "$PROM"
	fail "Prometheus recorded no $want in 30 s"
fi
# the host's busy CPUs hold the spinner's, both read at the time of the
# newest evaluation of the host's rule: from the same rule evaluation
# (rates of a window not yet full rise from one evaluation to the next, so
# two "now" queries could straddle one)
busy="" spin=""
i=0
while [ $i -lt 20 ] && { [ -z "$busy" ] || [ -z "$spin" ]; }; do
	# the newest evaluation's time, as its host sample carries it
	at=$(curl -sf -G "http://127.0.0.1:$PPORT/api/v1/query" \
		--data-urlencode 'query=stackd:cpu_seconds:rate5m{kind="host"}' |
		jq -r '.data.result[0].value[0] // empty' 2>/dev/null)
	if [ -n "$at" ]; then
		busy=$(query 'stackd:cpu_seconds:rate5m{kind="host"}' "$at")
		spin=$(query 'stackd:cpu_seconds:rate5m{kind="comm",comm="rulespin"}' "$at")
	fi
	[ -n "$busy" ] && [ -n "$spin" ] || sleep 0.5
	i=$((i + 1))
done
model=$(curl -sf -G "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode 'query=stackd_info' |
	jq -r '.data.result[0].metric.model')
kill "$PROM"
wait "$PROM" 2>/dev/null
kill "$SPIN" 2>/dev/null
stop_daemon
[ -n "$busy" ] && [ -n "$spin" ] || fail "no host or rulespin CPU seconds recorded"
awk -v b="$busy" -v s="$spin" 'BEGIN { exit !(s > 0 && s <= b * 1.001) }' ||
	fail "rulespin's CPU seconds ($spin/s) are not part of the host's ($busy/s)"
note "live ($model): rulespin $v switches per CPU second, $spin of the host's $busy busy CPU s/s"
exit 0
