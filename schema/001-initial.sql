-- 001-initial.sql - the first stackd schema.
--
-- Every stored number is an additive count (raw event counts of one counter
-- group, nanoseconds), never a ratio, so intervals sum exactly into any
-- window; the model's formulas run on the sums at query time.
-- Times: *_ns columns are CLOCK_REALTIME nanoseconds, except process.start_ns
-- (nanoseconds since boot, at clock-tick resolution, as /proc/PID/stat has it).

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per boot of the host: (pid, start_ns) is unique only within a boot.
CREATE TABLE boot (
  id        INTEGER PRIMARY KEY,
  boot_id   TEXT NOT NULL UNIQUE,          -- /proc/sys/kernel/random/boot_id
  booted_ns INTEGER NOT NULL               -- CLOCK_REALTIME of the boot, approximately
);

-- A process is (boot, pid, start_ns): a reused pid is a new row.
-- pid 0 is the idle task, pid -1 the counts that could not be attributed.
CREATE TABLE process (
  id       INTEGER PRIMARY KEY,
  boot     INTEGER NOT NULL REFERENCES boot(id),
  pid      INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  comm     TEXT NOT NULL,
  cmdline  TEXT,
  uid      INTEGER,
  unit     TEXT,                             -- systemd unit from the cgroup path
  exit_ns  INTEGER,                          -- NULL while running (or not seen to exit)
  UNIQUE (boot, pid, start_ns)
);

-- A counter group as a model defined it: what sample.v0, v1, ... hold.
CREATE TABLE counter_group (
  id              INTEGER PRIMARY KEY,
  model           TEXT NOT NULL,             -- "software", "skl", ...
  formula_version INTEGER NOT NULL,
  name            TEXT NOT NULL,             -- the family, e.g. "faults"
  events          TEXT NOT NULL,             -- column names of v0, v1, ... comma separated
  event_names     TEXT NOT NULL,             -- the events as opened, same order
  UNIQUE (model, formula_version, name, events)
);

-- One flush of the daemon, with the collector's health over it.
CREATE TABLE interval (
  id                  INTEGER PRIMARY KEY,
  boot                INTEGER NOT NULL REFERENCES boot(id),
  start_ns            INTEGER NOT NULL,
  end_ns              INTEGER NOT NULL,
  ncpus               INTEGER NOT NULL,
  model               TEXT NOT NULL,
  samples             INTEGER NOT NULL DEFAULT 0,
  lost_records        INTEGER NOT NULL DEFAULT 0,
  lost_samples        INTEGER NOT NULL DEFAULT 0,
  throttles           INTEGER NOT NULL DEFAULT 0,
  unsampled_switches  INTEGER NOT NULL DEFAULT 0,
  unattributed_spans  INTEGER NOT NULL DEFAULT 0,
  orphan_exits        INTEGER NOT NULL DEFAULT 0,
  straddles           INTEGER NOT NULL DEFAULT 0,
  late_cpus           INTEGER NOT NULL DEFAULT 0,
  dropped             INTEGER NOT NULL DEFAULT 0,
  rotations           INTEGER NOT NULL DEFAULT 0,
  unschedulable       INTEGER NOT NULL DEFAULT 0,   -- group found in error state: counters taken
  max_cpu_switch_rate INTEGER NOT NULL DEFAULT 0,
  busiest_cpu         INTEGER NOT NULL DEFAULT -1
);
CREATE INDEX interval_by_end ON interval (end_ns);

-- How long each group was enabled, summed over CPUs: with interval.ncpus
-- this is each group's time coverage.
CREATE TABLE interval_group (
  interval_id INTEGER NOT NULL REFERENCES interval(id),
  group_id    INTEGER NOT NULL REFERENCES counter_group(id),
  enabled_ns  INTEGER NOT NULL,
  PRIMARY KEY (interval_id, group_id)
) WITHOUT ROWID;

-- The counts of one group for one process over one interval; only processes
-- that ran while the group was enabled have a row.  task_clock_ns is also the
-- time the group measured the process (its coverage).
CREATE TABLE sample (
  interval_id      INTEGER NOT NULL REFERENCES interval(id),
  process_id       INTEGER NOT NULL REFERENCES process(id),
  group_id         INTEGER NOT NULL REFERENCES counter_group(id),
  task_clock_ns    INTEGER NOT NULL,
  context_switches INTEGER NOT NULL,
  v0 INTEGER, v1 INTEGER, v2 INTEGER, v3 INTEGER,
  v4 INTEGER, v5 INTEGER, v6 INTEGER, v7 INTEGER,
  v8 INTEGER, v9 INTEGER, v10 INTEGER, v11 INTEGER,
  v12 INTEGER, v13 INTEGER, v14 INTEGER, v15 INTEGER,
  PRIMARY KEY (interval_id, process_id, group_id)
) WITHOUT ROWID;
CREATE INDEX sample_by_process ON sample (process_id, interval_id);
