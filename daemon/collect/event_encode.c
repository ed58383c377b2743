/*
 * event_encode.c - libpfm4 and sysfs event names -> perf_event_attr.
 */
#include <linux/perf_event.h>  /* before libpfm4's copy, which then defers to it */
#include <perfmon/pfmlib_perf_event.h>

#include "daemon/collect/event_encode.h"
#include "daemon/collect/sysfs_event.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int pfm_ready;

int event_encode_init(char *err, size_t errlen)
{
	int ret;

	if (pfm_ready)
		return 0;
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 initialisation failed: %s", pfm_strerror(ret));
		return -EIO;
	}
	pfm_ready = 1;
	return 0;
}

bool event_encode_parse_raw(const char *name, uint64_t *config)
{
	uint64_t v = 0;
	size_t i, n = strlen(name);

	if (n < 2 || n > 17 || name[0] != 'r')
		return false;
	for (i = 1; i < n; i++) {
		int c = name[i];

		if (!isxdigit(c))
			return false;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	*config = v;
	return true;
}

int event_encode(const char *name, struct perf_event_attr *attr, char *err, size_t errlen)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr tmp;
	uint64_t raw;
	int ret;

	if (sysfs_event_is_spec(name))
		return sysfs_event_resolve(SYSFS_EVENT_ROOT, name, attr, err, errlen);
	if (event_encode_parse_raw(name, &raw)) {
		attr->type = PERF_TYPE_RAW;
		attr->config = raw;
		attr->config1 = attr->config2 = 0;
		/* As libpfm4 encodes PFM_PLM0 | PFM_PLM3: user and kernel, not hv. */
		attr->exclude_user = attr->exclude_kernel = 0;
		attr->exclude_hv = 1;
		return 0;
	}

	ret = event_encode_init(err, errlen);
	if (ret < 0)
		return ret;
	memset(&tmp, 0, sizeof(tmp));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &tmp;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "event '%s': %s", name, pfm_strerror(ret));
		return ret == PFM_ERR_NOTFOUND ? -ENOENT : -EINVAL;
	}
	attr->type = tmp.type;
	attr->config = tmp.config;
	attr->config1 = tmp.config1;
	attr->config2 = tmp.config2;
	attr->exclude_user = tmp.exclude_user;
	attr->exclude_kernel = tmp.exclude_kernel;
	attr->exclude_hv = tmp.exclude_hv;
	return 0;
}

const char *event_encode_host_pmu(void)
{
	char err[128];
	int i;

	if (event_encode_init(err, sizeof(err)) < 0)
		return NULL;
	pfm_for_all_pmus(i) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &info) != PFM_SUCCESS)
			continue;
		if (info.is_present && info.type == PFM_PMU_TYPE_CORE)
			return info.name;
	}
	return NULL;
}
