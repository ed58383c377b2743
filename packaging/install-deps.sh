#!/bin/sh
# install-deps.sh [run|test] - install the Debian packages stackd needs, if
# any are missing: `run` what building and running it takes (`make run`),
# `test` (the default: .ci/run) that and the test toolchain (`make test`,
# `make bench`).  Safe to run again (installs nothing when all is there).
set -eu

want=${1:-test}
case $want in
run | test) ;;
*) echo "usage: install-deps.sh [run|test]" >&2; exit 2 ;;
esac

# build and run: compiler, make, pkg-config and the product's five
# libraries (their -dev packages pull in the shared libraries)
BUILD_PKGS="gcc make pkg-config libpfm4-dev libsqlite3-dev libmicrohttpd-dev libsystemd-dev libjansson-dev"
# tests: sqlite3 (integrity checks), jq (JSON), linux-perf (reference counts
# and the benchmark), cppcheck (static analysis), util-linux (setpriv)
TEST_PKGS="sqlite3 jq linux-perf cppcheck util-linux procps"
# HTTP tests: curl, ss (iproute2), a real Prometheus (promtool too),
# headless Chromium for the dashboard, clang for the libFuzzer harness,
# wrk for `make bench`
TEST_PKGS="$TEST_PKGS curl iproute2 prometheus chromium clang wrk"
# CLI tests: tmux (the live top view in a real terminal), groff (man page
# lint), bash-completion (the completion script under bash's own helpers)
TEST_PKGS="$TEST_PKGS tmux groff bash-completion"
# formula tests: python3 runs the perf oracle (tests/oracle: perf's metric
# formulas evaluated against stackctl analyze)
TEST_PKGS="$TEST_PKGS python3"
# package tests: build the .deb, lint it (make deb, make package-test)
TEST_PKGS="$TEST_PKGS debhelper dpkg-dev fakeroot lintian git rpm"
# Kubernetes packaging tests: the image built and run with podman (runc:
# crun refuses a cgroup v1+v2 hybrid), the manifests checked against the
# Kubernetes client's models (packaging/kubernetes)
TEST_PKGS="$TEST_PKGS podman runc python3-kubernetes python3-yaml"

[ "$want" = test ] || TEST_PKGS=""
missing=""
for p in $BUILD_PKGS $TEST_PKGS; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	"install ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

# npm (for playwright-core): Debian's package unless a Node.js with npm is
# already there (e.g. from NodeSource)
[ "$want" = run ] || command -v npm >/dev/null 2>&1 || missing="$missing npm"

if [ -z "$missing" ]; then
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps.sh: missing packages:$missing (no apt-get here: install them by hand)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing packages:$missing; run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "install-deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
