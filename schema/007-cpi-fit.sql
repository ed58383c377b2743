-- 007-cpi-fit.sql - the host's regression CPI stack fits (lib/model/cpi_fit.h).
--
-- The generic models (AMD Zen 2/3, Arm Neoverse, any PMU without Top-Down)
-- have a CPI stack only from penalties fitted over many intervals:
-- CPI = w0 + sum wk * (events k per instruction), weights >= 0
-- ("Obtaining CPI Stack for Programs using Hardware Performance Counters and
-- Linear Regression", Choudhary and Singh, equation 2; docs/references.md
-- [Choudhary & Singh]).  stackd fits them per model over the last hour of
-- raw intervals, every process-interval a row weighted by its cycles, and
-- keeps each attempt here; readers apply the newest fit of the data's model
-- to each process's own rates.
--
-- A row with error set is an attempt that gave no fit (too few intervals,
-- a regressor never counted...): error says why, in words a reader shows.
-- w1 .. w6 follow the columns named in regressors; a NULL weight is a
-- regressor the fit dropped, its reason in dropped.
CREATE TABLE cpi_fit (
  id              INTEGER PRIMARY KEY,
  model           TEXT NOT NULL,
  formula_version INTEGER NOT NULL,           -- the model's (counter_group's)
  fit_version     INTEGER NOT NULL,           -- the method's (CPI_FIT_VERSION)
  created_ns      INTEGER NOT NULL,           -- CLOCK_REALTIME of the fit
  window_start_ns INTEGER NOT NULL,           -- the intervals it read end in
  window_end_ns   INTEGER NOT NULL,           --   (window_start_ns, window_end_ns]
  rows            INTEGER NOT NULL,           -- process-intervals usable
  train_rows      INTEGER NOT NULL,           -- three of four: fitted on
  held_rows       INTEGER NOT NULL,           -- the fourth: held out
  r2              REAL,                       -- cycle-weighted, training rows
  held_error      REAL,                       -- |error| / CPI on the held-out rows
  condition       REAL,                       -- scaled design, kept columns
  regressors      TEXT NOT NULL,              -- event columns of w1.., comma separated
  w0 REAL, w1 REAL, w2 REAL, w3 REAL, w4 REAL, w5 REAL, w6 REAL,
  dropped         TEXT NOT NULL DEFAULT '',   -- "column: reason" lines
  error           TEXT,                       -- why there is no fit; NULL when fitted
  cost_ns         INTEGER NOT NULL DEFAULT 0  -- CPU time the fit took
);
CREATE INDEX cpi_fit_by_model ON cpi_fit (model, created_ns);
