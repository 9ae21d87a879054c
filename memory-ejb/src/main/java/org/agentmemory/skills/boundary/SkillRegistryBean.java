package org.agentmemory.skills.boundary;

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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.api.skills.SkillExistsException;
import org.agentmemory.api.skills.SkillHit;
import org.agentmemory.api.skills.SkillInput;
import org.agentmemory.api.skills.SkillRegistry;
import org.agentmemory.api.skills.SkillRegistryRemote;
import org.agentmemory.api.skills.SkillSource;
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
import org.agentmemory.skills.control.SkillRules;
import org.agentmemory.skills.control.SkillTexts;
import org.agentmemory.skills.entity.Skill;
import org.hibernate.search.mapper.orm.Search;

/**
 * The skills registry ({@link SkillRegistry}, issue 35 item 2): writes through {@link SkillWriterBean}, reads scoped
 * to (tenant, agent), hybrid search (a full-text leg over name, description and instructions and a vector leg over the
 * skills' vectors, fused by reciprocal rank) and the skills section of an assembled context (spec §9.3 branch 2).
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
public class SkillRegistryBean implements SkillRegistry, SkillRegistryRemote {

    private static final Logger LOG = Logger.getLogger(SkillRegistryBean.class.getName());

    /** Candidates per leg of a search, at least. */
    static final int CANDIDATES = 20;

    private static final ReciprocalRankFusion FUSION = new ReciprocalRankFusion();

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    SkillWriterBean writer;

    @Inject
    Settings settings;

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public org.agentmemory.api.skills.Skill createSkill(String tenantId, String agentId, SkillInput input)
            throws InvalidInputException, SkillExistsException {
        checkAgent(tenantId, agentId);
        SkillRules.Fields fields = SkillRules.check(input);
        try {
            return writer.create(tenantId, agentId, fields, now());
        } catch (EJBException firstWriteRace) {
            // Another create of the same name won the insert; the row exists now and answers 409.
            LOG.log(Level.FINE, "Skill create retried", firstWriteRace);
            return writer.create(tenantId, agentId, fields, now());
        }
    }

    @Override
    public org.agentmemory.api.skills.Skill getSkill(String tenantId, String agentId, String skillId)
            throws NotFoundException, InvalidInputException {
        checkAgent(tenantId, agentId);
        InputRules.checkId("skillId", skillId);
        List<Skill> found = em.createQuery(
                        "select s from Skill s where s.tenantId = :tenant and s.agentId = :agent"
                                + " and s.skillId = :skill",
                        Skill.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setParameter("skill", skillId)
                .getResultList();
        if (found.isEmpty()) {
            throw SkillWriterBean.notFound(tenantId, agentId, skillId);
        }
        return SkillWriterBean.record(found.get(0));
    }

    @Override
    public Page<org.agentmemory.api.skills.Skill> listSkills(
            String tenantId, String agentId, SkillSource source, int limit, String cursor)
            throws InvalidInputException {
        checkAgent(tenantId, agentId);
        Cursors.checkLimit(limit);
        long bound = Cursors.idBound(cursor);
        var query = em.createQuery(
                        "select s from Skill s where s.tenantId = :tenant and s.agentId = :agent and s.id < :bound"
                                + (source == null ? "" : " and s.source = :source")
                                + " order by s.id desc",
                        Skill.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setParameter("bound", bound)
                .setMaxResults(limit + 1);
        if (source != null) {
            query.setParameter("source", SkillWriterBean.source(source));
        }
        List<Skill> rows = query.getResultList();
        boolean more = rows.size() > limit;
        List<Skill> items = more ? rows.subList(0, limit) : rows;
        List<org.agentmemory.api.skills.Skill> skills = new ArrayList<>(items.size());
        items.forEach(row -> skills.add(SkillWriterBean.record(row)));
        return new Page<>(
                skills, more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public org.agentmemory.api.skills.Skill updateSkill(
            String tenantId, String agentId, String skillId, SkillInput input, long expectedVersion)
            throws NotFoundException, InvalidInputException, VersionConflictException, SkillExistsException {
        checkAgent(tenantId, agentId);
        InputRules.checkId("skillId", skillId);
        SkillRules.Fields fields = SkillRules.check(input);
        try {
            return writer.update(tenantId, agentId, skillId, fields, expectedVersion, now());
        } catch (EJBException renameRace) {
            // Another write took the new name meanwhile; the retry answers 409.
            LOG.log(Level.FINE, "Skill update retried", renameRace);
            return writer.update(tenantId, agentId, skillId, fields, expectedVersion, now());
        }
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void deleteSkill(String tenantId, String agentId, String skillId)
            throws NotFoundException, InvalidInputException {
        checkAgent(tenantId, agentId);
        InputRules.checkId("skillId", skillId);
        writer.delete(tenantId, agentId, skillId);
    }

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public List<SkillHit> searchSkills(String tenantId, String agentId, String query, int topK)
            throws InvalidInputException {
        checkAgent(tenantId, agentId);
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new InvalidInputException("topK", "range", "topK must be between 1 and " + MAX_TOP_K + ".");
        }
        InputRules.checkText("query", query, InputRules.Controls.NO_NUL);
        if (query == null || query.isBlank()) {
            return List.of();
        }
        String text = QueryTerms.bound(query).text();
        if (text.isBlank()) {
            return List.of();
        }
        int candidates = Math.max(topK, CANDIDATES);
        Map<String, Skill> skills = new HashMap<>();
        Map<String, List<String>> legs = new LinkedHashMap<>();
        legs.put(
                "full-text",
                ids(
                        tenantId,
                        agentId,
                        skills,
                        Search.session(em)
                                .search(Skill.class)
                                .select(f -> f.composite()
                                        .from(f.entity(), f.score())
                                        .asList())
                                .where(f -> f.bool()
                                        .must(f.match()
                                                .fields("name", "description", "instructions")
                                                .matching(text))
                                        .filter(f.match().field("tenantId").matching(tenantId))
                                        .filter(f.match().field("agentId").matching(agentId)))
                                .fetchHits(candidates),
                        -1));
        EmbeddingModel model = settings.embeddingModel();
        float[] vector = QueryVectors.orNull(model, text);
        if (vector != null) {
            legs.put(
                    "vector",
                    ids(
                            tenantId,
                            agentId,
                            skills,
                            Search.session(em)
                                    .search(Skill.class)
                                    .select(f -> f.composite()
                                            .from(f.entity(), f.score())
                                            .asList())
                                    .where(f -> f.knn(Similarity.knnCandidates(candidates))
                                            .field("embedding")
                                            .matching(vector)
                                            .filter(f.bool()
                                                    .must(f.match()
                                                            .field("tenantId")
                                                            .matching(tenantId))
                                                    .must(f.match()
                                                            .field("agentId")
                                                            .matching(agentId))
                                                    .must(f.match()
                                                            .field("embeddingModel")
                                                            .matching(model.name()))))
                                    .fetchHits(candidates),
                            MIN_COSINE));
        }
        List<SkillHit> found = new ArrayList<>(topK);
        for (FusedHit hit : FUSION.fuseRanked(legs)) {
            if (found.size() == topK) {
                break;
            }
            found.add(new SkillHit(SkillWriterBean.record(skills.get(hit.id())), hit.score()));
        }
        return found;
    }

    /** Keeps the skills of a leg's hits (at least {@code minCosine} for a vector leg, else all), in rank order. */
    private static List<String> ids(
            String tenantId, String agentId, Map<String, Skill> skills, List<List<?>> hits, double minCosine) {
        List<String> ids = new ArrayList<>(hits.size());
        for (List<?> hit : hits) {
            if (minCosine > -1 && Similarity.cosineOfLuceneScore(((Number) hit.get(1)).doubleValue()) < minCosine) {
                continue;
            }
            Skill s = (Skill) hit.get(0);
            // Every leg filters by tenant and agent in the query; checked again on the loaded row.
            if (!tenantId.equals(s.getTenantId()) || !agentId.equals(s.getAgentId())) {
                continue;
            }
            skills.putIfAbsent(s.getSkillId(), s);
            ids.add(s.getSkillId());
        }
        return ids;
    }

    @Override
    public String relevantSkills(String tenantId, String agentId, String query, int maxSkills)
            throws InvalidInputException {
        checkAgent(tenantId, agentId);
        if (maxSkills < 0 || maxSkills > MAX_TOP_K) {
            throw new InvalidInputException("maxSkills", "range", "maxSkills must be between 0 and " + MAX_TOP_K + ".");
        }
        if (maxSkills == 0) {
            return "";
        }
        List<SkillTexts.Shown> shown = new ArrayList<>();
        for (SkillHit hit : searchSkills(tenantId, agentId, query, maxSkills)) {
            org.agentmemory.api.skills.Skill s = hit.skill();
            shown.add(new SkillTexts.Shown(s.name(), s.description(), s.tools(), s.instructions()));
        }
        return SkillTexts.section(shown);
    }

    private static void checkAgent(String tenantId, String agentId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
