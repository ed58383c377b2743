-- 005-split-spans.sql - spans split at the kernel's switch-in records.
--
-- Some kernels count a context switch without sampling it (seen: the idle
-- task's switch-out on a 6.18 guest kernel, every time on one CPU).  The
-- span then covers two tasks.  Where the worker records the kernel's
-- switch-in records (it starts to on a CPU once it sees such switches), the
-- span is split at them (daemon/attribute/attrib.h) and counted here, per interval
-- summed over CPUs; otherwise it stays in unattributed_spans.
ALTER TABLE interval ADD COLUMN split_spans INTEGER NOT NULL DEFAULT 0;
