package org.agentmemory.skills.boundary;

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
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.skills.SkillExistsException;
import org.agentmemory.api.skills.SkillSource;
import org.agentmemory.episodic.boundary.EpisodeFeedBean;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.skills.control.SkillExtraction;
import org.agentmemory.skills.control.SkillRules;
import org.agentmemory.skills.control.SkillTexts;
import org.agentmemory.skills.entity.Skill;

/**
 * Writes skills, each write in a transaction of its own under the row's lock: creates, versioned updates, deletes,
 * and the dream cycle's upserts of extracted skills by name. Every write embeds the skill's text (name, description,
 * tools, instructions) with the episodes' model; a text the model cannot embed leaves the skill to full-text search.
 * Two first writes of one name collide on the unique key; the loser's caller sees the exception and reads again.
 */
@Stateless
@LocalBean
public class SkillWriterBean {

    /** The prefix of an episode's evidence reference ({@link SkillExtraction}). */
    static final String EPISODE = "episode:";

    @jakarta.ejb.EJB
    EpisodeFeedBean episodes;

    private static final Logger LOG = Logger.getLogger(SkillWriterBean.class.getName());

    /** What an upsert of an extracted skill did. */
    public enum Upsert {
        /** A new skill. */
        CREATED,
        /** The extracted skill changed. */
        UPDATED,
        /** Nothing changed. */
        UNCHANGED,
        /** A caller's skill has the name; left alone. */
        MANUAL
    }

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param fields   the checked fields
     * @param now      the write's time
     * @return the new skill, or the stored one when it is a caller's with exactly these fields (a retried create)
     * @throws SkillExistsException when the agent has another skill of that name
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public org.agentmemory.api.skills.Skill create(
            String tenantId, String agentId, SkillRules.Fields fields, Instant now) throws SkillExistsException {
        Skill taken = byName(tenantId, agentId, fields.name(), false);
        if (taken != null && same(taken, fields)) {
            return record(taken); // a retry of the same create
        }
        if (taken != null) {
            throw new SkillExistsException(agentId, fields.name(), taken.getSkillId());
        }
        Skill skill = new Skill(UUID.randomUUID().toString(), tenantId, agentId, source(SkillSource.MANUAL), now);
        skill.write(
                fields.name(),
                fields.description(),
                fields.instructions(),
                fields.tools(),
                fields.examples(),
                List.of());
        embed(skill);
        em.persist(skill);
        em.flush();
        return record(skill);
    }

    /**
     * @param tenantId        the tenant
     * @param agentId         the agent
     * @param skillId         the skill
     * @param fields          the checked fields
     * @param expectedVersion the version the change is based on, or {@code -1}
     * @param now             the write's time
     * @return the skill after the change (unchanged fields: the same version)
     * @throws NotFoundException        when the agent has no such skill
     * @throws VersionConflictException when the stored version is another
     * @throws SkillExistsException     when another skill of the agent has the new name
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public org.agentmemory.api.skills.Skill update(
            String tenantId,
            String agentId,
            String skillId,
            SkillRules.Fields fields,
            long expectedVersion,
            Instant now)
            throws NotFoundException, VersionConflictException, SkillExistsException {
        Skill skill = existing(tenantId, agentId, skillId, true);
        if (expectedVersion >= 0 && expectedVersion != skill.getVersion()) {
            throw new VersionConflictException(
                    expectedVersion,
                    skill.getVersion(),
                    "Skill " + skillId + " is at version " + skill.getVersion() + ", not " + expectedVersion
                            + "; read it again and apply the change to that version.");
        }
        if (!fields.name().equals(skill.getName())) {
            Skill taken = byName(tenantId, agentId, fields.name(), false);
            if (taken != null) {
                throw new SkillExistsException(agentId, fields.name(), taken.getSkillId());
            }
        }
        if (!same(skill, fields)) {
            skill.write(
                    fields.name(),
                    fields.description(),
                    fields.instructions(),
                    fields.tools(),
                    fields.examples(),
                    skill.getEvidence());
            skill.changed(source(SkillSource.MANUAL), now);
            embed(skill);
            em.flush();
        }
        return record(skill);
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param skillId  the skill
     * @throws NotFoundException when the agent has no such skill
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void delete(String tenantId, String agentId, String skillId) throws NotFoundException {
        em.remove(existing(tenantId, agentId, skillId, true));
        em.flush();
    }

    /**
     * Upserts an extracted skill by its name: a new one is created; an extracted one is rewritten when anything
     * changed; a caller's skill of that name is left alone; nothing is written when an episode it cites was erased
     * since extraction read it (reported as unchanged).
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param skill    what extraction produced
     * @param now      the write's time
     * @return what happened
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Upsert upsertExtracted(String tenantId, String agentId, SkillExtraction.Extracted skill, Instant now) {
        // the episodes first, then the skill row: the order in which an erasure deletes them
        if (!allStillExist(tenantId, skill.evidence())) {
            // an episode it was extracted from was erased since it was read: the next cycle extracts it again
            return Upsert.UNCHANGED;
        }
        Skill row = byName(tenantId, agentId, skill.name(), true);
        String extracted = source(SkillSource.EXTRACTED);
        if (row != null && !extracted.equals(row.getSource())) {
            return Upsert.MANUAL;
        }
        if (row != null
                && skill.description().equals(row.getDescription())
                && skill.instructions().equals(row.getInstructions())
                && skill.tools().equals(row.getTools())
                && skill.evidence().equals(row.getEvidence())) {
            return Upsert.UNCHANGED;
        }
        boolean created = row == null;
        if (created) {
            row = new Skill(UUID.randomUUID().toString(), tenantId, agentId, extracted, now);
        }
        row.write(skill.name(), skill.description(), skill.instructions(), skill.tools(), List.of(), skill.evidence());
        if (!created) {
            row.changed(extracted, now);
        }
        embed(row);
        if (created) {
            em.persist(row);
        }
        em.flush();
        return created ? Upsert.CREATED : Upsert.UPDATED;
    }

    /**
     * Locks the cited episodes until the write commits, so that an erasure deleting one of them runs after it (and
     * deletes the skill, {@link SkillEraserBean}) or before it (and the skill is not written).
     *
     * @return whether every cited episode still exists
     */
    private boolean allStillExist(String tenantId, List<String> evidence) {
        List<String> ids = new java.util.ArrayList<>();
        for (String ref : evidence) {
            if (ref.startsWith(EPISODE)) {
                ids.add(ref.substring(EPISODE.length()));
            }
        }
        return ids.isEmpty() || episodes.lockExisting(tenantId, ids).size() == ids.size();
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param name     a skill name
     * @return whether the agent's skill of that name is an extracted one citing exactly {@code evidence} (so a new
     *         extraction of the same episodes has nothing to change)
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean extractedFrom(String tenantId, String agentId, String name, List<String> evidence) {
        Skill row = byName(tenantId, agentId, name, false);
        return row != null
                && source(SkillSource.EXTRACTED).equals(row.getSource())
                && Objects.equals(evidence, row.getEvidence());
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param skillId  the skill
     * @param lock     whether to lock the row until the transaction ends
     * @return the skill
     * @throws NotFoundException when the agent has no such skill in the tenant
     */
    private Skill existing(String tenantId, String agentId, String skillId, boolean lock) throws NotFoundException {
        List<Skill> found = em.createQuery(
                        "select s from Skill s where s.tenantId = :tenant and s.agentId = :agent"
                                + " and s.skillId = :skill",
                        Skill.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setParameter("skill", skillId == null ? "" : skillId)
                .setLockMode(lock ? LockModeType.PESSIMISTIC_WRITE : LockModeType.NONE)
                .getResultList();
        if (found.isEmpty()) {
            throw notFound(tenantId, agentId, skillId);
        }
        return found.get(0);
    }

    /** @return the one answer for a skill the caller may not see, whether it does not exist or is another's */
    static NotFoundException notFound(String tenantId, String agentId, String skillId) {
        return new NotFoundException(
                "skill", skillId, "Agent " + agentId + " has no skill " + skillId + " in tenant '" + tenantId + "'.");
    }

    /** @return whether a stored skill is a caller's with exactly these fields */
    private static boolean same(Skill skill, SkillRules.Fields fields) {
        return fields.name().equals(skill.getName())
                && fields.description().equals(skill.getDescription())
                && fields.instructions().equals(skill.getInstructions())
                && fields.tools().equals(skill.getTools())
                && fields.examples().equals(skill.getExamples())
                && source(SkillSource.MANUAL).equals(skill.getSource());
    }

    private Skill byName(String tenantId, String agentId, String name, boolean lock) {
        List<Skill> found = em.createQuery(
                        "select s from Skill s where s.tenantId = :tenant and s.agentId = :agent and s.name = :name",
                        Skill.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setParameter("name", name)
                .setLockMode(lock ? LockModeType.PESSIMISTIC_WRITE : LockModeType.NONE)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private void embed(Skill skill) {
        EmbeddingModel model = settings.embeddingModel();
        try {
            skill.embed(
                    model.embed(SkillTexts.embedded(
                            skill.getName(), skill.getDescription(), skill.getTools(), skill.getInstructions())),
                    model.name());
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Skill " + skill.getSkillId() + " could not be embedded; full-text only", e);
            skill.embed(null, null);
        }
    }

    /** @return the stored form of a source */
    static String source(SkillSource source) {
        return source.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param row a stored skill
     * @return its transfer record
     */
    static org.agentmemory.api.skills.Skill record(Skill row) {
        return new org.agentmemory.api.skills.Skill(
                row.getSkillId(),
                row.getAgentId(),
                row.getName(),
                row.getDescription(),
                row.getInstructions(),
                row.getTools(),
                row.getExamples(),
                SkillSource.valueOf(row.getSource().toUpperCase(Locale.ROOT)),
                row.getEvidence(),
                row.getVersion(),
                row.getCreatedAt(),
                row.getUpdatedAt());
    }
}
