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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.agentmemory.brain.control.EvidenceErasure;
import org.agentmemory.brain.control.PageIds;
import org.agentmemory.brain.control.Statement;
import org.agentmemory.brain.control.Statements;
import org.agentmemory.brain.control.StatementsJson;
import org.agentmemory.brain.entity.BrainPage;
import org.agentmemory.platform.config.Settings;

/**
 * Removes an erased subject's evidence from every brain page of its tenant, agents' and organisation's brains alike
 * (issue 34 item 4; {@link EvidenceErasure} says which statements go). Pages are scanned without locks and each page
 * that holds the subject's evidence is then locked, re-read and rewritten (body, summary, tokens and vector follow the
 * statements) or, when no statement is left, deleted with its search-index document.
 */
@Stateless
@LocalBean
public class BrainEvidenceEraserBean {

    /** Pages read per scan query. */
    private static final int PAGE = 200;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /**
     * What one erasure step changed in the brains.
     *
     * @param statements statements removed
     * @param revised    ids of the pages rewritten without the subject's evidence
     * @param deleted    ids of the pages deleted because no statement was left
     */
    public record Erased(long statements, Set<Long> revised, Set<Long> deleted) {

        /** Nothing changed. */
        public static final Erased NONE = new Erased(0, Set.of(), Set.of());

        /** @return both changes together */
        public Erased plus(Erased other) {
            Set<Long> r = new HashSet<>(revised);
            r.addAll(other.revised);
            Set<Long> d = new HashSet<>(deleted);
            d.addAll(other.deleted);
            return new Erased(statements + other.statements, r, d);
        }
    }

    /**
     * Erases references to a subject's conversations and episodes in the caller's transaction.
     *
     * @param tenantId        the tenant
     * @param conversationIds the subject's conversation ids (numbers as text), matched in {@code turn:} references
     * @param episodeIds      the subject's episode ids, matched in {@code episode:} references
     * @param now             the revision time of rewritten pages
     * @return what changed
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public Erased erase(String tenantId, Set<String> conversationIds, Set<String> episodeIds, Instant now) {
        if (conversationIds.isEmpty() && episodeIds.isEmpty()) {
            return Erased.NONE;
        }
        Predicate<String> subjects = EvidenceErasure.references(conversationIds, episodeIds);
        Erased erased = Erased.NONE;
        long after = 0;
        while (true) {
            List<Object[]> rows = em.createQuery(
                            "SELECT p.id, p.statements FROM BrainPage p WHERE p.tenantId = :t AND p.id > :after"
                                    + " ORDER BY p.id",
                            Object[].class)
                    .setParameter("t", tenantId)
                    .setParameter("after", after)
                    .setMaxResults(PAGE)
                    .getResultList();
            for (Object[] row : rows) {
                after = (Long) row[0];
                if (EvidenceErasure.erase(StatementsJson.read((String) row[1]), subjects)
                        .changed()) {
                    erased = erased.plus(revise((Long) row[0], subjects, now));
                }
            }
            if (rows.size() < PAGE) {
                return erased;
            }
        }
    }

    private Erased revise(long id, Predicate<String> subjects, Instant now) {
        BrainPage page = em.find(BrainPage.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (page == null) {
            return Erased.NONE;
        }
        EvidenceErasure.Result result = EvidenceErasure.erase(StatementsJson.read(page.getStatements()), subjects);
        if (!result.changed()) {
            return Erased.NONE;
        }
        if (result.kept().isEmpty()) {
            em.remove(page);
            return new Erased(result.removed(), Set.of(), Set.of(id));
        }
        List<Statement> shown = Statements.shown(result.kept(), null);
        String body = Statements.body(shown);
        page.write(
                page.getTitle(),
                page.getCategory(),
                page.getConfidence(),
                PageIds.cut(body, BrainPageWriterBean.SUMMARY),
                body,
                StatementsJson.write(result.kept()),
                settings.tokenCounter().count(body),
                false,
                now);
        BrainPageWriterBean.embed(page, settings.embeddingModel());
        return new Erased(result.removed(), Set.of(id), Set.of());
    }
}
