-- 009-replan-gap.sql - the time a re-plan's switch counted nothing.
--
-- A SIGHUP that changes the counter groups closes the running ones and
-- opens the new ones between two intervals; for those few tens of
-- milliseconds no group counts.  Summed over CPUs, ns: the interval after
-- the switch holds it, its busy part (from /proc/stat) charged to
-- [unattributed] and its idle part to [idle], so the attributed share says
-- what the switch lost.  (The side-band events run through the switch:
-- processes started and ended in it are still recorded.)
ALTER TABLE interval ADD COLUMN replan_gap_ns INTEGER NOT NULL DEFAULT 0;
