package org.agentmemory.brain.boundary;

import jakarta.ejb.EJB;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.brain.control.Distilled;
import org.agentmemory.brain.control.PageIds;
import org.agentmemory.brain.control.Statement;
import org.agentmemory.brain.control.Statements;
import org.agentmemory.brain.control.StatementsJson;
import org.agentmemory.brain.entity.BrainPage;
import org.agentmemory.episodic.boundary.EpisodeFeedBean;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;

/**
 * Writes one page in its own transaction, under the page row's lock: reads its statements, merges the new ones
 * ({@link Statements#merge}), each with its own evidence, stores the result and the page's vector (title and current
 * statements, for the vector leg of brain search). The first write of a page inserts it; two first writes at once
 * collide on the unique key and the loser's caller retries ({@code BrainMemoryBean}), then finds the row.
 */
@Stateless
@LocalBean
public class BrainPageWriterBean {

    private static final Logger LOG = Logger.getLogger(BrainPageWriterBean.class.getName());

    /** Summary length, code points (spec §12.3: text[:300]). */
    static final int SUMMARY = 300;

    /** The prefix of an episode reference in evidence. */
    private static final String EPISODE = "episode:";

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    EpisodeFeedBean feed;

    @Inject
    Settings settings;

    /**
     * A direct write: every statement of the body has the same evidence, and a write that changes an existing page
     * counts as a reinforcement.
     *
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
        Map<String, Set<String>> each = new LinkedHashMap<>();
        for (String statement : Statements.split(knowledge.body())) {
            each.put(statement, evidence);
        }
        return merge(brain, knowledge, each, assertedBy, now, true);
    }

    /**
     * A dream cycle's write: each statement with its own evidence; reinforcement is counted once per cycle by
     * {@link #reinforce}, not per write.
     *
     * @param brain      the brain
     * @param knowledge  what to write, after the confidence rule
     * @param evidence   statement text → references supporting it; statements of the body not in the map get none
     * @param assertedBy who writes it, kept from the first write
     * @param now        the write's time
     * @return what the write did
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public PageWriteResult archive(
            BrainRef brain, Distilled knowledge, Map<String, Set<String>> evidence, String assertedBy, Instant now) {
        return merge(brain, knowledge, citable(brain.tenantId(), evidence), assertedBy, now, false);
    }

    /**
     * The evidence without episodes erased since they were collected (issue 34 item 4): the episodes still cited are
     * locked until the archive commits; a statement whose every cited episode is gone is left out (mapped to
     * {@code null}).
     */
    private Map<String, Set<String>> citable(String tenantId, Map<String, Set<String>> evidence) {
        Set<String> cited = new HashSet<>();
        evidence.values()
                .forEach(refs -> refs.stream()
                        .filter(r -> r.startsWith(EPISODE))
                        .forEach(r -> cited.add(r.substring(EPISODE.length()))));
        if (cited.isEmpty()) {
            return evidence;
        }
        Set<String> existing = feed.lockExisting(tenantId, cited);
        if (existing.size() == cited.size()) {
            return evidence;
        }
        Map<String, Set<String>> kept = new LinkedHashMap<>();
        evidence.forEach((statement, refs) -> {
            Set<String> left = new TreeSet<>();
            boolean citedEpisode = false;
            for (String r : refs) {
                boolean episode = r.startsWith(EPISODE);
                citedEpisode |= episode;
                if (!episode || existing.contains(r.substring(EPISODE.length()))) {
                    left.add(r);
                }
            }
            boolean anyEpisodeLeft = left.stream().anyMatch(r -> r.startsWith(EPISODE));
            kept.put(statement, citedEpisode && !anyEpisodeLeft ? null : left);
        });
        return kept;
    }

    /**
     * Counts a dream cycle's reinforcement of a page, once per cycle (spec §12.2 step 7).
     *
     * @param brain  the agent's brain
     * @param pageId the page
     * @param cycle  the cycle's number
     * @return the distinct cycles that reinforced the page; 0 when it does not exist
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int reinforce(BrainRef brain, String pageId, long cycle) {
        List<BrainPage> found = lockedPage(brain, pageId);
        if (found.isEmpty()) {
            return 0;
        }
        found.get(0).reinforceInCycle(cycle);
        return found.get(0).getDreamCycles();
    }

    /**
     * Copies an agent's page into its organisation's brain (spec §12.2 step 9): each current statement merged with its
     * own evidence, the first writer's attribution kept; the agent's page remembers its first promotion.
     *
     * @param agentBrain the agent's brain
     * @param pageId     the page
     * @param now        the copy's time
     * @return whether this was the page's first promotion; {@code false} when the page does not exist
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean promote(BrainRef agentBrain, String pageId, Instant now) {
        List<BrainPage> found = lockedPage(agentBrain, pageId);
        if (found.isEmpty()) {
            return false;
        }
        BrainPage page = found.get(0);
        List<Statement> current = Statements.shown(StatementsJson.read(page.getStatements()), null);
        Map<String, Set<String>> evidence = new LinkedHashMap<>();
        for (Statement s : current) {
            evidence.put(s.text(), s.evidence());
        }
        Distilled knowledge =
                new Distilled(page.getTitle(), Statements.body(current), page.getCategory(), page.getConfidence());
        merge(new BrainRef(agentBrain.tenantId(), null), knowledge, evidence, page.getAssertedBy(), now, false);
        boolean first = page.getPromotedAt() == null;
        page.promoted(now);
        return first;
    }

    private PageWriteResult merge(
            BrainRef brain,
            Distilled knowledge,
            Map<String, Set<String>> evidence,
            String assertedBy,
            Instant now,
            boolean countReinforcement) {
        String pageId = PageIds.pageId(knowledge.title(), knowledge.category());
        List<BrainPage> found = lockedPage(brain, pageId);
        boolean created = found.isEmpty();
        BrainPage page =
                created ? new BrainPage(brain.tenantId(), brain.brainId(), pageId, assertedBy, now) : found.get(0);
        List<Statement> statements = StatementsJson.read(page.getStatements());
        int added = 0;
        int reinforced = 0;
        int superseded = 0;
        boolean any = false;
        for (String text : Statements.split(knowledge.body())) {
            if (evidence.containsKey(text) && evidence.get(text) == null) {
                continue; // every episode it cited was erased meanwhile
            }
            any = true;
            Statements.Merge m = Statements.merge(statements, text, evidence.getOrDefault(text, Set.of()), now);
            statements = m.statements();
            added += m.added();
            reinforced += m.reinforced();
            superseded += m.superseded();
        }
        boolean changed = added + reinforced + superseded > 0;
        if ((!created && !changed) || (created && !any)) {
            return new PageWriteResult(
                    pageId,
                    created ? knowledge.title() : page.getTitle(),
                    created ? knowledge.category() : page.getCategory(),
                    "unchanged",
                    0,
                    0,
                    0);
        }
        String body = Statements.body(Statements.shown(statements, null));
        page.write(
                knowledge.title(),
                knowledge.category(),
                knowledge.confidence(),
                PageIds.cut(body, SUMMARY),
                body,
                StatementsJson.write(statements),
                settings.tokenCounter().count(body),
                countReinforcement && !created && changed,
                now);
        embed(page);
        if (created) {
            em.persist(page);
        }
        em.flush();
        return new PageWriteResult(
                pageId,
                knowledge.title(),
                knowledge.category(),
                created ? "created" : "updated",
                added,
                reinforced,
                superseded);
    }

    private void embed(BrainPage page) {
        embed(page, settings.embeddingModel());
    }

    /** Embeds a page's title and body, or leaves it full-text only when the model fails. */
    static void embed(BrainPage page, EmbeddingModel model) {
        try {
            page.embed(model.embed(page.getTitle() + "\n" + page.getBody()), model.name());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Brain page " + page.getPageId() + " could not be embedded; full-text only", e);
            page.embed(null, null);
        }
    }

    private List<BrainPage> lockedPage(BrainRef brain, String pageId) {
        return em.createQuery(
                        "select p from BrainPage p where p.tenantId = :tenant and p.brainId = :brain"
                                + " and p.pageId = :page",
                        BrainPage.class)
                .setParameter("tenant", brain.tenantId())
                .setParameter("brain", brain.brainId())
                .setParameter("page", pageId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
    }
}
