#!/bin/sh
# build-image.sh [-o ARCHIVE] BUILD_DIR [IMAGE] - an OCI image of stackd
# and stackctl assembled from our own build, pulling no base image: a root
# filesystem of the two binaries, the shared libraries ldd names for them
# (taken from this host: build on the distribution the image is for) and
# the few files stackd reads, imported with `podman import`.
#
#   BUILD_DIR  holds stackd and stackctl (make: build/)
#   IMAGE      the name to tag, default localhost/stackd:<stackd --version>
#   -o FILE    also write the image as an OCI archive (podman save), to
#              load elsewhere: podman load -i FILE, or ctr images import
#
# The image runs stackd as root by default: in the DaemonSet it keeps only
# the capabilities the pod grants (daemonset.yaml says which and why).
set -eu
archive=""
if [ "${1:-}" = "-o" ]; then
	archive=$2
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [-o ARCHIVE] BUILD_DIR [IMAGE]" >&2; exit 2; }
build=$1
for b in stackd stackctl; do
	[ -x "$build/$b" ] || { echo "$0: no $build/$b (make $build/$b)" >&2; exit 1; }
done
command -v podman >/dev/null || { echo "$0: podman is not installed" >&2; exit 1; }
version=$("$build/stackd" --version | sed -n 's/^stackd \([^ ]*\).*/\1/p')
image=${2:-localhost/stackd:$version}

root=$(mktemp -d /tmp/stackd-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT INT TERM
mkdir -p "$root/usr/bin" "$root/etc/stackd" "$root/var/lib/stackd" "$root/run/stackd" \
	"$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/var/log/pods"
chmod 1777 "$root/tmp"
install -m 755 "$build/stackd" "$build/stackctl" "$root/usr/bin/"

# each library at the path the loader looks for it, and the loader itself
# (ldd prints "name => /path (addr)" and "/lib64/ld-linux-x86-64.so.2 (addr)")
for lib in $(ldd "$build/stackd" "$build/stackctl" | awk '
	$2 == "=>" && $3 ~ /^\// { print $3 }
	$1 ~ /^\// && $1 !~ /:$/ { print $1 }' | sort -u); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# a merged-/usr host names the loader /lib64/...; the binaries ask for it there
[ -e /lib64 ] && [ ! -e "$root/lib64" ] && [ -L /lib64 ] && ln -s "$(readlink /lib64)" "$root/lib64"

# the users stackd may run as (user = stackd drops root but CAP_PERFMON)
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nstackd:x:998:998:stackd:/var/lib/stackd:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nstackd:x:998:\nnogroup:x:65534:\n' >"$root/etc/group"
# the container's defaults; a ConfigMap mounted over it changes them
cat >"$root/etc/stackd/stackd.conf" <<'EOF'
# stackd in a container (packaging/kubernetes): the database on the
# node's disk (a hostPath at /var/lib/stackd), the API on every address
# of the pod for Prometheus, full /metrics to it (the pod's network
# policy decides who may connect), root inside the pod, whose
# capabilities the DaemonSet limits to CAP_PERFMON.
database = /var/lib/stackd/stackd.db
listen = 0.0.0.0:9466
http_anonymous = all
user = root
kubelet_pods_dir = /var/log/pods
EOF

tar -C "$root" --numeric-owner -cf - . |
	podman import \
		--change 'ENTRYPOINT ["/usr/bin/stackd"]' \
		--change 'CMD ["--config", "/etc/stackd/stackd.conf"]' \
		--change 'EXPOSE 9466' \
		--change "LABEL org.opencontainers.image.title=stackd org.opencontainers.image.version=$version" \
		- "$image" >/dev/null
echo "$image"
if [ -n "$archive" ]; then
	rm -f "$archive"
	podman save --format oci-archive -o "$archive" "$image"
fi
