/**
 * Coordination of the servers that share one database (issue 36 item 2, decision 0018): this server's identity, the
 * {@code cluster_lease} rows that let exactly one server run a housekeeping task per period ({@link
 * org.agentmemory.platform.cluster.ClusterLeases#runOnce}), the aligned interval timers the tasks run on, and what this
 * server did itself (for {@code GET /admin/housekeeping}).
 *
 * <p>Decisions: a lease row per task in the database, as the dream cycle's (decision 0012), rather than a
 * cluster-wide singleton (JGroups, WildFly's {@code ha} profile): it works wherever the database is shared. The rules
 * themselves are pure ({@code platform.lease}); {@link org.agentmemory.platform.cluster.LeaseStore} holds the SQL.
 */
package org.agentmemory.platform.cluster;
