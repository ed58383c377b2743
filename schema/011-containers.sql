-- 011-containers.sql - the container and Kubernetes pod of each process.
--
-- From the process's cgroup path (daemon/attribute/container.h): the
-- container runtime's id (64 hex digits) and name ("containerd", "cri-o",
-- "docker", "podman"; NULL where the path does not say: the kubelet's
-- cgroupfs driver), and the pod's uid; the names from the kubelet's log
-- directory (/var/log/pods/<namespace>_<pod>_<uid>/<container>/), the
-- labels kube-state-metrics and cAdvisor call namespace, pod and container.
-- All NULL outside containers; a process in a pod's cgroup but in no
-- container (CRI-O's conmon) has a pod and no container_id.
ALTER TABLE process ADD COLUMN container_id TEXT;
ALTER TABLE process ADD COLUMN container_runtime TEXT;
ALTER TABLE process ADD COLUMN pod_uid TEXT;
ALTER TABLE process ADD COLUMN pod_namespace TEXT;
ALTER TABLE process ADD COLUMN pod_name TEXT;
ALTER TABLE process ADD COLUMN container_name TEXT;
