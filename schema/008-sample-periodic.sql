-- 008-sample-periodic.sql - each sample row's own periodic share.
--
-- interval.periodic_ns (006) says how much of the whole host's CPU time was
-- measured periodically; a process pinned to the periodic CPU would read
-- the host's small share while all of its own figures are statistical.
-- Of the row's task_clock_ns, the part clock samples charged (periodic
-- mode, statistical), ns; the rest was charged at switches (exact).
ALTER TABLE sample ADD COLUMN periodic_ns INTEGER NOT NULL DEFAULT 0;
