/*
 * touch_pages MIB NAME - fault in MIB MiB of fresh anonymous memory from
 * user mode, one write per page, as command NAME: a workload whose page
 * faults happen in user mode (for count_modes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len, page = (size_t)sysconf(_SC_PAGESIZE), i;
	volatile char *p;

	if (argc != 3) {
		fprintf(stderr, "usage: touch_pages MIB NAME\n");
		return 2;
	}
	prctl(PR_SET_NAME, argv[2], 0, 0, 0);
	len = (size_t)atoi(argv[1]) << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	/* no transparent huge pages: one fault per 4 KiB page */
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (i = 0; i < len; i += page)
		p[i] = 1;
	printf("pages=%zu\n", len / page);
	return 0;
}
