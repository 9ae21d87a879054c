package org.agentmemory.skills.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.episodic.boundary.EpisodeFeedBean;
import org.agentmemory.skills.control.SkillExtraction;

/**
 * Extracts an agent's skills from its successful episodes (spec §9.4 {@code skill_auto_extract}, issue 35 item 2), for
 * the dream cycle: when the agent's registration says so, or says nothing and {@code memory.skills.auto-extract} is
 * on. Reads the newest {@code memory.skills.extract-episodes} successful episodes ({@link EpisodeFeedBean#successes}:
 * category, tools and lesson only), clusters them ({@link SkillExtraction}), has each skill written by the model or
 * the heuristic ({@link SkillDistillationService}) and upserts it by name ({@link SkillWriterBean#upsertExtracted}),
 * each in a transaction of its own. A skill whose stored evidence is already exactly the cluster's is left as it is
 * without asking the model, so a re-run over the same episodes changes nothing.
 */
@Stateless
@LocalBean
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SkillExtractionBean {

    private static final Logger LOG = Logger.getLogger(SkillExtractionBean.class.getName());

    /**
     * What one extraction did.
     *
     * @param episodesRead successful episodes read
     * @param created      names of the skills created
     * @param updated      names of the extracted skills rewritten
     * @param unchanged    names of the extracted skills left as they were
     * @param manual       names a caller's skill already has (left alone)
     * @param byModel      skills the model wrote
     */
    public record Extraction(
            int episodesRead,
            List<String> created,
            List<String> updated,
            List<String> unchanged,
            List<String> manual,
            int byModel) {}

    @EJB
    EpisodeFeedBean feed;

    @EJB
    SkillWriterBean writer;

    @EJB
    AgentRoutingBean agents;

    @Inject
    SkillDistillationService distiller;

    @Inject
    SkillsConfig config;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return what was done, or {@code null} when extraction is off for the agent
     */
    public Extraction extractIfEnabled(String tenantId, String agentId) {
        Boolean registered = agents.autoExtract(tenantId, agentId);
        if (!(registered == null ? config.autoExtract() : registered)) {
            return null;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<SkillExtraction.SuccessEpisode> episodes = new ArrayList<>();
        for (EpisodeFeedBean.Success s : feed.successes(tenantId, agentId, now, config.extractEpisodes())) {
            episodes.add(new SkillExtraction.SuccessEpisode(
                    s.episodeId(), s.createdAt(), s.category(), s.relatedTools(), s.lesson()));
        }
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        List<String> manual = new ArrayList<>();
        int byModel = 0;
        for (SkillExtraction.Extracted skill : SkillExtraction.extract(episodes, config.extractMinEpisodes())) {
            if (writer.extractedFrom(tenantId, agentId, skill.name(), skill.evidence())) {
                unchanged.add(skill.name());
                continue;
            }
            SkillDistillationService.Written written = distiller.write(skill);
            byModel += written.byModel() ? 1 : 0;
            SkillWriterBean.Upsert done;
            try {
                done = writer.upsertExtracted(tenantId, agentId, written.skill(), now);
            } catch (EJBException firstWriteRace) {
                LOG.log(Level.FINE, "Extracted skill upsert retried", firstWriteRace);
                done = writer.upsertExtracted(tenantId, agentId, written.skill(), now);
            }
            switch (done) {
                case CREATED -> created.add(skill.name());
                case UPDATED -> updated.add(skill.name());
                case UNCHANGED -> unchanged.add(skill.name());
                case MANUAL -> manual.add(skill.name());
            }
        }
        Extraction e = new Extraction(episodes.size(), created, updated, unchanged, manual, byModel);
        LOG.log(
                created.isEmpty() && updated.isEmpty() ? Level.FINE : Level.INFO,
                () -> "Skill extraction of " + agentId + ": read " + e.episodesRead() + " successful episodes,"
                        + " created " + e.created() + ", updated " + e.updated() + ", unchanged "
                        + e.unchanged().size() + ", names held by callers' skills " + e.manual() + ", by model "
                        + e.byModel());
        return e;
    }
}
