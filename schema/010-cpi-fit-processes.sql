-- 010-cpi-fit-processes.sql - what stands behind a regression CPI stack fit.
--
-- Fits of method 2 (lib/model/cpi_fit.h) give each process its own base
-- CPI and take the penalties from the variation within processes, holding
-- whole processes out to check them.  processes: the distinct processes of
-- two or more process-intervals the penalties come from; e0 .. e6: each
-- weight's standard error (e0, the base, NULL), in the units of w0 .. w6.
-- A fit the data cannot separate is a row with error set ("cannot separate
-- the penalties: ...") and no weights.
ALTER TABLE cpi_fit ADD COLUMN processes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cpi_fit ADD COLUMN held_processes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cpi_fit ADD COLUMN e0 REAL;
ALTER TABLE cpi_fit ADD COLUMN e1 REAL;
ALTER TABLE cpi_fit ADD COLUMN e2 REAL;
ALTER TABLE cpi_fit ADD COLUMN e3 REAL;
ALTER TABLE cpi_fit ADD COLUMN e4 REAL;
ALTER TABLE cpi_fit ADD COLUMN e5 REAL;
ALTER TABLE cpi_fit ADD COLUMN e6 REAL;
