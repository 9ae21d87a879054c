package org.agentmemory.platform.cluster;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import java.time.Instant;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.cluster.Housekeeping;
import org.agentmemory.api.cluster.HousekeepingStatus;
import org.agentmemory.api.cluster.HousekeepingTask;
import org.agentmemory.platform.security.CallerScope;

/**
 * The housekeeping status ({@link Housekeeping}): the {@code cluster_lease} rows every server shares, and this
 * server's own counters ({@link ServerWork}). Read-only.
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors(CallerScope.class)
public class HousekeepingBean implements Housekeeping {

    @EJB
    LeaseTable table;

    @Inject
    ServerIdentity server;

    @Inject
    ServerWork work;

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public HousekeepingStatus status() {
        Instant now = Instant.now();
        return new HousekeepingStatus(
                server.id(),
                server.startedAt(),
                table.all().stream().map(row -> task(row, now)).toList(),
                work.runs(),
                work.messagesEmbedded());
    }

    private static HousekeepingTask task(ClusterLease row, Instant now) {
        boolean running = row.getLeaseUntil() != null && row.getLeaseUntil().isAfter(now);
        return new HousekeepingTask(
                row.getTask(),
                row.getRunCount(),
                row.getHolder(),
                running,
                row.getLeaseUntil(),
                row.getLastStarted(),
                row.getLastFinished(),
                row.getLastRows(),
                row.getLastResult());
    }
}
