#!/bin/sh
# A small fleet: three `stackd --demo` instances (the constructed Skylake
# host, replayed into /metrics) and a live stackd (--allow-second, this
# host's model) scraped by a real Prometheus with the shipped rules and
# alerts, on loopback.  Measured against the budget docs/operations.md
# ("Sizing") documents: series per host, the rules' included (count by
# instance), and the rule groups' evaluation time per host
# (prometheus_rule_group_last_duration_seconds).  Every recording rule that
# applies to Skylake or to the live model returns data - memory_bound and
# core_bound on the Skylake-shaped data among them - and StackdStale does
# not fire on the demo.
. "$(dirname "$0")/lib.sh"
need_root
command -v prometheus >/dev/null || skip "prometheus is not installed (packaging/install-deps.sh installs it)"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RULES=$ROOT/packaging/prometheus/stackd-rules.yml
ALERTS=$ROOT/packaging/prometheus/stackd-alerts.yml
BUDGET_SERIES=2000      # per PMU host, rules included (docs/operations.md)
BUDGET_RULE_MS=50       # rule evaluation per host per evaluation: a loaded 2-core VM

# next_port P: the first free TCP port above P
next_port() {
	p=$(($1 + 1))
	while ss -Htln "sport = :$p" 2>/dev/null | grep -q .; do
		p=$((p + 1))
	done
	echo "$p"
}
P=$(free_port)
TARGETS=""
for i in 1 2 3; do
	"$STACKD" --demo --listen "127.0.0.1:$P" >"$TMP/demo$i.log" 2>&1 &
	EXTRA_PIDS="$EXTRA_PIDS $!"
	TARGETS="$TARGETS\"127.0.0.1:$P\", "
	DEMO_PORT=$P
	P=$(next_port "$P")
done
LIVE_PORT=$P
start_daemon "$TMP/db" --allow-second --listen "127.0.0.1:$LIVE_PORT"
PPORT=$(next_port "$LIVE_PORT")
cat >"$TMP/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ["$RULES", "$ALERTS"]
scrape_configs:
  - job_name: stackd
    static_configs:
      - targets: [$TARGETS"127.0.0.1:$LIVE_PORT"]
EOT
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prometheus.log" 2>&1 &
PROM=$!
EXTRA_PIDS="$EXTRA_PIDS $PROM"
API=http://127.0.0.1:$PPORT/api/v1/query
# q EXPR: the answer's results, one "instance value" a line
q() {
	curl -sf -G "$API" --data-urlencode "query=$1" |
		jq -r '.data.result[] | "\(.metric.instance // "-") \(.value[1])"' 2>/dev/null
}
DEMO=127.0.0.1:$DEMO_PORT
LIVE=127.0.0.1:$LIVE_PORT
# the deepest layer: level 2 of Skylake's Top-Down on a demo, and the
# live model's switches (the rules' chain is a few evaluations deep)
i=0
while [ $i -lt 60 ]; do
	mb=$(q "stackd:memory_bound:ratio5m{instance=\"$DEMO\"}")
	sw=$(q "stackd:switches_per_cpu_second:ratio5m{instance=\"$LIVE\",kind=\"host\"}")
	[ -n "$mb" ] && [ -n "$sw" ] && break
	sleep 0.5
	i=$((i + 1))
done
[ -n "$mb" ] || { tail -5 "$TMP/prometheus.log"; fail "no memory_bound on the demo's Skylake data in 30 s"; }
[ -n "$sw" ] || fail "no switches per CPU second on the live stackd in 30 s"
sleep 4   # every group evaluated a few times over the full chain

# every recording rule with data; those of other models' events only
# (Arm; Ice Lake and Sapphire Rapids: perf metrics, the LSD; Zen 4: SMT
# contention) are the promtool
# tests' (270)
model=$(curl -sf -G "$API" --data-urlencode "query=stackd_info{instance=\"$LIVE\"}" |
	jq -r '.data.result[0].metric.model')
other='^stackd:(arm_|spr_|intel_sum4|peak_flop_(hp|amx)|smt_contention|lsd_share)'
missing=""
n=0
for r in $(grep -oE 'record: [^ ]+' "$RULES" | cut -d' ' -f2 | sort -u); do
	echo "$r" | grep -qE "$other" && continue
	# process rules: top_processes is 0 by default; the rule's comm twin counts
	[ -n "$(q "$r")" ] || missing="$missing $r"
	n=$((n + 1))
done
[ -z "$missing" ] || fail "rules that return no data on Skylake ($DEMO) or $model ($LIVE):$missing"
for node in memory_bound core_bound fetch_latency heavy_ops; do
	[ -n "$(q "stackd:$node:ratio5m{instance=\"$DEMO\",kind=\"host\"}")" ] ||
		fail "no $node on the demo host"
	[ -n "$(q "stackd:topdown:ratio5m{instance=\"$DEMO\",kind=\"comm\",comm=\"stream\",node=\"$node\"}")" ] ||
		fail "no $node for the demo's comm stream"
done
# the demo's stream: memory_bound of the slots (profile: backend 0.55, 70%
# of its stalls on memory), the rules' host figure between the comms'
mem=$(q "stackd:topdown:ratio5m{instance=\"$DEMO\",comm=\"stream\",node=\"memory_bound\"}" | cut -d' ' -f2)
awk -v m="$mem" 'BEGIN { exit !(m > 0.25 && m < 0.4) }' || fail "stream memory_bound $mem"
note "$n rules return data; demo host memory_bound $(echo "$mb" | cut -d' ' -f2), stream's $mem"

# the Grafana board's fleet panels (ids 21, 22, 24) answer over the fleet:
# which binaries lose most to the frontend across hosts, the Top-Down mix
DASH=$ROOT/packaging/grafana/stackd-dashboard.json
for id in 21 22 24; do
	jq -r ".panels[] | select(.id == $id) | .targets[0].expr" "$DASH" |
		sed 's/\$instance/.*/g; s/\$topn/10/g' >"$TMP/expr"
	[ -s "$TMP/expr" ] || fail "dashboard panel $id has no query"
	[ -n "$(q "$(cat "$TMP/expr")")" ] || fail "dashboard panel $id: no data ($(cat "$TMP/expr"))"
done
# the demo's jitserver: 35% frontend-bound at 0.9 CPU on each of 3 hosts
top=$(curl -sf -G "$API" --data-urlencode "query=$(jq -r '.panels[] | select(.id == 21) |
	.targets[0].expr' "$DASH" | sed 's/\$instance/.*/g; s/\$topn/1/g')" |
	jq -r '.data.result[0] | "\(.metric.comm) \(.value[1])"')
[ "${top%% *}" = jitserver ] || fail "the fleet's most frontend-bound binary is $top, not jitserver"
note "fleet panels answer; the fleet's most frontend-bound binary: $top CPUs (a 5m rate of a window not yet full: low)"

# series per host, the rules' included
q 'count by (instance) ({job="stackd"})' >"$TMP/series"
cat "$TMP/series" | while read -r inst count; do
	[ "$count" -le "$BUDGET_SERIES" ] || fail "$inst has $count series (budget $BUDGET_SERIES)"
done || exit 1
head_series=$(curl -sf "http://127.0.0.1:$PPORT/metrics" | sed -n 's/^prometheus_tsdb_head_series //p')
# rule evaluation: all groups' last durations, per host scraped
rule_s=$(curl -sf "http://127.0.0.1:$PPORT/metrics" |
	awk '/^prometheus_rule_group_last_duration_seconds\{/ { s += $2 } END { printf "%.6f", s }')
per_host_ms=$(awk -v s="$rule_s" 'BEGIN { printf "%.3f", s * 1000 / 4 }')
awk -v m="$per_host_ms" -v b="$BUDGET_RULE_MS" 'BEGIN { exit !(m <= b) }' ||
	fail "rule evaluation $per_host_ms ms per host per evaluation (budget $BUDGET_RULE_MS)"
# the demo's data keep moving: no StackdStale
[ -z "$(q 'ALERTS{alertname="StackdStale"}')" ] || fail "StackdStale fires on the demo"
per_target=$(q "count({instance=\"$DEMO\",comm=\"stream\"})" | cut -d' ' -f2)
live_targets=$(q "count(stackd:cpu_seconds:rate5m{instance=\"$LIVE\",kind!=\"host\"})" | cut -d' ' -f2)
note "series per host (instance count): $(tr '\n' ' ' <"$TMP/series"); head series $head_series; per Skylake target (comm stream, rules included): $per_target; live targets $live_targets"
note "rule evaluation: $rule_s s for 4 hosts, $per_host_ms ms per host"
kill "$PROM"
wait "$PROM" 2>/dev/null
stop_daemon
exit 0
