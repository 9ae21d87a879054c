package org.agentmemory.working.boundary;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.working.ClearedSession;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.api.working.ContextPop;
import org.agentmemory.api.working.ContextStack;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.StoredWorkingItem;
import org.agentmemory.api.working.WorkingItemChange;
import org.agentmemory.api.working.WorkingMemoryOperations;
import org.agentmemory.api.working.WorkingSessionRef;
import org.agentmemory.api.working.WorkingSummary;
import org.agentmemory.working.control.ContextFrames;
import org.agentmemory.working.control.ContextSummaries;
import org.agentmemory.working.control.MetadataFilter;
import org.agentmemory.working.control.TierPolicy;
import org.agentmemory.working.entity.WorkingItem;
import org.agentmemory.working.entity.WorkingSession;

/**
 * Working memory's rows over the caller's entity manager and transaction (issue 35 item 1, seed 003). Every query
 * names the tenant, agent and session. Every write first locks the session's header row ({@link #lock}), so writes of
 * one session run one after the other on every server, and the tier rules of {@link TierPolicy} hold under
 * concurrency: the short-term count an eviction reads cannot change before the commit, and an access count read for a
 * promotion is the latest. Inputs are checked by the caller.
 */
final class WorkingStore {

    /** Rows read or deleted per page when a session is scanned. */
    static final int PAGE = 200;

    private final EntityManager em;
    private final TierPolicy policy;
    private final Consumer<WorkingSessionRef> opener;

    /**
     * @param em     the caller's entity manager, in a transaction
     * @param policy the tier rules
     * @param opener creates a session's header row in a transaction of its own when it is missing
     */
    WorkingStore(EntityManager em, TierPolicy policy, Consumer<WorkingSessionRef> opener) {
        this.em = em;
        this.policy = policy;
        this.opener = opener;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * @param em      an entity manager
     * @param session the session
     * @param lock    whether to lock the row until the transaction ends ({@code SELECT … FOR UPDATE})
     * @return the session's header row, or {@code null}
     */
    static WorkingSession header(EntityManager em, WorkingSessionRef session, boolean lock) {
        TypedQuery<WorkingSession> query = em.createQuery(
                        "select h from WorkingSession h where h.tenantId = :tenant and h.agentId = :agent"
                                + " and h.sessionId = :session",
                        WorkingSession.class)
                .setParameter("tenant", session.tenantId())
                .setParameter("agent", session.agentId())
                .setParameter("session", session.sessionId());
        if (lock) {
            query.setLockMode(LockModeType.PESSIMISTIC_WRITE);
        }
        List<WorkingSession> rows = query.getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * Inserts a session's header row unless it exists; the caller runs this in a transaction of its own and treats a
     * unique-key violation at commit or flush as "another writer inserted it first".
     *
     * @param em      an entity manager in a transaction of its own
     * @param session the session
     * @return whether a row was inserted (flushed)
     */
    static boolean open(EntityManager em, WorkingSessionRef session) {
        if (header(em, session, false) != null) {
            return false;
        }
        em.persist(new WorkingSession(session.tenantId(), session.agentId(), session.sessionId(), now()));
        em.flush();
        return true;
    }

    /** @return the session's header, locked until the transaction ends; created first when missing */
    private WorkingSession lock(WorkingSessionRef session) {
        WorkingSession header = header(em, session, true);
        if (header == null) {
            opener.accept(session);
            header = header(em, session, true);
            if (header == null) {
                throw new IllegalStateException("The working-memory session of agent '" + session.agentId()
                        + "' could not be opened: its header row is missing after it was created.");
            }
        }
        return header;
    }

    private static NotFoundException noItem(WorkingSessionRef session, long itemId) {
        return new NotFoundException(
                "working_item",
                Long.toString(itemId),
                "Working-memory item " + itemId + " does not exist in session '" + session.sessionId() + "' of agent '"
                        + session.agentId() + "' in tenant '" + session.tenantId() + "'.");
    }

    /** @return the item of this session, or {@code null} */
    private WorkingItem item(WorkingSessionRef session, long itemId) {
        List<WorkingItem> rows = em.createQuery(
                        "select i from WorkingItem i where i.id = :id and i.tenantId = :tenant"
                                + " and i.agentId = :agent and i.sessionId = :session",
                        WorkingItem.class)
                .setParameter("id", itemId)
                .setParameter("tenant", session.tenantId())
                .setParameter("agent", session.agentId())
                .setParameter("session", session.sessionId())
                .getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** @return the session's item of a tier, position order */
    private TypedQuery<WorkingItem> tier(WorkingSessionRef session, MemoryTier tier, String order) {
        return em.createQuery(
                        "select i from WorkingItem i where i.tenantId = :tenant and i.agentId = :agent"
                                + " and i.sessionId = :session and i.tier = :tier order by " + order,
                        WorkingItem.class)
                .setParameter("tenant", session.tenantId())
                .setParameter("agent", session.agentId())
                .setParameter("session", session.sessionId())
                .setParameter("tier", tier.key());
    }

    StoredWorkingItem store(
            WorkingSessionRef session,
            String content,
            Map<String, Object> metadata,
            double importance,
            boolean longTerm) {
        WorkingSession header = lock(session);
        Instant now = now();
        List<ContextFrame> stack = ContextFrames.readStack(header.getContextStack());
        ContextFrame current = stack.isEmpty() ? null : stack.get(stack.size() - 1);
        MemoryTier tier = policy.tierOf(importance, longTerm);
        WorkingItem item = new WorkingItem(
                header,
                header.takeSeq(now),
                tier.key(),
                content,
                metadata,
                importance,
                ContextFrames.write(current),
                now);
        List<Long> evicted = List.of();
        if (tier == MemoryTier.SHORT_TERM) {
            List<Long> shortTerm = new ArrayList<>(em.createQuery(
                            "select i.id from WorkingItem i where i.tenantId = :tenant and i.agentId = :agent"
                                    + " and i.sessionId = :session and i.tier = :tier order by i.seq",
                            Long.class)
                    .setParameter("tenant", session.tenantId())
                    .setParameter("agent", session.agentId())
                    .setParameter("session", session.sessionId())
                    .setParameter("tier", MemoryTier.SHORT_TERM.key())
                    .getResultList());
            em.persist(item);
            shortTerm.add(item.getId());
            evicted = policy.evictions(shortTerm);
            for (Long id : evicted) {
                em.remove(em.find(WorkingItem.class, id));
            }
        } else {
            em.persist(item);
        }
        return new StoredWorkingItem(WorkingRecords.item(item), evicted);
    }

    org.agentmemory.api.working.WorkingItem get(WorkingSessionRef session, long itemId) throws NotFoundException {
        WorkingItem item = lockedItem(session, itemId);
        Instant now = now();
        item.accessed(now);
        if (policy.promotedByAccess(WorkingRecords.tier(item), item.getAccessCount())) {
            item.promote(MemoryTier.LONG_TERM.key(), now);
        }
        return WorkingRecords.item(item);
    }

    org.agentmemory.api.working.WorkingItem update(WorkingSessionRef session, long itemId, WorkingItemChange change)
            throws NotFoundException {
        WorkingItem item = lockedItem(session, itemId);
        Instant now = now();
        item.change(change.content(), change.metadata(), change.importance(), now);
        if (policy.promotedByImportance(WorkingRecords.tier(item), item.getImportance())) {
            item.promote(MemoryTier.LONG_TERM.key(), now);
        }
        return WorkingRecords.item(item);
    }

    void delete(WorkingSessionRef session, long itemId) throws NotFoundException {
        em.remove(lockedItem(session, itemId));
    }

    /** @return the item, after its session's header was locked */
    private WorkingItem lockedItem(WorkingSessionRef session, long itemId) throws NotFoundException {
        if (header(em, session, true) == null) {
            throw noItem(session, itemId);
        }
        WorkingItem item = item(session, itemId);
        if (item == null) {
            throw noItem(session, itemId);
        }
        return item;
    }

    ClearedSession clear(WorkingSessionRef session) {
        WorkingSession header = header(em, session, true);
        if (header == null) {
            return new ClearedSession(0, 0);
        }
        int frames = ContextFrames.readStack(header.getContextStack()).size();
        long items = 0;
        List<WorkingItem> page;
        do {
            // Removed one by one, not by a bulk delete, so that the search index drops their documents.
            page = em.createQuery(
                            "select i from WorkingItem i where i.tenantId = :tenant and i.agentId = :agent"
                                    + " and i.sessionId = :session order by i.seq",
                            WorkingItem.class)
                    .setParameter("tenant", session.tenantId())
                    .setParameter("agent", session.agentId())
                    .setParameter("session", session.sessionId())
                    .setMaxResults(PAGE)
                    .getResultList();
            for (WorkingItem item : page) {
                em.remove(item);
            }
            em.flush();
            items += page.size();
        } while (page.size() == PAGE);
        em.remove(header);
        return new ClearedSession(items, frames);
    }

    ContextStack push(WorkingSessionRef session, String type, Map<String, Object> data) throws InvalidInputException {
        WorkingSession header = lock(session);
        List<ContextFrame> frames = ContextFrames.readStack(header.getContextStack());
        if (frames.size() >= WorkingMemoryOperations.MAX_STACK_DEPTH) {
            throw new InvalidInputException(
                    "type",
                    "max-depth",
                    "The context stack of session '" + session.sessionId() + "' already holds "
                            + WorkingMemoryOperations.MAX_STACK_DEPTH + " frames, the most it may; pop one first.");
        }
        Instant now = now();
        frames.add(new ContextFrame(type, data, now));
        header.setContextStack(ContextFrames.writeStack(frames), now);
        return new ContextStack(List.copyOf(frames));
    }

    ContextPop pop(WorkingSessionRef session) {
        WorkingSession header = header(em, session, true);
        if (header == null) {
            return new ContextPop(null, List.of());
        }
        List<ContextFrame> frames = ContextFrames.readStack(header.getContextStack());
        if (frames.isEmpty()) {
            return new ContextPop(null, List.of());
        }
        ContextFrame popped = frames.remove(frames.size() - 1);
        header.setContextStack(ContextFrames.writeStack(frames), now());
        return new ContextPop(popped, List.copyOf(frames));
    }

    /** @return the session's stack, bottom first; empty for a session never written */
    List<ContextFrame> stack(WorkingSessionRef session) {
        WorkingSession header = header(em, session, false);
        return header == null ? List.of() : ContextFrames.readStack(header.getContextStack());
    }

    List<org.agentmemory.api.working.WorkingItem> retrieve(
            WorkingSessionRef session, Map<String, Object> metadata, MemoryTier tier, Double minImportance, int limit) {
        // 'short_term' sorts after 'long_term': short-term first, then each tier newest first.
        String jpql = "select i from WorkingItem i where i.tenantId = :tenant and i.agentId = :agent"
                + " and i.sessionId = :session"
                + (tier == null ? "" : " and i.tier = :tier")
                + (minImportance == null ? "" : " and i.importance >= :min")
                + " order by i.tier desc, i.seq desc";
        List<org.agentmemory.api.working.WorkingItem> out = new ArrayList<>();
        List<WorkingItem> page;
        int first = 0;
        do {
            TypedQuery<WorkingItem> query = em.createQuery(jpql, WorkingItem.class)
                    .setParameter("tenant", session.tenantId())
                    .setParameter("agent", session.agentId())
                    .setParameter("session", session.sessionId());
            if (tier != null) {
                query.setParameter("tier", tier.key());
            }
            if (minImportance != null) {
                query.setParameter("min", minImportance);
            }
            page = query.setFirstResult(first).setMaxResults(PAGE).getResultList();
            for (WorkingItem item : page) {
                if (out.size() < limit && MetadataFilter.matches(item.getMetadata(), metadata)) {
                    out.add(WorkingRecords.item(item));
                }
            }
            first += PAGE;
        } while (page.size() == PAGE && out.size() < limit);
        return out;
    }

    WorkingSummary summary(WorkingSessionRef session) {
        List<org.agentmemory.api.working.WorkingItem> recent = new ArrayList<>();
        for (WorkingItem item : tier(session, MemoryTier.SHORT_TERM, "i.seq desc")
                .setMaxResults(ContextSummaries.RECENT)
                .getResultList()) {
            recent.add(WorkingRecords.item(item));
        }
        List<org.agentmemory.api.working.WorkingItem> important = new ArrayList<>();
        for (WorkingItem item : em.createQuery(
                        "select i from WorkingItem i where i.tenantId = :tenant and i.agentId = :agent"
                                + " and i.sessionId = :session and i.tier = :tier and i.importance >= :min"
                                + " order by i.importance desc, i.seq desc",
                        WorkingItem.class)
                .setParameter("tenant", session.tenantId())
                .setParameter("agent", session.agentId())
                .setParameter("session", session.sessionId())
                .setParameter("tier", MemoryTier.LONG_TERM.key())
                .setParameter("min", ContextSummaries.IMPORTANCE)
                .setMaxResults(ContextSummaries.IMPORTANT)
                .getResultList()) {
            important.add(WorkingRecords.item(item));
        }
        return ContextSummaries.compose(stack(session), recent, important);
    }
}
