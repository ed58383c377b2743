/*
 * container.h - which container and Kubernetes pod a process runs in, from
 * its cgroup path alone, and the pod's and container's names from what the
 * node already has on disk: no container runtime socket, no API server, no
 * credentials.
 *
 * The cgroup path gives the container id, the runtime and the pod uid, for
 * both of the kubelet's cgroup drivers:
 *   systemd:  /kubepods.slice/kubepods-burstable.slice/
 *             kubepods-burstable-pod<uid, '-' as '_'>.slice/cri-containerd-<id>.scope
 *             (crio-<id>.scope, docker-<id>.scope); Guaranteed pods have no
 *             QoS level: kubepods-pod<uid>.slice
 *   cgroupfs: /kubepods/burstable/pod<uid>/<id>   (the runtime is not named)
 * and outside Kubernetes Docker's and podman's scopes (docker-<id>.scope,
 * libpod-<id>.scope; /docker/<id> under cgroupfs).
 *
 * The names come from the kubelet's log layout, which it keeps on every
 * node (pkg/kubelet/kuberuntime: BuildPodLogsDirectory and the legacy
 * symlinks):
 *   <pods_dir>/<namespace>_<pod>_<pod uid>/<container>/<restart>.log
 *   <pods_dir>/../containers/<pod>_<namespace>_<container>-<id>.log
 * Namespaces, pod and container names are DNS labels or subdomains, so
 * '_' never occurs in them and splits the names unambiguously.
 */
#ifndef STACKD_CONTAINER_H
#define STACKD_CONTAINER_H

#include <stddef.h>

#define CONTAINER_ID_LEN 64          /* hex digits: every runtime above uses 64 */

struct container {
	char runtime[16];                /* "containerd", "cri-o", "docker", "podman"; "" unnamed */
	char id[CONTAINER_ID_LEN + 1];   /* "" in a pod's cgroup but no container's (conmon) */
	char pod_uid[40];                /* "" outside Kubernetes */
	char namespace_[64];             /* names: "" while unknown */
	char pod[254];
	char name[64];
};

/* The container and pod of one cgroup path (as /proc/PID/cgroup writes it,
 * relative to the reader's cgroup namespace: "/../kubepods-..." also
 * parses).  The outermost container wins (a container in a container is
 * its outer one's).  Returns 0, or -ENOENT when the path names neither a
 * container nor a pod. */
int container_from_path(const char *path, size_t len, struct container *out);

/* The container's name for the label "container": its name, else the
 * first 12 digits of its id as `docker ps` shows them, else "". */
const char *container_label(const struct container *c, char buf[16]);

struct podnames;   /* a cache of the names found on disk */

/* Names from pods_dir (the kubelet's, "/var/log/pods") and its sibling
 * containers/.  Returns 0 or -ENOMEM. */
int podnames_new(const char *pods_dir, struct podnames **ret);
void podnames_free(struct podnames *pn);   /* NULL is a no-op */

/* Fill c's names where the disk has them (unchanged where not). */
void podnames_resolve(struct podnames *pn, struct container *c);

#endif
