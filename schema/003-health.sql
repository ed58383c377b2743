-- 003-health.sql - collector health counts that used to be lost before the
-- store: group reads that went backwards, samples whose event id matches no
-- group of stackd's, samples carrying another reader's id (attributed all
-- the same), ring records that could not be parsed.
--
-- The health counts are listed once, in lib/health_fields.h; each new one
-- is a column of interval added by a step like this (summed, like the
-- others, into rollups and windows).
ALTER TABLE interval ADD COLUMN backwards_reads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE interval ADD COLUMN unknown_id_samples INTEGER NOT NULL DEFAULT 0;
ALTER TABLE interval ADD COLUMN foreign_id_samples INTEGER NOT NULL DEFAULT 0;
ALTER TABLE interval ADD COLUMN bad_samples INTEGER NOT NULL DEFAULT 0;
