#!/bin/sh
# history_store.sh DB END_S - fill DB (the schema, boot and counter groups
# of a short real run of stackd, software model: groups 1 faults, 2
# migrations) with a year of history ending at END_S (Unix seconds, a whole
# hour), as stackd with its default retention (raw 1 d, minutes 7 d, hours
# and days 400 d) would have left it; for tests/bench/part_history.sh.
# history_store.sh --days DB END_S - its day rollups again (the store moved).
#
# The host: 2 CPUs, about half busy.  1,000 process slots, each running one
# process after another, every process living 1 to 45 days (slot % 45 + 1)
# and ending on an hour boundary (a new pid in the slot takes over): about
# 36,000 processes in the year, 1,000 alive at any moment, in a boot of
# their own (the year ends with a reboot into the running daemon's boot).
# Pids count from 60 (as httpload's {n} does): 60 .. 1059 the processes
# alive at the end, then the ones that exited, by slot and age.
# Busy share: slots 0, 20, 40, ... (5%) run every second for 15-25 ms of
# CPU (about 1 of the host's 2 CPU-seconds a second); the others (95%)
# wake once every 10 minutes for 1-2 ms.  The idle task (pid 0) holds the
# rest of each interval's CPU time.  So each level has, per group:
#   raw intervals (last day):   ~52 processes a second    ~8.9 M rows
#   minute rollups (7 days):    ~145 processes a minute   ~2.9 M rows
#   hour rollups (365 days):    1,000 processes an hour   ~17.5 M rows
#   day rollups (365 days):     ~1,100 processes a day    ~0.8 M rows
# A process's task clock never exceeds its interval (one thread each), the
# counts follow the time, and the finer levels roll up exactly: the last
# day's minutes are the sums of its seconds, the last week's hours of its
# minutes (as daemon/store/store_rollup.c sums them); the older rows are
# made directly with the same per-second rates.  No ANALYZE: stackd never
# runs it, so its readers plan without statistics.
set -eu

# day_rollups DB END_S: the day rollups again, from the hours: each UTC day
# the hours complete (the first one partly), summed as store_rollup.c sums
# them; also after part_history.sh moved the store by hours that are not
# whole days
day_rollups() {
	dayend=$(( $2 - $2 % 86400 ))
	sqlite3 "$1" >/dev/null <<SQL
PRAGMA synchronous = OFF;
PRAGMA cache_size = -400000;
BEGIN;
DELETE FROM sample WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s = 86400);
DELETE FROM interval_group
  WHERE interval_id IN (SELECT id FROM interval WHERE rollup_s = 86400);
DELETE FROM interval WHERE rollup_s = 86400;
DELETE FROM rollup_state WHERE rollup_s = 86400;
INSERT INTO interval (id, boot, start_ns, end_ns, ncpus, model, samples, rollup_s)
  SELECT 20000000 + (end_ns - 1) / 86400000000000, 2, min(start_ns),
         ((end_ns - 1) / 86400000000000 + 1) * 86400000000000, 2, 'software', sum(samples),
         86400
  FROM interval WHERE rollup_s = 3600 AND end_ns <= $dayend * 1000000000
  GROUP BY (end_ns - 1) / 86400000000000;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches,
                    v0, periodic_ns)
  SELECT 20000000 + (i.end_ns - 1) / 86400000000000, s.process_id, s.group_id,
         sum(s.task_clock_ns), sum(s.context_switches), sum(s.v0), sum(s.periodic_ns)
  FROM interval AS i CROSS JOIN sample AS s ON s.interval_id = i.id
  WHERE i.rollup_s = 3600 AND i.end_ns <= $dayend * 1000000000
  GROUP BY 1, 2, 3;
INSERT INTO interval_group (interval_id, group_id, enabled_ns)
  SELECT 20000000 + (i.end_ns - 1) / 86400000000000, g.group_id, sum(g.enabled_ns)
  FROM interval AS i CROSS JOIN interval_group AS g ON g.interval_id = i.id
  WHERE i.rollup_s = 3600 AND i.end_ns <= $dayend * 1000000000
  GROUP BY 1, 2;
INSERT INTO rollup_state (rollup_s, done_ns) VALUES (86400, $dayend * 1000000000);
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
}

if [ "$1" = --days ]; then
	day_rollups "$2" "$3"
	exit 0
fi
DB=$1
END=$2
sqlite3 "$DB" >/dev/null <<SQL
PRAGMA synchronous = OFF;
PRAGMA cache_size = -400000;
BEGIN;
DELETE FROM sample;
DELETE FROM interval_group;
DELETE FROM interval;
DELETE FROM rollup_state;
DROP INDEX IF EXISTS sample_by_process;
INSERT INTO boot (id, boot_id, booted_ns) VALUES
  (2, 'bench-history-year', ($END - 366 * 86400) * 1000000000);
CREATE TEMP TABLE slot AS
  WITH RECURSIVE n(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM n WHERE s < 999)
  SELECT s, (s % 45 + 1) * 24 AS life_h, ((s * 7919) % ((s % 45 + 1) * 24)) AS off_h,
         s % 20 = 0 AS busy FROM n;
-- hour index h counts from T0 = END - 365 days; slot s's process at hour h
-- is generation (h + off_h) / life_h, process id 1000000 + s * 1000 + g
CREATE TEMP TABLE gen AS
  WITH RECURSIVE g(s, g) AS (SELECT s, 0 FROM slot
    UNION ALL SELECT g.s, g.g + 1 FROM g JOIN slot USING (s)
    WHERE (g.g + 1) * life_h - off_h < 8760)
  SELECT s, g FROM g;
INSERT INTO process (id, boot, pid, start_ns, comm, cmdline, uid, unit, exit_ns)
  SELECT 1000000 + s * 1000 + g, 2,
         59 + row_number() OVER (ORDER BY (g + 1) * life_h - off_h >= 8760 DESC, s, g),
         (max(0, g * life_h - off_h) + 24) * 3600 * 1000000000,
         CASE WHEN busy THEN 'busy' || (s % 7) ELSE 'svc' || (s % 50) END,
         '/usr/bin/svc --slot ' || s || ' --gen ' || g, 1000 + s % 10,
         'svc' || (s % 20) || '.service',
         CASE WHEN (g + 1) * life_h - off_h < 8760
              THEN ($END - 365 * 86400 + ((g + 1) * life_h - off_h) * 3600) * 1000000000 END
  FROM gen JOIN slot USING (s);
INSERT INTO process (id, boot, pid, start_ns, comm, cmdline, uid, unit)
  VALUES (999999, 2, 0, 0, 'swapper/0', NULL, 0, NULL);

-- raw intervals: the last day, 1 s each, ids 200000 + k
WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 86399)
INSERT INTO interval (id, boot, start_ns, end_ns, ncpus, model, samples, rollup_s)
  SELECT 200000 + k, 2, ($END - 86400 + k) * 1000000000, ($END - 86399 + k) * 1000000000,
         2, 'software', 60, 0 FROM t;
-- a raw row: second k of the day (hour 8736 + k / 3600 of the year)
CREATE TEMP TABLE raw AS
  WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 86399)
  SELECT k, s, 1000000 + s * 1000 + (8736 + k / 3600 + off_h) / life_h AS pid_id, busy
  FROM t JOIN slot ON busy OR (k % 60 = s % 60 AND (k / 60 + s) % 10 = 0);
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 200000 + k, pid_id, g.id,
         CASE WHEN busy THEN 15000000 + (k * 7919 + s * 104729) % 10000000
              ELSE 1000000 + (k * 7919 + s * 104729) % 1000000 END,
         CASE WHEN busy THEN 20 + (k + s) % 30 ELSE 1 + (k + s) % 3 END,
         CASE WHEN g.id = 1 THEN (k * 31 + s) % 50 ELSE (k + s) % 3 END
  FROM raw, counter_group AS g ORDER BY k, pid_id, g.id;
-- the idle task: the rest of the 2 CPU-seconds
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 200000 + k, 999999, g.id, 2000000000 - sum(CASE WHEN busy
           THEN 15000000 + (k * 7919 + s * 104729) % 10000000
           ELSE 1000000 + (k * 7919 + s * 104729) % 1000000 END), 0, 0
  FROM raw, counter_group AS g GROUP BY k, g.id;
INSERT INTO interval_group (interval_id, group_id, enabled_ns)
  SELECT i.id, g.id, 2000000000 FROM interval AS i, counter_group AS g WHERE i.rollup_s = 0;

-- minute rollups: the last 7 days, ids 100000 + m; the older 6 days made
-- directly (a minute's rates: 60 seconds of the busy, one wake-up of the
-- idle slots whose turn it is), the last day summed from its seconds
WITH RECURSIVE t(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM t WHERE m < 10079)
INSERT INTO interval (id, boot, start_ns, end_ns, ncpus, model, samples, rollup_s)
  SELECT 100000 + m, 2, ($END - 604800 + 60 * m) * 1000000000,
         ($END - 604740 + 60 * m) * 1000000000, 2, 'software', 3600, 60 FROM t;
WITH RECURSIVE t(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM t WHERE m < 8639)
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 100000 + m, 1000000 + s * 1000 + (8592 + m / 60 + off_h) / life_h, g.id,
         CASE WHEN busy THEN 60 * (15000000 + (m * 7919 + s * 104729) % 10000000)
              ELSE 1000000 + (m * 7919 + s * 104729) % 1000000 END,
         CASE WHEN busy THEN 60 * (20 + (m + s) % 30) ELSE 1 + (m + s) % 3 END,
         CASE WHEN g.id = 1 THEN (m * 31 + s) % 50 * (CASE WHEN busy THEN 60 ELSE 1 END)
              ELSE (m + s) % 3 END
  FROM t JOIN slot ON busy OR (m + s) % 10 = 0, counter_group AS g
  ORDER BY 1, 2, 3;
WITH RECURSIVE t(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM t WHERE m < 8639)
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 100000 + m, 999999, g.id, 120000000000 - sum(x.tc), 0, 0
  FROM (SELECT m, s, CASE WHEN busy THEN 60 * (15000000 + (m * 7919 + s * 104729) % 10000000)
              ELSE 1000000 + (m * 7919 + s * 104729) % 1000000 END AS tc
        FROM t JOIN slot ON busy OR (m + s) % 10 = 0) AS x, counter_group AS g
  GROUP BY m, g.id;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches,
                    v0, periodic_ns)
  SELECT 100000 + 8640 + (s.interval_id - 200000) / 60, s.process_id, s.group_id,
         sum(s.task_clock_ns), sum(s.context_switches), sum(s.v0), sum(s.periodic_ns)
  FROM sample AS s WHERE s.interval_id >= 200000 GROUP BY 1, 2, 3;
INSERT INTO interval_group (interval_id, group_id, enabled_ns)
  SELECT i.id, g.id, 120000000000 FROM interval AS i, counter_group AS g WHERE i.rollup_s = 60;

-- hour rollups: the year, ids 1000 + h; the older 358 days made directly
-- (every live process ran: the busy all hour, the idle six times), the
-- last week summed from its minutes
WITH RECURSIVE t(h) AS (SELECT 0 UNION ALL SELECT h + 1 FROM t WHERE h < 8759)
INSERT INTO interval (id, boot, start_ns, end_ns, ncpus, model, samples, rollup_s)
  SELECT 1000 + h, 2, ($END - 31536000 + 3600 * h) * 1000000000,
         ($END - 31532400 + 3600 * h) * 1000000000, 2, 'software', 216000, 3600 FROM t;
WITH RECURSIVE t(h) AS (SELECT 0 UNION ALL SELECT h + 1 FROM t WHERE h < 8591)
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 1000 + h, 1000000 + s * 1000 + (h + off_h) / life_h, g.id,
         CASE WHEN busy THEN 3600 * (15000000 + (h * 7919 + s * 104729) % 10000000)
              ELSE 6 * (1000000 + (h * 7919 + s * 104729) % 1000000) END,
         CASE WHEN busy THEN 3600 * (20 + (h + s) % 30) ELSE 6 * (1 + (h + s) % 3) END,
         CASE WHEN g.id = 1 THEN (h * 31 + s) % 50 * (CASE WHEN busy THEN 3600 ELSE 6 END)
              ELSE (h + s) % 3 END
  FROM t, slot, counter_group AS g ORDER BY 1, 2, 3;
WITH RECURSIVE t(h) AS (SELECT 0 UNION ALL SELECT h + 1 FROM t WHERE h < 8591)
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches, v0)
  SELECT 1000 + h, 999999, g.id, 7200000000000 - sum(CASE WHEN busy
           THEN 3600 * (15000000 + (h * 7919 + s * 104729) % 10000000)
           ELSE 6 * (1000000 + (h * 7919 + s * 104729) % 1000000) END), 0, 0
  FROM t, slot, counter_group AS g GROUP BY h, g.id;
INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns, context_switches,
                    v0, periodic_ns)
  SELECT 1000 + 8592 + (s.interval_id - 100000) / 60, s.process_id, s.group_id,
         sum(s.task_clock_ns), sum(s.context_switches), sum(s.v0), sum(s.periodic_ns)
  FROM sample AS s WHERE s.interval_id >= 100000 AND s.interval_id < 200000
  GROUP BY 1, 2, 3;
INSERT INTO interval_group (interval_id, group_id, enabled_ns)
  SELECT i.id, g.id, 7200000000000 FROM interval AS i, counter_group AS g
  WHERE i.rollup_s = 3600;
INSERT INTO rollup_state (rollup_s, done_ns) VALUES
  (60, $END * 1000000000), (3600, $END * 1000000000);
CREATE INDEX sample_by_process ON sample (process_id, interval_id);
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
day_rollups "$DB" "$END"
