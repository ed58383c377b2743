#!/bin/sh
# Kubernetes pods and containers from real cgroups: the kubelet's cgroup
# hierarchy made for both of its drivers (systemd: kubepods.slice/...
# kubepods-burstable-pod<uid as _>.slice/cri-containerd-<id>.scope;
# cgroupfs: kubepods/besteffort/pod<uid>/<id>) and a podman scope, a
# /var/log/pods-style tree (and the kubelet's containers/ symlinks) in a
# temporary directory, light processes moved into them; stackd (software
# model) must name them: `stackctl top --by pod|container|namespace`,
# GET /api/v1/top?by=pod, and /metrics with namespace/pod/container labels.
# The cgroups go away afterwards, failed or not.
. "$(dirname "$0")/lib.sh"
need_root
CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$CG" ] || skip "no cgroup v2 hierarchy mounted"
PORT=$(free_port)
URL=http://127.0.0.1:$PORT

UID1=5c0ffee0-aaaa-4bbb-8ccc-000000000001     # web/shop-0: two containers
UID2=5c0ffee0-aaaa-4bbb-8ccc-000000000002     # batch/worker-7d9f: cgroupfs
ID1=$(printf 'a%.0s' $(seq 64))
ID2=$(printf 'b%.0s' $(seq 64))
ID3=$(printf 'c%.0s' $(seq 64))
ID4=$(printf 'd%.0s' $(seq 64))
UID1_=$(echo "$UID1" | tr - _)
TOP=stackd-test-$$                            # our own corner of the hierarchy
SYS=$CG/$TOP/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$UID1_.slice
FS=$CG/$TOP/kubepods/besteffort/pod$UID2
C1=$SYS/cri-containerd-$ID1.scope
C3=$SYS/cri-containerd-$ID3.scope
C2=$FS/$ID2
C4=$CG/$TOP/machine.slice/libpod-$ID4.scope

# Every process in our cgroups is one of ours (the loops and their
# naps): all are killed, then the cgroups removed, deepest first.
cg_cleanup() {
	for p in $EXTRA_PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	if [ -d "$CG/$TOP" ]; then
		[ -f "$CG/$TOP/cgroup.kill" ] && echo 1 >"$CG/$TOP/cgroup.kill" 2>/dev/null
		i=0
		while [ -d "$CG/$TOP" ] && [ "$i" -lt 50 ]; do
			for f in $(find "$CG/$TOP" -name cgroup.procs); do
				xargs -r kill -KILL <"$f" 2>/dev/null
			done
			find "$CG/$TOP" -depth -type d -exec rmdir {} \; 2>/dev/null
			sleep 0.1
			i=$((i + 1))
		done
		[ ! -d "$CG/$TOP" ] || echo "# could not remove $CG/$TOP"
	fi
	cleanup
}
trap cg_cleanup EXIT INT TERM

mkdir -p "$C1" "$C3" "$C2" "$C4" 2>/dev/null || skip "cannot create cgroups under $CG"

# the kubelet's log layout: <namespace>_<pod>_<uid>/<container>/, and the
# symlinks <pod>_<namespace>_<container>-<id>.log beside pods/
L=$TMP/log
mkdir -p "$L/pods/web_shop-0_$UID1/app" "$L/pods/web_shop-0_$UID1/sidecar" \
	"$L/pods/batch_worker-7d9f_$UID2/worker" "$L/containers"
ln -s "../pods/web_shop-0_$UID1/app/0.log" "$L/containers/shop-0_web_app-$ID1.log"
ln -s "../pods/web_shop-0_$UID1/sidecar/0.log" "$L/containers/shop-0_web_sidecar-$ID3.log"
printf 'kubelet_pods_dir = %s\nmodel = software\nhttp_anonymous = none\n' "$L/pods" >"$TMP/stackd.conf"

# a light load: a short busy loop, then a nap, forever (children inherit
# the cgroup)
spin_in() {
	sh -c 'while :; do i=0; while [ $i -lt 500 ]; do i=$((i + 1)); done; sleep 0.1; done' &
	pid=$!
	EXTRA_PIDS="$EXTRA_PIDS $pid"
	echo "$pid" >"$1/cgroup.procs" || fail "cannot move pid $pid into $1"
	grep -q "^0::.*$(basename "$1")" "/proc/$pid/cgroup" || fail "pid $pid is not in $1"
}
spin_in "$C1"
spin_in "$C3"
spin_in "$C2"
spin_in "$C4"
note "$(sed -n 's/^0:://p' /proc/$(echo $EXTRA_PIDS | cut -d' ' -f1)/cgroup)"

start_daemon "$TMP/db" --config "$TMP/stackd.conf" --listen "127.0.0.1:$PORT" --allow-second
wait_more_intervals "$TMP/db" 3 || fail "no intervals"

# the store: ids, runtime, uid and names as the disk gave them
got=$(sqlite3 "$TMP/db" "SELECT DISTINCT coalesce(container_runtime,'-'), pod_uid,
	pod_namespace, pod_name, container_name FROM process WHERE container_id = '$ID2'")
[ "$got" = "-|$UID2|batch|worker-7d9f|worker" ] || fail "cgroupfs process stored as '$got'"
got=$(sqlite3 "$TMP/db" "SELECT DISTINCT container_runtime, pod_uid, container_name
	FROM process WHERE container_id = '$ID1'")
[ "$got" = "containerd|$UID1|app" ] || fail "systemd-driver process stored as '$got'"

"$STACKCTL" top --db "$TMP/db" -b -n 1 --window 30s --by pod >"$TMP/pod.txt" 2>"$TMP/err" ||
	fail "top --by pod: $(cat "$TMP/err")"
cat "$TMP/pod.txt" | sed 's/^/# /'
grep -Eq '^ *web +shop-0 +[0-9]' "$TMP/pod.txt" || fail "top --by pod: no web/shop-0 row"
grep -Eq '^ *batch +worker-7d9f +[0-9]' "$TMP/pod.txt" || fail "top --by pod: no batch/worker-7d9f row"

"$STACKCTL" top --db "$TMP/db" -b -n 1 --window 30s --by container >"$TMP/ctr.txt" 2>"$TMP/err" ||
	fail "top --by container: $(cat "$TMP/err")"
for row in 'web +shop-0 +app' 'web +shop-0 +sidecar' 'batch +worker-7d9f +worker' "dddddddddddd"; do
	grep -Eq "$row" "$TMP/ctr.txt" || { cat "$TMP/ctr.txt"; fail "top --by container: no '$row'"; }
done
"$STACKCTL" top --db "$TMP/db" -b -n 1 --window 30s --by namespace >"$TMP/ns.txt" 2>"$TMP/err" ||
	fail "top --by namespace: $(cat "$TMP/err")"
grep -Eq '^ *web +[0-9]' "$TMP/ns.txt" && grep -Eq '^ *batch +[0-9]' "$TMP/ns.txt" ||
	{ cat "$TMP/ns.txt"; fail "top --by namespace: no web and batch rows"; }

curl -sf "$URL/api/v1/top?by=pod&window=30s" >"$TMP/top.json" || fail "GET /api/v1/top?by=pod"
jq -e '[.rows[] | select(.namespace == "batch" and .pod == "worker-7d9f")] | length == 1' \
	"$TMP/top.json" >/dev/null || { head -c 2000 "$TMP/top.json"; fail "API: no batch/worker-7d9f row"; }

curl -sf "$URL/metrics" >"$TMP/metrics" || fail "/metrics failed"
for l in 'namespace="web",pod="shop-0",container="app"' \
	'namespace="web",pod="shop-0",container="sidecar"' \
	'namespace="batch",pod="worker-7d9f",container="worker"' \
	'namespace="",pod="",container="dddddddddddd"'; do
	grep -qF "stackd_container_cpu_seconds_total{$l}" "$TMP/metrics" ||
		{ grep '^stackd_container' "$TMP/metrics"; fail "/metrics: no container series {$l}"; }
done
if command -v promtool >/dev/null; then
	promtool check metrics <"$TMP/metrics" >"$TMP/promtool.out" 2>&1 ||
		{ cat "$TMP/promtool.out"; fail "promtool check metrics"; }
fi
note "$(grep -c '^stackd_container_' "$TMP/metrics") container series"
stop_daemon
exit 0
