#!/bin/sh
# The container image (packaging/kubernetes/build-image.sh): assembled from
# our release build with no base image pulled, imported into podman, and
# run the way the DaemonSet runs it: the host's pids, CAP_PERFMON (and
# nothing else of root's), /proc and /sys read-only; `stackd --version`
# answers, and a short run (software model, loopback) answers
# GET /api/v1/system and /metrics.  The image is removed afterwards.
. "$(dirname "$0")/lib.sh"
need_root
command -v podman >/dev/null || skip "podman is not installed (apt-get install podman)"
REL=${REL_BUILD:-$BUILD}
[ -x "$REL/stackd" ] && [ -x "$REL/stackctl" ] || skip "no release build in $REL (make build/stackd build/stackctl)"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
IMG=localhost/stackd-test:$$
NAME=stackd-test-$$
PORT=$(free_port)

img_cleanup() {
	podman rm -f -t 0 "$NAME" >/dev/null 2>&1
	podman rmi -f "$IMG" >/dev/null 2>&1
	cleanup
}
trap img_cleanup EXIT INT TERM

timeout 120 sh "$ROOT/packaging/kubernetes/build-image.sh" -o "$TMP/stackd.oci.tar" "$REL" "$IMG" \
	>"$TMP/build.out" 2>&1 || { cat "$TMP/build.out"; fail "build-image.sh failed"; }
podman image exists "$IMG" || fail "no image $IMG after the build"
[ -s "$TMP/stackd.oci.tar" ] || fail "no OCI archive written"
tar -tf "$TMP/stackd.oci.tar" | grep -qx 'index.json' || fail "the archive is not an OCI layout (no index.json)"
layers=$(podman image inspect --format '{{len .RootFS.Layers}}' "$IMG")
[ "$layers" = 1 ] || fail "the image has $layers layers, not the one we built"
note "image $IMG: $(podman image inspect --format '{{.Size}}' "$IMG") bytes, 1 layer, $(du -k "$TMP/stackd.oci.tar" | cut -f1) KiB archive"

# This VM's limits: crun refuses cgroup v1+v2 hybrids with a v2 controller
# (runc does not), and root here lacks CAP_SYS_RESOURCE to raise podman's
# default rlimits: explicit ones below ours.
RUN="podman run --ulimit nofile=4096:4096 --ulimit nproc=4096:4096"
if ! $RUN --rm --network none "$IMG" --version >/dev/null 2>"$TMP/err"; then
	if grep -q "hybrid mode" "$TMP/err" && command -v runc >/dev/null; then
		RUN="podman --runtime runc run --ulimit nofile=4096:4096 --ulimit nproc=4096:4096"
		note "crun cannot run on this cgroup hybrid: runc instead"
	else
		skip "podman cannot run a container here: $(tail -1 "$TMP/err")"
	fi
fi
want=$("$REL/stackd" --version)
got=$(timeout 30 $RUN --rm --network none "$IMG" --version 2>"$TMP/err") ||
	{ cat "$TMP/err"; fail "stackd --version in the image failed"; }
[ "$got" = "$want" ] || fail "the image's stackd says '$got', the build's '$want'"
got=$(timeout 30 $RUN --rm --network none --entrypoint /usr/bin/stackctl "$IMG" --version 2>&1) ||
	fail "stackctl in the image: $got"
note "in the image: $want; $got"

# As the DaemonSet: host pids, only CAP_PERFMON, read-only /proc and /sys
# (/sys from the host: the PMU's sysfs), the host's loopback to reach it;
# no seccomp filter, as there: podman's default profile (containers-common,
# /usr/share/containers/seccomp.json) lets perf_event_open through only
# with CAP_SYS_ADMIN, which is far more than the filter takes away.
$RUN -d --name "$NAME" --network host --pid host --cap-drop all --cap-add PERFMON \
	--security-opt label=disable --security-opt seccomp=unconfined --read-only -v /sys:/sys:ro \
	"$IMG" --model software --listen "127.0.0.1:$PORT" --db /tmp/stackd.db --allow-second \
	--user root >"$TMP/cid" 2>"$TMP/err" || { cat "$TMP/err"; fail "podman run -d failed"; }
i=0
until curl -sf "http://127.0.0.1:$PORT/api/v1/system" >"$TMP/system.json" 2>/dev/null; do
	i=$((i + 1))
	if [ "$i" -ge 150 ]; then
		podman logs "$NAME" 2>&1 | tail -20
		fail "the container's stackd did not answer /api/v1/system in 15 s"
	fi
	sleep 0.1
done
jq -e '.model == "software"' "$TMP/system.json" >/dev/null ||
	{ cat "$TMP/system.json"; fail "/api/v1/system does not name the software model"; }
i=0
until curl -sf "http://127.0.0.1:$PORT/metrics" | grep -q '^stackd_intervals_total [1-9]'; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || { podman logs "$NAME" 2>&1 | tail -20; fail "no interval in /metrics in 10 s"; }
	sleep 0.1
done
note "the container answered /api/v1/system: $(jq -c '{version, model}' "$TMP/system.json")"
podman stop -t 10 "$NAME" >/dev/null || fail "podman stop"
rc=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$rc" = 0 ] || { podman logs "$NAME" 2>&1 | tail -20; fail "stackd in the container exited $rc on SIGTERM"; }
exit 0
