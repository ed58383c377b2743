-- 006-periodic-mode.sql - time measured in periodic (statistical) mode.
--
-- A CPU whose switch rate times the measured per-switch sampling cost
-- exceeds max_sampling_cost leaves per-switch sampling for a clock
-- sampler that charges each delta to the task it interrupts (as perf
-- record -F does): statistically fair, not exact.  The CPU time spent so,
-- per interval summed over CPUs (ns), so every figure computed from an
-- interval can say which mode produced it and in what share.
ALTER TABLE interval ADD COLUMN periodic_ns INTEGER NOT NULL DEFAULT 0;
