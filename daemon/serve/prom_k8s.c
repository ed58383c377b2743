/*
 * prom_k8s.c - the "container" table of /metrics: its key and its labels,
 * named as kube-state-metrics and cAdvisor name theirs (namespace, pod,
 * container), so a join with kube_pod_info or container_* series needs no
 * relabelling.  The rest of the table is prom.c's, like the units'.
 */
#include "daemon/serve/prom_private.h"

#include <stdio.h>
#include <string.h>

/* '/' occurs in none of the three: namespaces and container names are DNS
 * labels, pod names DNS subdomains (Kubernetes' object names). */
#define SEP '/'

bool prom_k8s_key(const struct iv_proc *pr, char *buf, size_t len)
{
	const struct container *c = pr->container;
	char shortid[16];
	int n;

	if (c == NULL || c->id[0] == '\0')
		return false;   /* in no container (a pod's conmon: no container either) */
	n = snprintf(buf, len, "%s%c%s%c%s", c->namespace_, SEP, c->pod[0] ? c->pod : c->pod_uid,
		     SEP, container_label(c, shortid));
	return n > 0 && (size_t)n < len;
}

void prom_k8s_split(const char *key, char part[3][PROM_KEY_MAX])
{
	const char *a = strchr(key, SEP), *b = a != NULL ? strchr(a + 1, SEP) : NULL;

	if (b == NULL) {   /* "[other]": the containers past the top N */
		part[0][0] = part[1][0] = '\0';
		snprintf(part[2], PROM_KEY_MAX, "%s", key);
		return;
	}
	snprintf(part[0], PROM_KEY_MAX, "%.*s", (int)(a - key), key);
	snprintf(part[1], PROM_KEY_MAX, "%.*s", (int)(b - a - 1), a + 1);
	snprintf(part[2], PROM_KEY_MAX, "%s", b + 1);
}
