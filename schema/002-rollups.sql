-- 002-rollups.sql - per-minute and per-hour rollups.
--
-- A rollup is an interval row with rollup_s = 60 (a minute) or 3600 (an
-- hour).  Its bucket is (B, B + rollup_s] with B a multiple of rollup_s
-- (Unix time): it holds the sums of the next finer rows (raw intervals for
-- minutes, minute rollups for hours) whose end_ns falls in the bucket -
-- samples summed per (process, group), interval_group per group, health
-- counters summed (maxima for max_*).  Its start_ns and end_ns are the
-- earliest start and the latest end of those rows, so end_ns - start_ns is
-- the time it covers and a reader selects it by end time like any interval.
--
-- Every row keeps being stored until retention removes it; readers take,
-- for each moment, the finest level that still holds it (query.c, tiers).
ALTER TABLE interval ADD COLUMN rollup_s INTEGER NOT NULL DEFAULT 0;
CREATE INDEX interval_by_rollup ON interval (rollup_s, end_ns);

-- How far each level has been rolled up: every bucket ending at or before
-- done_ns has its row (or had nothing to roll).
CREATE TABLE rollup_state (
  rollup_s INTEGER PRIMARY KEY,
  done_ns  INTEGER NOT NULL
) WITHOUT ROWID;
