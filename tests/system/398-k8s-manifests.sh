#!/bin/sh
# lane: no-daemon (starts no stackd: runs beside the unit tests, tests/system/run)
# The Kubernetes manifests (packaging/kubernetes) validate offline: every
# built-in kind against the Kubernetes Python client's models (no unknown
# or misspelt field, declared types, required fields), the ServiceMonitor
# against its CRD's fields, the scrape job with promtool; the validator
# itself must catch a misspelt field, a wrong type and a missing required
# field.  And the DaemonSet keeps to what its comments promise: host pids
# but not the host network, CAP_PERFMON and nothing else, no CPU limit,
# /run/stackd shared with the host (the one-per-host guard), its image
# the version build-image.sh tags.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
$PY -c 'import kubernetes, yaml' 2>/dev/null || skip "no python3-kubernetes / python3-yaml (apt-get install python3-kubernetes)"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
K=$ROOT/packaging/kubernetes

$PY "$K/validate.py" "$K"/*.yaml >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the manifests do not validate"; }
note "$(tail -1 "$TMP/out")"

# the validator fails where it should
sed 's/readOnlyRootFilesystem/readOnlyRootFileSystem/; s/hostPID: true/hostPID: "yes"/; s/^        - name: stackd$/        - image: x/' \
	"$K/daemonset.yaml" >"$TMP/bad.yaml"
$PY "$K/validate.py" "$TMP/bad.yaml" >"$TMP/bad.out" 2>&1 && fail "a broken DaemonSet validated"
grep -q 'readOnlyRootFileSystem: not a field of V1SecurityContext' "$TMP/bad.out" &&
	grep -q 'hostPID: expected bool' "$TMP/bad.out" ||
	{ cat "$TMP/bad.out"; fail "the validator missed a misspelt field or a wrong type"; }
sed 's/^        - name: stackd$/        - imagePullPolicy: Always/' "$K/daemonset.yaml" >"$TMP/noname.yaml"
$PY "$K/validate.py" "$TMP/noname.yaml" >"$TMP/noname.out" 2>&1 && fail "a container without a name validated"
grep -q "name.*must not be .None" "$TMP/noname.out" || { cat "$TMP/noname.out"; fail "the validator missed a required field"; }
sed 's/      honorLabels: true/      honourLabels: true/' "$K/servicemonitor.yaml" >"$TMP/sm.yaml"
$PY "$K/validate.py" "$TMP/sm.yaml" >/dev/null 2>&1 && fail "a misspelt ServiceMonitor field validated"

if command -v promtool >/dev/null; then
	cp "$K/prometheus-scrape.yml" "$TMP/prometheus.yml"
	if promtool check config "$TMP/prometheus.yml" >"$TMP/promtool.out" 2>&1; then
		note "promtool: the scrape job checks out"
	elif grep -q 'field kubernetes_sd_configs not found' "$TMP/promtool.out"; then
		# Debian's prometheus is built without Kubernetes discovery
		skip_check "this promtool knows no kubernetes_sd_configs: the scrape job is not checked"
	else
		cat "$TMP/promtool.out"
		fail "promtool check config: the scrape job"
	fi
else
	skip_check "no promtool: the scrape job is not checked"
fi

# what the DaemonSet's comments promise
$PY - "$K/daemonset.yaml" "$ROOT/lib/version.h" <<'PYEOF' || fail "the DaemonSet breaks a promise (above)"
import re, sys, yaml
ds = yaml.safe_load(open(sys.argv[1]))
version = re.search(r'#define STACKD_VERSION "([^"]+)"', open(sys.argv[2]).read()).group(1)
pod = ds["spec"]["template"]["spec"]
c = pod["containers"][0]
sc = c["securityContext"]
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
vols = {v["name"]: v for v in pod["volumes"]}
checks = [
    (pod.get("hostPID") is True, "hostPID"),
    (not pod.get("hostNetwork"), "no hostNetwork"),
    (sc["capabilities"] == {"drop": ["ALL"], "add": ["PERFMON"]}, "CAP_PERFMON only"),
    (sc.get("privileged") is False and sc.get("allowPrivilegeEscalation") is False, "unprivileged"),
    (sc.get("readOnlyRootFilesystem") is True, "read-only root"),
    ("cpu" not in c["resources"].get("limits", {}), "no CPU limit (no throttled workers)"),
    ("memory" in c["resources"].get("limits", {}), "a memory limit"),
    (mounts["/sys"].get("readOnly") is True, "/sys read-only"),
    (mounts["/var/log/pods"].get("readOnly") is True, "/var/log/pods read-only"),
    (vols[mounts["/run/stackd"]["name"]]["hostPath"]["path"] == "/run/stackd", "/run/stackd from the host"),
    (c["image"] == "localhost/stackd:" + version, "image tag " + version),
]
bad = [what for ok, what in checks if not ok]
for what in bad:
    print("not kept:", what)
sys.exit(1 if bad else 0)
PYEOF
exit 0
