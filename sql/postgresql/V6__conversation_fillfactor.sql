-- Every write of a turn updates its conversation row (last sequence number, turn count, update time), and an
-- import updates each of its conversations once per batch. With full pages such an update cannot stay on the
-- row's page, so PostgreSQL writes a new entry into each of the table's four indexes as well (measured on an import
-- of scattered conversations: 30 % of the updates stayed on their page). Leaving half of every page free lets
-- nearly all of them be heap-only updates, which touch no index and whose old versions are pruned with the page
-- (75 % on the same import). Applies to pages written from now on; the table is small (about 120 bytes a row).
-- H2 has no such setting and no counterpart of this migration.
ALTER TABLE conversation SET (fillfactor = 50);
