#!/bin/sh
# /metrics: valid exposition (promtool check metrics), counters named
# *_total, bounded label sets within the fleet budget; a real Prometheus server on loopback scrapes
# stackd and its query API returns a stackd series for the spinner.
. "$(dirname "$0")/lib.sh"
need_root
command -v prometheus >/dev/null || skip "prometheus is not installed (packaging/install-deps.sh installs it)"
PORT=$(free_port)
URL=http://127.0.0.1:$PORT

"$HELPERS/spin" 30 promspin >/dev/null &
SPIN=$!
start_daemon "$TMP/db" --listen "127.0.0.1:$PORT"
wait_more_intervals "$TMP/db" 2 || fail "no intervals"

curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics failed"
promtool check metrics <"$TMP/metrics" >"$TMP/promtool.out" 2>&1 ||
	fail "promtool: $(cat "$TMP/promtool.out")"
grep -q '^stackd_comm_cpu_seconds_total{comm="promspin"} ' "$TMP/metrics" || fail "no per-comm series"
grep -q '^# TYPE stackd_lost_records_total counter' "$TMP/metrics" || fail "health counters"
grep -q '^stackd_bad_samples_total 0$' "$TMP/metrics" || fail "health counter bad_samples"
grep -q '^# TYPE stackd_max_cpu_switch_rate gauge' "$TMP/metrics" || fail "health gauge"
# counters end in _total; no series is keyed by pid except the top-N family
grep '^# TYPE' "$TMP/metrics" | grep ' counter$' | grep -v '_total counter$' && fail "a counter without _total"
# sized for fleets (docs/operations.md): processes off by default; the
# host's events by group, per target only its top-N figures (12 comms and
# 12 units besides [other]), no event series per target
n=$(grep -c '^stackd_process_' "$TMP/metrics")
[ "$n" -eq 0 ] || fail "$n process series (prometheus_top_processes is 0 by default)"
grep -q '^stackd_host_events_total{group="[a-z_0-9]*",event="[a-z_0-9]*"} [0-9]' "$TMP/metrics" ||
	fail "no host event series"
grep -qE '^stackd_(comm|unit|process)_(events|group_seconds)_total' "$TMP/metrics" &&
	fail "event series per target"
c=$(grep -c '^stackd_comm_cpu_seconds_total{' "$TMP/metrics")
[ "$c" -le 16 ] || fail "$c comm series (top 12, [other], [idle], [unattributed], [excluded])"
total=$(grep -c '^stackd' "$TMP/metrics")
[ "$total" -le 2000 ] || fail "$total series (the budget is 2,000 with the rules')"
grep -v '^stackd_process_' "$TMP/metrics" | grep -q 'pid=' && fail "pid label outside the top-N family"
# the headline and the CPU totals: comms (with [idle] and [unattributed])
# add up to all the CPU time measured, so the busy CPUs can be summed.  A
# comm's counter starts at 0 when it enters the top 12 (its earlier time is
# in [other]'s), so what adds up is the increase between two scrapes
# (rate()'s view); a comm leaving the top 12 meanwhile takes its last
# increase with it: a little below, never above.
for m in stackd_attributed_ratio stackd_unattributed_cpu_seconds_total \
	stackd_idle_cpu_seconds_total stackd_cpu_seconds_total stackd_last_interval_timestamp_seconds \
	stackd_periodic_share; do
	grep -q "^$m [0-9]" "$TMP/metrics" || fail "no $m"
done
grep -q '^stackd_comm_cpu_seconds_total{comm="\[idle\]"} ' "$TMP/metrics" || fail "no [idle] comm series"
wait_more_intervals "$TMP/db" 2 || fail "no more intervals"
curl -sf "$URL/metrics" >"$TMP/metrics2" || fail "/metrics failed"
awk 'FNR == 1 { f++ } /^stackd_comm_cpu_seconds_total\{/ { v[f, $1] = $2; k[$1] = 1 }
	/^stackd_cpu_seconds_total / { t[f] = $2 }
	END { for (n in k) if ((2, n) in v) c += v[2, n] - ((1, n) in v && v[1, n] <= v[2, n] ? v[1, n] : 0)
	      d = t[2] - t[1]; exit !(d > 0 && c > d * 0.95 && c < d * 1.001) }' \
	"$TMP/metrics" "$TMP/metrics2" || fail "comm CPU seconds do not add up to stackd_cpu_seconds_total"
ratio=$(sed -n 's/^stackd_attributed_ratio //p' "$TMP/metrics")
# a share (its accuracy is 020's): one interval's can dip where a CPU goes idle
awk -v r="$ratio" 'BEGIN { exit !(r > 0 && r <= 1) }' || fail "attributed ratio $ratio is not a share"
note "$total series, $c comm series, attributed ratio $ratio"

PPORT=$(( PORT + 1 ))
cat >"$TMP/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: stackd
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
EOT
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prometheus.log" 2>&1 &
PROM=$!
Q="http://127.0.0.1:$PPORT/api/v1/query"
i=0
value=""
while [ $i -lt 60 ]; do
	value=$(curl -sf -G "$Q" --data-urlencode 'query=stackd_comm_cpu_seconds_total{comm="promspin"}' |
		jq -r '.data.result[0].value[1] // empty' 2>/dev/null)
	[ -n "$value" ] && break
	i=$((i + 1))
	sleep 0.5
done
if [ -z "$value" ]; then
	tail -5 "$TMP/prometheus.log"
	kill "$PROM"
	fail "Prometheus has no stackd series after 30 s"
fi
note "Prometheus: stackd_comm_cpu_seconds_total{comm=promspin} = $value"
awk -v v="$value" 'BEGIN { exit !(v > 0.5) }' || fail "spinner's CPU seconds too small: $value"
up=$(curl -sf -G "$Q" --data-urlencode 'query=up{job="stackd"}' | jq -r '.data.result[0].value[1]')
[ "$up" = 1 ] || fail "scrape target not up"
kill "$PROM"
wait "$PROM" 2>/dev/null
kill "$SPIN" 2>/dev/null
stop_daemon
exit 0
