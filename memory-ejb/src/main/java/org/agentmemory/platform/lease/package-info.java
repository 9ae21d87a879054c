/**
 * The rules of the database leases that let exactly one server of a cluster run a housekeeping task per period
 * (issue 36 item 2, decision 0018): when a lease may be taken, which times the taking writes, and when a periodic
 * timer first fires so that every server's timer fires at the same instants. No container or database types: the
 * stores of {@code platform.cluster} turn these rules into one conditional UPDATE.
 */
@Pure
package org.agentmemory.platform.lease;

import org.agentmemory.platform.Pure;
