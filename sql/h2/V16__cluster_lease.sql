-- H2 flavour of sql/postgresql/V16: the same table; only the way a row is created differs (see LeaseStore).
-- Leases of the housekeeping tasks that must run once per cluster (issue 36 item 2, decision 0018): several servers
-- share one database, each with its own non-persistent timers; one row per task says which server ran it last and
-- when, so that exactly one server runs it per period.
--
-- Decisions
--  * task is the key (a name such as omission-purge); the row is created by the first server that needs it
--    (a plain INSERT; a server that loses the race to create it goes on with the row the other created).
--  * holder is the server id (node name and a random suffix per start, as dream_schedule.lease_owner) of the last
--    server that took the lease; lease_until is when its lease expires (NULL once released), so a server that dies
--    while it runs the task blocks the others only until then.
--  * A server takes the lease with one conditional UPDATE: free or expired, and last_started older than half the
--    period (or taken by this very server), so that two servers whose timers fire at the same minute run the task
--    once between them.
--  * run_count counts the runs of every server; last_rows is what the last run changed (rows deleted, NULL when the
--    task does not count rows), last_result its outcome in words (ok, or the failure).

CREATE TABLE cluster_lease (
    task          VARCHAR(64)                 NOT NULL,
    holder        VARCHAR(200),
    lease_until   TIMESTAMP(6) WITH TIME ZONE,
    last_started  TIMESTAMP(6) WITH TIME ZONE,
    last_finished TIMESTAMP(6) WITH TIME ZONE,
    run_count     BIGINT                      NOT NULL,
    last_rows     BIGINT,
    last_result   VARCHAR(1000),
    CONSTRAINT pk_cluster_lease PRIMARY KEY (task)
);
