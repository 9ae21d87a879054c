package org.agentmemory.brain.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.brain.control.Distilled;
import org.agentmemory.brain.control.PageIds;
import org.agentmemory.brain.control.Statement;
import org.agentmemory.brain.control.Statements;
import org.agentmemory.brain.control.StatementsJson;
import org.agentmemory.brain.entity.BrainPage;
import org.agentmemory.platform.config.Settings;

/**
 * Writes one page in its own transaction, under the page row's lock: reads its statements, merges the new ones
 * ({@link Statements#merge}) and stores the result. The first write of a page inserts it; two first writes at once
 * collide on the unique key and the loser's caller retries ({@code BrainMemoryBean}), then finds the row.
 */
@Stateless
@LocalBean
public class BrainPageWriterBean {

    /** Summary length, code points (spec §12.3: text[:300]). */
    static final int SUMMARY = 300;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /**
     * @param brain      the brain
     * @param knowledge  what to write, after the confidence rule
     * @param evidence   references supporting it
     * @param assertedBy who writes it, kept from the first write
     * @param now        the write's time
     * @return what the write did
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public PageWriteResult write(
            BrainRef brain, Distilled knowledge, Set<String> evidence, String assertedBy, Instant now) {
        String pageId = PageIds.pageId(knowledge.title(), knowledge.category());
        List<BrainPage> found = em.createQuery(
                        "select p from BrainPage p where p.tenantId = :tenant and p.brainId = :brain"
                                + " and p.pageId = :page",
                        BrainPage.class)
                .setParameter("tenant", brain.tenantId())
                .setParameter("brain", brain.brainId())
                .setParameter("page", pageId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
        boolean created = found.isEmpty();
        BrainPage page =
                created ? new BrainPage(brain.tenantId(), brain.brainId(), pageId, assertedBy, now) : found.get(0);
        List<Statement> before = StatementsJson.read(page.getStatements());
        Statements.Merge merge = Statements.merge(before, knowledge.body(), evidence, now);
        if (!created && !merge.changed()) {
            return new PageWriteResult(pageId, page.getTitle(), page.getCategory(), "unchanged", 0, 0, 0);
        }
        String body = Statements.body(Statements.shown(merge.statements(), null));
        page.write(
                knowledge.title(),
                knowledge.category(),
                knowledge.confidence(),
                PageIds.cut(body, SUMMARY),
                body,
                StatementsJson.write(merge.statements()),
                settings.tokenCounter().count(body),
                !created && merge.changed(),
                now);
        if (created) {
            em.persist(page);
        }
        em.flush();
        return new PageWriteResult(
                pageId,
                knowledge.title(),
                knowledge.category(),
                created ? "created" : "updated",
                merge.added(),
                merge.reinforced(),
                merge.superseded());
    }
}
