-- H2 has no fill factor: PostgreSQL's V6 (a storage parameter of the conversation table) has no H2 counterpart.
-- This empty migration keeps the version numbers of both databases the same.
SELECT 1;
