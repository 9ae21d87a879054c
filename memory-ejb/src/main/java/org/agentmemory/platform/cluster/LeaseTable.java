package org.agentmemory.platform.cluster;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.agentmemory.platform.lease.LeaseRule;
import org.agentmemory.platform.persistence.MemoryDataSource;

/**
 * {@link LeaseStore} in transactions of its own ({@code REQUIRES_NEW}): taking and releasing a lease commit at once,
 * whatever transaction the caller is in, so that a lease never waits for the work it guards, and the work's own
 * transactions are never spanned by it.
 */
@Stateless
@LocalBean
public class LeaseTable {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /** The memory database ({@link MemoryDataSource}: WildFly's or Liberty's name). */
    DataSource dataSource;

    private boolean postgres;

    @PostConstruct
    void vendor() {
        dataSource = MemoryDataSource.lookup();
        try (Connection connection = dataSource.getConnection()) {
            postgres = connection
                    .getMetaData()
                    .getDatabaseProductName()
                    .toLowerCase(Locale.ROOT)
                    .contains("postgres");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot connect to the memory database: " + e.getMessage(), e);
        }
    }

    private LeaseStore store() {
        return new LeaseStore(em, postgres);
    }

    /**
     * @param task the task's name
     * @return whether this call created the task's row ({@link LeaseStore#create})
     * @throws jakarta.ejb.EJBException on H2, when another transaction created it meanwhile
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean create(String task) {
        return store().create(task);
    }

    /**
     * @param task    the task's name
     * @param server  this server's id
     * @param attempt the attempt's times
     * @return whether this server took the lease ({@link LeaseStore#take})
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean take(String task, String server, LeaseRule.Attempt attempt) {
        return store().take(task, server, attempt);
    }

    /**
     * Frees the lease and records the run ({@link LeaseStore#release}).
     *
     * @param task     the task's name
     * @param server   this server's id
     * @param started  the run's start
     * @param finished its end
     * @param rows     rows it changed, or {@code null}
     * @param result   its outcome
     * @return whether the row was still this run's
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean release(String task, String server, Instant started, Instant finished, Long rows, String result) {
        return store().release(task, server, started, finished, rows, result);
    }

    /** @return every task's row, by task name */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ClusterLease> all() {
        return store().all();
    }
}
