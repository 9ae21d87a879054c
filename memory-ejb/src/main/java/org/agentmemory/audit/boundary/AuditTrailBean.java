package org.agentmemory.audit.boundary;

import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.audit.AuditEvent;
import org.agentmemory.api.audit.AuditTrail;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.audit.entity.AuditEntry;
import org.agentmemory.platform.paging.Cursors;

/**
 * The audit trail (issue 32 item 5; {@link AuditTrail}). Events are appended in their own transaction; failed
 * authentications are counted in memory per minute and written as one row per minute by a timer, and at shutdown.
 * That timer runs on every server of a cluster, not under a lease: each server counts the failures it saw itself, in
 * its own memory, and only it can write them (the rows of two servers for one minute add up). Rows older than
 * {@code memory.audit.retention-days} are deleted by {@link AuditRetentionBean}, on one server per period.
 *
 * <p>Bean-managed concurrency: appends and counts run in parallel; nothing here holds shared state but the counters.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class AuditTrailBean implements AuditTrail {

    private static final Logger LOG = Logger.getLogger(AuditTrailBean.class.getName());

    static final String FAILED_AUTHENTICATION = "authentication.failed";

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /** Failed authentications by minute (epoch minutes). */
    private final Map<Long, AtomicInteger> failures = new ConcurrentHashMap<>();

    @Override
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void record(String tenantId, String caller, String operation, String target, int outcome) {
        em.persist(new AuditEntry(
                Instant.now(),
                cut(tenantId, 64),
                caller == null || caller.isEmpty() ? NO_TENANT : cut(caller, 256),
                cut(operation, 128),
                target == null ? "" : cut(target, MAX_TARGET_LENGTH),
                outcome,
                1));
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void failedAuthentication() {
        long minute = Instant.now().getEpochSecond() / 60;
        failures.computeIfAbsent(minute, m -> new AtomicInteger()).incrementAndGet();
    }

    /** Writes the counts of every minute that has ended: this server's own, on every server (no lease). */
    @Schedule(minute = "*", hour = "*", persistent = false, info = "audit: failed authentications per minute")
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    void flushEndedMinutes() {
        flush(Instant.now().getEpochSecond() / 60);
    }

    /** At shutdown: writes every count, the current minute's too. */
    @PreDestroy
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    void flushAll() {
        try {
            flush(Long.MAX_VALUE);
        } catch (RuntimeException e) {
            LOG.warning("Failed authentications of the last minutes could not be written to the audit trail: " + e);
        }
    }

    private void flush(long beforeMinute) {
        for (Long minute : List.copyOf(failures.keySet())) {
            if (minute < beforeMinute) {
                AtomicInteger count = failures.remove(minute);
                if (count != null && count.get() > 0) {
                    em.persist(new AuditEntry(
                            Instant.ofEpochSecond(minute * 60),
                            NO_TENANT,
                            NO_TENANT,
                            FAILED_AUTHENTICATION,
                            "",
                            401,
                            count.get()));
                }
            }
        }
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Page<AuditEvent> list(String tenantId, int limit, String cursor) throws InvalidInputException {
        Cursors.checkLimit(limit);
        long bound = Cursors.idBound(cursor);
        TypedQuery<AuditEntry> query = em.createQuery(
                        "select a from AuditEntry a where a.id < :bound"
                                + (tenantId == null ? "" : " and a.tenantId = :tenant")
                                + " order by a.id desc",
                        AuditEntry.class)
                .setParameter("bound", bound)
                .setMaxResults(limit + 1);
        if (tenantId != null) {
            query.setParameter("tenant", tenantId);
        }
        List<AuditEntry> rows = query.getResultList();
        boolean more = rows.size() > limit;
        List<AuditEntry> items = more ? rows.subList(0, limit) : rows;
        return new Page<>(
                items.stream().map(AuditEntry::toEvent).toList(),
                more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    /**
     * @return the value cut to {@code max} characters, with U+0000 shown as U+FFFD: a request naming an id with a NUL
     *         (refused with 400) is still audited, and PostgreSQL's text cannot hold the NUL
     */
    private static String cut(String value, int max) {
        String text = value.replace('\0', '\uFFFD');
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }
}
