/* Containers and pods from /proc/PID/cgroup, and their names from the
 * kubelet's log layout.  The paths are written as the kubelet (both cgroup
 * drivers; pkg/kubelet/cm: a systemd slice escapes the uid's '-' as '_'),
 * containerd's CRI plugin, CRI-O, dockerd and podman write them; the log
 * directories as a kubeadm node shows them (kube-system's static
 * kube-apiserver pod, whose uid is a 32-hex hash, and a kube-proxy pod). */
#include "daemon/attribute/container.h"
#include "daemon/attribute/procinfo.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ID "c269a18400e27b14085c57f8e36f5b4d5471c140eb27e8b0f632c056547555de"
#define ID2 "3959d7abfbd0221e5043fccbcb8040e9a1a4e6518dad483b7a33a131885e0283"
#define UID "81e09ae0-12ec-4ec5-94b8-51cda7906370"
#define UID_ "81e09ae0_12ec_4ec5_94b8_51cda7906370"
#define STATIC_UID "33d556edd3ae8ef21980288cef77ae8b"

static const struct {
	const char *cgroup, *runtime, *id, *pod_uid;   /* NULL: -ENOENT */
} cases[] = {
	/* systemd driver, each QoS class; containerd, CRI-O, cri-dockerd */
	{ "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID ".scope\n", "containerd", ID, UID },
	{ "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
	  ".slice/crio-" ID ".scope\n", "cri-o", ID, UID },
	{ "0::/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" ID ".scope\n", "docker", ID,
	  UID },
	/* CRI-O's monitor: in the pod, in no container */
	{ "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/crio-conmon-" ID ".scope\n", "", "", UID },
	/* cgroupfs driver: the bare id, the runtime unnamed; a static pod */
	{ "0::/kubepods/burstable/pod" UID "/" ID "\n", "", ID, UID },
	{ "0::/kubepods/pod" STATIC_UID "/" ID "\n", "", ID, STATIC_UID },
	{ "0::/kubepods/besteffort/pod" UID "/crio-" ID "\n", "cri-o", ID, UID },
	/* cgroup v1 (hybrid): the name=systemd line */
	{ "12:memory:/kubepods/burstable/pod" UID "/" ID "\n1:name=systemd:/kubepods/"
	  "burstable/pod" UID "/" ID "\n0::/\n", "", ID, UID },
	/* read from inside a pod's own cgroup namespace: relative to it */
	{ "0::/../../kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
	  ".slice/cri-containerd-" ID ".scope\n", "containerd", ID, UID },
	/* Docker and podman outside Kubernetes */
	{ "0::/system.slice/docker-" ID ".scope\n", "docker", ID, "" },
	{ "0::/docker/" ID "\n", "docker", ID, "" },
	{ "0::/machine.slice/libpod-" ID ".scope/container\n", "podman", ID, "" },
	{ "0::/machine.slice/libpod-conmon-" ID ".scope\n", NULL, NULL, NULL },
	/* a container in a container: the outer one */
	{ "0::/system.slice/docker-" ID ".scope/docker/" ID2 "\n", "docker", ID, "" },
	/* not containers: a unit, a short id, a bare id in no pod */
	{ "0::/system.slice/docker-0123abcd.scope\n", NULL, NULL, NULL },
	{ "0::/system.slice/nginx.service\n", NULL, NULL, NULL },
	{ "0::/user.slice/" ID "\n", NULL, NULL, NULL },
	{ "0::/\n", NULL, NULL, NULL },
};

static void parse_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct container c;
		int r = procinfo_container_from_cgroup(cases[i].cgroup, &c);

		if (cases[i].id == NULL) {
			if (r != -ENOENT)
				fprintf(stderr, "case %zu: %s", i, cases[i].cgroup);
			CHECK(r == -ENOENT);
			continue;
		}
		if (r != 0)
			fprintf(stderr, "case %zu: %s", i, cases[i].cgroup);
		CHECK(r == 0);
		CHECK_STR(c.runtime, cases[i].runtime);
		CHECK_STR(c.id, cases[i].id);
		CHECK_STR(c.pod_uid, cases[i].pod_uid);
	}
}

static void mk(const char *root, const char *rel)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	CHECK(system(cmd) == 0);
}

static void names(void)
{
	char root[] = "/tmp/stackd-test-pods.XXXXXX", pods[256], cmd[1024], buf[16];
	struct podnames *pn;
	struct container c;

	CHECK(mkdtemp(root) != NULL);
	snprintf(pods, sizeof(pods), "%s/pods", root);
	mk(root, "pods/kube-system_kube-apiserver-controlplane_" STATIC_UID "/kube-apiserver");
	mk(root, "pods/kube-system_kube-proxy-6xsx9_" UID "/kube-proxy");
	mk(root, "pods/web_shop-0_" "0b9d3c4c-1111-2222-3333-444455556666" "/nginx");
	mk(root, "pods/web_shop-0_" "0b9d3c4c-1111-2222-3333-444455556666" "/sidecar");
	mk(root, "containers");
	snprintf(cmd, sizeof(cmd), "ln -s ../pods/web_shop-0_x/sidecar/0.log "
		 "'%s/containers/shop-0_web_sidecar-%s.log'", root, ID2);
	CHECK(system(cmd) == 0);
	CHECK(podnames_new(pods, &pn) == 0);

	/* one container in the pod: its name without a symlink */
	CHECK(procinfo_container_from_cgroup("0::/kubepods/pod" STATIC_UID "/" ID "\n", &c) == 0);
	podnames_resolve(pn, &c);
	CHECK_STR(c.namespace_, "kube-system");
	CHECK_STR(c.pod, "kube-apiserver-controlplane");
	CHECK_STR(c.name, "kube-apiserver");

	/* two: the symlink <pod>_<namespace>_<container>-<id>.log says which */
	CHECK(procinfo_container_from_cgroup("0::/kubepods.slice/kubepods-pod0b9d3c4c_1111_2222_"
					     "3333_444455556666.slice/cri-containerd-" ID2
					     ".scope\n", &c) == 0);
	podnames_resolve(pn, &c);
	CHECK_STR(c.namespace_, "web");
	CHECK_STR(c.pod, "shop-0");
	CHECK_STR(c.name, "sidecar");
	CHECK_STR(container_label(&c, buf), "sidecar");

	/* two, no symlink: the pod's names, the container's unknown */
	CHECK(procinfo_container_from_cgroup("0::/kubepods.slice/kubepods-pod0b9d3c4c_1111_2222_"
					     "3333_444455556666.slice/cri-containerd-" ID
					     ".scope\n", &c) == 0);
	podnames_resolve(pn, &c);
	CHECK_STR(c.pod, "shop-0");
	CHECK_STR(c.name, "");
	CHECK_STR(container_label(&c, buf), "c269a18400e2");   /* as `docker ps` shortens it */

	/* a pod not on disk: no names, and no harm */
	CHECK(procinfo_container_from_cgroup("0::/kubepods/podffffffff-0000-0000-0000-"
					     "000000000000/" ID "\n", &c) == 0);
	podnames_resolve(pn, &c);
	CHECK_STR(c.namespace_, "");
	podnames_free(pn);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	parse_cases();
	names();
	return 0;
}
