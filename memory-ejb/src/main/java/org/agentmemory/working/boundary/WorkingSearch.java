package org.agentmemory.working.boundary;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.WorkingSearchHit;
import org.agentmemory.api.working.WorkingSessionRef;
import org.agentmemory.working.control.ContextFrames;
import org.agentmemory.working.control.ContextReranking;
import org.agentmemory.working.entity.WorkingItem;
import org.hibernate.search.mapper.orm.Search;

/**
 * Full-text search of a session's items (seed 003 {@code search}): the content index ({@link WorkingItem#INDEX}, English
 * analysis, words OR-ed) filtered by tenant, agent, session and optionally tier, then the candidates re-ranked by the
 * current context frame ({@link ContextReranking}). Each loaded row is checked against the session again, so a
 * document left behind by a crash never leaks another session's row.
 */
final class WorkingSearch {

    private final EntityManager em;

    /** @param em the caller's entity manager */
    WorkingSearch(EntityManager em) {
        this.em = em;
    }

    /**
     * @param session the session
     * @param text    the query, bounded and not blank
     * @param tier    one tier, or {@code null} for both
     * @param limit   most hits, ≥ 1
     * @param current the current context frame, or {@code null}
     * @return the hits, most relevant first
     */
    List<WorkingSearchHit> search(
            WorkingSessionRef session, String text, MemoryTier tier, int limit, ContextFrame current) {
        List<List<?>> hits = Search.session(em)
                .search(WorkingItem.class)
                .select(f -> f.composite().from(f.entity(), f.score()).asList())
                .where(f -> {
                    var bool = f.bool()
                            .must(f.match().field("content").matching(text))
                            .filter(f.match().field("tenantId").matching(session.tenantId()))
                            .filter(f.match().field("agentId").matching(session.agentId()))
                            .filter(f.match().field("sessionId").matching(session.sessionId()));
                    return tier == null
                            ? bool
                            : bool.filter(f.match().field("tier").matching(tier.key()));
                })
                .fetchHits(ContextReranking.candidates(limit));
        List<ContextReranking.Candidate<WorkingItem>> candidates = new ArrayList<>(hits.size());
        for (List<?> hit : hits) {
            WorkingItem row = (WorkingItem) hit.get(0);
            if (row == null
                    || !row.getTenantId().equals(session.tenantId())
                    || !row.getAgentId().equals(session.agentId())
                    || !row.getSessionId().equals(session.sessionId())
                    || (tier != null && !row.getTier().equals(tier.key()))) {
                continue;
            }
            candidates.add(new ContextReranking.Candidate<>(
                    row, (Float) hit.get(1), ContextFrames.read(row.getContext()), row.getSeq()));
        }
        List<WorkingSearchHit> out = new ArrayList<>();
        for (ContextReranking.Ranked<WorkingItem> ranked : ContextReranking.rank(candidates, current, limit)) {
            out.add(new WorkingSearchHit(
                    WorkingRecords.item(ranked.value()),
                    ranked.textScore(),
                    ranked.contextMatch(),
                    ranked.relevance()));
        }
        return out;
    }
}
