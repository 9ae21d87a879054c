package org.agentmemory.brain.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.brain.BrainMemory;
import org.agentmemory.api.brain.BrainMemoryRemote;
import org.agentmemory.api.brain.BrainPage;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.BrainSearchHit;
import org.agentmemory.api.brain.BrainStatement;
import org.agentmemory.api.brain.PageWrite;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.brain.control.Distilled;
import org.agentmemory.brain.control.KnowledgePacking;
import org.agentmemory.brain.control.Statement;
import org.agentmemory.brain.control.Statements;
import org.agentmemory.brain.control.StatementsJson;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.QueryVectors;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.paging.Cursors;
import org.agentmemory.platform.ranking.FusedHit;
import org.agentmemory.platform.ranking.ReciprocalRankFusion;
import org.agentmemory.platform.ranking.Similarity;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;
import org.hibernate.search.mapper.orm.Search;

/**
 * Brain pages ({@link BrainMemory}, issue 33 item 1): writes merged into pages ({@link BrainPageWriterBean}), reads
 * as of a time, listing, hybrid search (full-text and vector legs fused by reciprocal rank) and the packed brain
 * section of a context (spec §12.4).
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
public class BrainMemoryBean implements BrainMemory, BrainMemoryRemote {

    private static final Logger LOG = Logger.getLogger(BrainMemoryBean.class.getName());

    /** Longest evidence reference, characters. */
    static final int MAX_REFERENCE = 600;

    private static final Pattern REFERENCE = Pattern.compile("(?:episode|turn):\\S.*");

    /** Candidates per leg of a search, at least. */
    static final int CANDIDATES = 20;

    /**
     * Least cosine of a vector hit: k-NN always answers its k nearest pages, related or not, and an unrelated page
     * in the brain section of a prompt costs tokens and misleads.
     */
    static final double MIN_COSINE = 0.35;

    private static final ReciprocalRankFusion FUSION = new ReciprocalRankFusion();

    /** The form of every page id (spec §12.3). */
    private static final Pattern PAGE_ID = Pattern.compile("mem-[0-9a-f]{12}");

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    BrainPageWriterBean writer;

    @Inject
    Settings settings;

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public PageWriteResult remember(BrainRef brain, PageWrite write) throws InvalidInputException {
        checkBrain(brain);
        if (write == null
                || write.body() == null
                || Statements.split(write.body()).isEmpty()) {
            throw new InvalidInputException("body", "required", "body is required: at least one statement.");
        }
        noNul("body", write.body());
        noNul("title", write.title());
        if (write.body().codePointCount(0, write.body().length()) > Distilled.MAX_BODY) {
            throw new InvalidInputException(
                    "body", "max-length", "body has more than " + Distilled.MAX_BODY + " code points.");
        }
        if (write.category() != null
                && !Distilled.CATEGORIES.contains(write.category().strip().toLowerCase(java.util.Locale.ROOT))) {
            throw new InvalidInputException(
                    "category", "one-of", "category must be lesson, decision, concept or note.");
        }
        if (write.confidence() != null
                && (write.confidence().isNaN() || write.confidence() < 0 || write.confidence() > 1)) {
            throw new InvalidInputException("confidence", "range", "confidence must be between 0 and 1.");
        }
        Set<String> evidence = new LinkedHashSet<>();
        for (int i = 0; i < write.evidence().size(); i++) {
            String ref = write.evidence().get(i);
            if (ref == null
                    || ref.length() > MAX_REFERENCE
                    || ref.indexOf('\u0000') >= 0
                    || !REFERENCE.matcher(ref).matches()) {
                throw new InvalidInputException(
                        "evidence[" + i + "]",
                        "reference",
                        "evidence[" + i + "] must be episode:<id> or turn:<conversation>/<turn>, at most "
                                + MAX_REFERENCE + " characters.");
            }
            evidence.add(ref);
        }
        if (evidence.size() > InputRules.MAX_ITEMS) {
            throw new InvalidInputException("evidence", "max-items", "evidence lists more than 1000 references.");
        }
        Distilled knowledge = Distilled.of(
                write.title(), write.body(), write.category(), write.confidence() == null ? 0.5 : write.confidence());
        String assertedBy = brain.agentId() == null ? "org" : "agent:" + brain.agentId();
        try {
            return writer.write(brain, knowledge, evidence, assertedBy, Instant.now());
        } catch (EJBException firstWriteRace) {
            // Another first write of the same page won the insert; the row exists now.
            LOG.log(Level.FINE, "Brain page write retried", firstWriteRace);
            return writer.write(brain, knowledge, evidence, assertedBy, Instant.now());
        }
    }

    @Override
    public BrainPage getPage(BrainRef brain, String pageId, Instant asOf)
            throws NotFoundException, InvalidInputException {
        checkBrain(brain);
        if (pageId == null || !PAGE_ID.matcher(pageId).matches()) {
            throw new NotFoundException("page", pageId, "Brain " + brain.brainId() + " has no page " + pageId + ".");
        }
        List<org.agentmemory.brain.entity.BrainPage> rows = em.createQuery(
                        "select p from BrainPage p where p.tenantId = :tenant and p.brainId = :brain"
                                + " and p.pageId = :page",
                        org.agentmemory.brain.entity.BrainPage.class)
                .setParameter("tenant", brain.tenantId())
                .setParameter("brain", brain.brainId())
                .setParameter("page", pageId == null ? "" : pageId)
                .getResultList();
        if (rows.isEmpty() || (asOf != null && asOf.isBefore(rows.get(0).getCreatedAt()))) {
            throw new NotFoundException(
                    "page",
                    pageId,
                    "Brain " + brain.brainId() + " has no page " + pageId + (asOf == null ? "" : " at " + asOf) + ".");
        }
        return record(rows.get(0), asOf);
    }

    @Override
    public Page<BrainPage> listPages(BrainRef brain, int limit, String cursor) throws InvalidInputException {
        checkBrain(brain);
        Cursors.checkLimit(limit);
        long bound = Cursors.idBound(cursor);
        List<org.agentmemory.brain.entity.BrainPage> rows = em.createQuery(
                        "select p from BrainPage p where p.tenantId = :tenant and p.brainId = :brain"
                                + " and p.id < :bound order by p.id desc",
                        org.agentmemory.brain.entity.BrainPage.class)
                .setParameter("tenant", brain.tenantId())
                .setParameter("brain", brain.brainId())
                .setParameter("bound", bound)
                .setMaxResults(limit + 1)
                .getResultList();
        boolean more = rows.size() > limit;
        List<org.agentmemory.brain.entity.BrainPage> items = more ? rows.subList(0, limit) : rows;
        List<BrainPage> pages = new ArrayList<>(items.size());
        for (org.agentmemory.brain.entity.BrainPage row : items) {
            pages.add(record(row, null));
        }
        return new Page<>(pages, more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public List<BrainSearchHit> search(BrainRef brain, String query, int topK) throws InvalidInputException {
        checkBrain(brain);
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new InvalidInputException("topK", "range", "topK must be between 1 and " + MAX_TOP_K + ".");
        }
        if (query == null || query.isBlank()) {
            return List.of();
        }
        String text = QueryTerms.bound(query).text();
        if (text.isBlank()) {
            return List.of();
        }
        int candidates = Math.max(topK, CANDIDATES);
        Map<String, org.agentmemory.brain.entity.BrainPage> pages = new HashMap<>();
        Map<String, List<String>> legs = new LinkedHashMap<>();
        legs.put(
                "full-text",
                ids(
                        pages,
                        Search.session(em)
                                .search(org.agentmemory.brain.entity.BrainPage.class)
                                .select(f -> f.composite()
                                        .from(f.entity(), f.score())
                                        .asList())
                                .where(f -> f.bool()
                                        .must(f.match()
                                                .fields("title", "summary", "body")
                                                .matching(text))
                                        .filter(f.match().field("tenantId").matching(brain.tenantId()))
                                        .filter(f.match().field("brainId").matching(brain.brainId()))
                                        .mustNot(f.match().field("category").matching("archive")))
                                .fetchHits(candidates),
                        -1));
        EmbeddingModel model = settings.embeddingModel();
        float[] vector = QueryVectors.orNull(model, text);
        if (vector != null) {
            legs.put(
                    "vector",
                    ids(
                            pages,
                            Search.session(em)
                                    .search(org.agentmemory.brain.entity.BrainPage.class)
                                    .select(f -> f.composite()
                                            .from(f.entity(), f.score())
                                            .asList())
                                    .where(f -> f.knn(Similarity.knnCandidates(candidates))
                                            .field("embedding")
                                            .matching(vector)
                                            .filter(f.bool()
                                                    .must(f.match()
                                                            .field("tenantId")
                                                            .matching(brain.tenantId()))
                                                    .must(f.match()
                                                            .field("brainId")
                                                            .matching(brain.brainId()))
                                                    .must(f.match()
                                                            .field("embeddingModel")
                                                            .matching(model.name()))
                                                    .mustNot(f.match()
                                                            .field("category")
                                                            .matching("archive"))))
                                    .fetchHits(candidates),
                            MIN_COSINE));
        }
        List<BrainSearchHit> found = new ArrayList<>(topK);
        for (FusedHit hit : FUSION.fuseRanked(legs)) {
            if (found.size() == topK) {
                break;
            }
            org.agentmemory.brain.entity.BrainPage p = pages.get(hit.id());
            found.add(new BrainSearchHit(
                    p.getPageId(), p.getTitle(), p.getSummary(), p.getCategory(), hit.score(), p.getTokenCount()));
        }
        return found;
    }

    /** Keeps the pages of a leg's hits (at least {@code minCosine} for a vector leg, else all), in rank order. */
    private static List<String> ids(
            Map<String, org.agentmemory.brain.entity.BrainPage> pages, List<List<?>> hits, double minCosine) {
        List<String> ids = new ArrayList<>(hits.size());
        for (List<?> hit : hits) {
            if (minCosine > -1 && Similarity.cosineOfLuceneScore(((Number) hit.get(1)).doubleValue()) < minCosine) {
                continue;
            }
            org.agentmemory.brain.entity.BrainPage p = (org.agentmemory.brain.entity.BrainPage) hit.get(0);
            pages.putIfAbsent(p.getPageId(), p);
            ids.add(p.getPageId());
        }
        return ids;
    }

    @Override
    public String knowledge(BrainRef brain, String query, int topK, int maxTokens) throws InvalidInputException {
        checkBrain(brain);
        if (maxTokens < 1) {
            throw new InvalidInputException("maxTokens", "min", "maxTokens must be at least 1.");
        }
        List<BrainSearchHit> hits;
        try {
            hits = search(brain, query, topK);
        } catch (InvalidInputException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Brain search failed; the brain section stays empty", e);
            return "";
        }
        List<KnowledgePacking.Hit> packed = new ArrayList<>(hits.size());
        for (BrainSearchHit h : hits) {
            packed.add(new KnowledgePacking.Hit(h.pageId(), h.title(), h.summary(), h.score(), h.tokenCount()));
        }
        return KnowledgePacking.pack(packed, maxTokens, settings.tokenCounter()::count);
    }

    private static BrainPage record(org.agentmemory.brain.entity.BrainPage row, Instant asOf) {
        List<Statement> shown = Statements.shown(StatementsJson.read(row.getStatements()), asOf);
        List<BrainStatement> statements = new ArrayList<>(shown.size());
        for (Statement s : shown) {
            statements.add(new BrainStatement(
                    s.text(),
                    List.copyOf(s.evidence()),
                    s.assertedAt(),
                    s.supersededAt(),
                    List.copyOf(s.supersededBy())));
        }
        return new BrainPage(
                row.getPageId(),
                row.getBrainId(),
                row.getTitle(),
                row.getCategory(),
                row.getConfidence(),
                row.getSummary(),
                asOf == null ? row.getBody() : Statements.body(shown),
                statements,
                row.getTokenCount(),
                row.getAssertedBy(),
                row.getReinforcementCount(),
                row.getCreatedAt(),
                row.getUpdatedAt(),
                asOf);
    }

    /** PostgreSQL's text cannot hold U+0000; a write holding one is refused, naming the field. */
    private static void noNul(String field, String value) throws InvalidInputException {
        if (value != null && value.indexOf('\u0000') >= 0) {
            throw new InvalidInputException(field, "no-nul", field + " holds a NUL character (U+0000).");
        }
    }

    private static void checkBrain(BrainRef brain) throws InvalidInputException {
        if (brain == null) {
            throw new InvalidInputException("brain", "required", "The brain is required.");
        }
        InputRules.checkTenant(brain.tenantId());
        if (brain.agentId() != null) {
            InputRules.checkId("agentId", brain.agentId());
        }
    }
}
